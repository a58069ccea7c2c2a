# expect: ok
import os
os.environ.clear()
os.environ["PATH"] = ""
print("no environment")
