# expect: exception
# error: OSError
import os
held = []
while True:
    held.append(open(os.devnull))
