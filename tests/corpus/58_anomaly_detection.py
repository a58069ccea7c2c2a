# In the style of: debugging posts about NaN gradients (sqrt at zero, 0/0) and
# torch.autograd.detect_anomaly, which names the backward node that produced the NaN
# Family: blogs-and-qa
import warnings

import torch

warnings.simplefilter("ignore")  # the forward traceback's warning names torch's own files
x = torch.tensor([0.0, 4.0], requires_grad=True)
y = torch.sqrt(x) * 0
y.sum().backward()
print("without anomaly mode:", x.grad)
x.grad = None
with torch.autograd.detect_anomaly():
    print(torch.is_anomaly_enabled())
    z = x / x
    try:
        z.sum().backward()
    except RuntimeError as error:
        print("RuntimeError:", error)
print(torch.is_anomaly_enabled())
with torch.autograd.set_detect_anomaly(True, check_nan=False):
    z = x / x
    z.sum().backward()
    print(x.grad)
