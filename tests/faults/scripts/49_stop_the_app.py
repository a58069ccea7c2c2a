# expect: exception
# error: PermissionError
import os
import signal
os.kill(os.getppid(), signal.SIGSTOP)
print("the app was stopped")
