# expect: timeout
import signal
signal.signal(signal.SIGINT, signal.SIG_IGN)
while True:
    pass
