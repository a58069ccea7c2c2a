# expect: exception
# error: IndexError
# message: index 5 is out of bounds for dimension 0 with size 3
import torch
torch.ones(3)[5]
