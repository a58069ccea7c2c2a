# expect: exception
# error: AttributeError
import torch
torch = None
torch.ones(2)
