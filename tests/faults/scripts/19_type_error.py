# expect: exception
# error: TypeError
import torch
torch.ones(2) + 'text'
