# expect: syntax
# error: IndentationError
import torch
if True:
print('no indent')
