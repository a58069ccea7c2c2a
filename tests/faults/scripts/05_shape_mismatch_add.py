# expect: exception
# error: RuntimeError
# message: The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 0
import torch
torch.ones(3) + torch.ones(2)
