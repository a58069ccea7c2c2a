# expect: exit
# status: 3
# error: SystemExit
# message: sys.exit(3)
import sys
sys.exit(3)
