# expect: exception
# error: NameError
# message: name 'undefined_tensor' is not defined
import torch
print(undefined_tensor)
