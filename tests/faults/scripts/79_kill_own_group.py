# expect: crash
# message: kernel
import os
import signal
print("ending my own process group", flush=True)
os.killpg(0, signal.SIGKILL)
