# expect: exit
# status: 7
# message: exit code 7
import os
print('leaving', flush=True)
os._exit(7)
