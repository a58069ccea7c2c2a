# expect: timeout
import signal
import time
signal.signal(signal.SIGUSR2, signal.SIG_IGN)
time.sleep(100)
