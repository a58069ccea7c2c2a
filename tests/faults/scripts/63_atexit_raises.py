# expect: ok
import atexit
atexit.register(lambda: 1 / 0)
print("registered")
