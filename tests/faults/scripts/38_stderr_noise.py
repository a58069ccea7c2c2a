# expect: ok
import sys
for i in range(1000):
    print('warning', i, file=sys.stderr)
