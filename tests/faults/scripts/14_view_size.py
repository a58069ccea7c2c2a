# expect: exception
# error: RuntimeError
# message: shape '[4]' is invalid for input of size 6
import torch
torch.ones(2, 3).view(4)
