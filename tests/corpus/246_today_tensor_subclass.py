# In the style of: "Extending torch with __torch_function__" docs: logging tensor subclass, Tensor.as_subclass, torch.overrides helpers (a third fresh sample: today's code, from sources the corpus had not yet drawn on)
# Family: pytorch-docs
import torch
torch.manual_seed(0)
class LoggingTensor(torch.Tensor):
    log = []
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        LoggingTensor.log.append(getattr(func, "__name__", str(func)))
        return super().__torch_function__(func, types, args, kwargs)
t = torch.randn(3).as_subclass(LoggingTensor)
u = (t * 2 + 1).sum()
print(type(u).__name__, LoggingTensor.log[:6])
class Scalar:
    def __init__(self, n, v):
        self._n, self._v = n, v
    def tensor(self):
        return self._v * torch.eye(self._n)
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        if func is torch.mean:
            return float(args[0]._v)
        return NotImplemented
print(torch.mean(Scalar(3, 2.5)))
p = torch.nn.Parameter(torch.randn(2))
print(type(p * 2).__name__, type(p.data).__name__, isinstance(p, torch.Tensor))
class MyParam(torch.nn.Parameter):
    pass
mp = MyParam(torch.ones(2))
print(type(mp).__name__, mp.requires_grad, type(mp + 1).__name__)
print(torch.overrides.has_torch_function((t,)), torch.overrides.is_tensor_like(t), len(torch.overrides.get_ignored_functions()) > 0)
