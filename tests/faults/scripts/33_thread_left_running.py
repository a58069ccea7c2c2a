# expect: ok
import threading, time
threading.Thread(target=lambda: time.sleep(3600), daemon=True).start()
threading.Thread(target=lambda: time.sleep(3600)).start()
print('main done')
