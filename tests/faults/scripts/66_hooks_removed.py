# expect: exception
# error: ZeroDivisionError
import sys
import threading
sys.excepthook = None
threading.excepthook = None
sys.displayhook = None
1 / 0
