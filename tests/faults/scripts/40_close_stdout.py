# expect: ok
import sys
sys.stdout.close()
