# expect: ok
# timeout: 20
import os
import signal
os.kill(os.getpid(), signal.SIGSTOP)
print("resumed")
