# expect: exit
# status: 0
# error: SystemExit
# message: sys.exit(0)
import sys
print('before')
sys.exit(0)
