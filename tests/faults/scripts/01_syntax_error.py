# expect: syntax
# error: SyntaxError
import torch
x = torch.ones(2
print(x)
