# In the style of: a student's first manual update without torch.no_grad (an in-place change of
# a leaf that requires grad): the script stops with a traceback, exit status 1
# Family: blogs-and-qa
import torch

w = torch.tensor([0.5, -0.5], requires_grad=True)
loss = (w**2).sum()
loss.backward()
print(w.grad)


def update(param, lr):
    param.sub_(lr * param.grad)


update(w, 0.1)
print("not reached")
