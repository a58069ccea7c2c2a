# expect: exit
# error: SystemExit
# status: 1
import sys
sys.exit(["not", "a", "number"])
