# expect: ok
import subprocess
import sys
subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
print("a child still holds the output pipe")
