# expect: ok
import sys
class Broken:
    def write(self, text):
        raise RuntimeError("no")
sys.stdout = Broken()
sys.stderr = Broken()
