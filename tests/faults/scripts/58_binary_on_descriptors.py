# expect: ok
import os
os.write(1, bytes(range(256)))
os.write(2, b"\0" * 100 + b"\xff\xfe")
print()
print("after binary")
