# expect: ok
import sys
import threading
thread = threading.Thread(target=sys.exit, args=(5,))
thread.start()
thread.join()
print("the thread's exit ended only the thread")
