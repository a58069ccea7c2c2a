# expect: memory
# error: MemoryError
# message: more memory than the kernel
# timeout: 30
blocks = []
while True:
    blocks.append(bytearray(256 * 1024 * 1024))
