# expect: exception
# error: RuntimeError
# message: cannot be multiplied
import torch
torch.ones(2, 3) @ torch.ones(2, 3)
