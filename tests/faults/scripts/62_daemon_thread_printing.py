# expect: ok
import threading
import time
def chatter():
    while True:
        print("still here")
        time.sleep(0.01)
threading.Thread(target=chatter, daemon=True).start()
time.sleep(0.1)
