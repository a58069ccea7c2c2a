# expect: exception
# error: AttributeError
import torch
torch.ones(2).gradd
