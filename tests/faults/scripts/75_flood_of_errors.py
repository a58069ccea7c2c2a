# expect: ok
import sys
for n in range(200_000):
    sys.stderr.write(f"warning {n}: " + "x" * 40 + "\n")
print("done")
