"""``torch.nn.utils.prune``: masks that zero part of a module's tensor, kept as ``NAME_orig``
(the parameter) times ``NAME_mask`` (a buffer) and re-applied by a forward pre-hook, as the
PyTorch pruning tutorial shows them. The masks draw from the generator and pick with
``topk``/``kthvalue`` where torch does, so a seeded script prunes the same entries."""

from __future__ import annotations

import numbers
from collections.abc import Iterable

from ... import _factories
from ...nn.utils.convert_parameters import parameters_to_vector

__all__ = ["BasePruningMethod", "PruningContainer", "Identity", "RandomUnstructured",
           "L1Unstructured", "RandomStructured", "LnStructured", "CustomFromMask", "identity",
           "random_unstructured", "l1_unstructured", "random_structured", "ln_structured",
           "global_unstructured", "custom_from_mask", "remove", "is_pruned"]


class BasePruningMethod:
    """One way of choosing what to prune; also the module's forward pre-hook that recomputes
    ``NAME = NAME_mask * NAME_orig`` before each call."""

    PRUNING_TYPE: str
    _tensor_name: str | None = None

    def __call__(self, module, inputs) -> None:
        setattr(module, self._tensor_name, self.apply_mask(module))

    def compute_mask(self, t, default_mask):
        raise NotImplementedError

    def apply_mask(self, module):
        if self._tensor_name is None:
            raise AssertionError(f"Module {module} has to be pruned")
        mask = getattr(module, self._tensor_name + "_mask")
        original = getattr(module, self._tensor_name + "_orig")
        return mask.to(dtype=original.dtype) * original

    @classmethod
    def apply(cls, module, name, *args, importance_scores=None, **kwargs):
        """Prune ``module.name`` with a new ``cls(*args, **kwargs)``; pruned before, the new
        method joins the earlier ones in a PruningContainer and acts on what they kept."""
        method = _joined_with_earlier(cls(*args, **kwargs), module, name)
        original = getattr(module, name)
        if importance_scores is None:
            importance_scores = original
        elif importance_scores.shape != original.shape:
            raise AssertionError(f"importance_scores should have the same shape as parameter "
                                 f"{name} of {module}, got {importance_scores.shape} vs "
                                 f"{original.shape}")
        first_time = not isinstance(method, PruningContainer)
        if first_time:
            module.register_parameter(name + "_orig", original)
            del module._parameters[name]
            default_mask = _factories.ones_like(original)
        else:
            default_mask = getattr(module, name + "_mask").detach().clone()
        try:
            mask = method.compute_mask(importance_scores, default_mask=default_mask)
            module.register_buffer(name + "_mask", mask)
            setattr(module, name, method.apply_mask(module))
            module.register_forward_pre_hook(method)
        except Exception:
            if first_time:  # the parameter goes back where it was
                module.register_parameter(name, getattr(module, name + "_orig"))
                del module._parameters[name + "_orig"]
            raise
        return method

    def prune(self, t, default_mask=None, importance_scores=None):
        """``t`` times the mask this method computes for it (no module involved)."""
        if importance_scores is None:
            importance_scores = t
        elif importance_scores.shape != t.shape:
            raise AssertionError(f"importance_scores should have the same shape as tensor t, "
                                 f"got {importance_scores.shape} vs {t.shape}")
        if default_mask is None:
            default_mask = _factories.ones_like(t)
        return t * self.compute_mask(importance_scores, default_mask=default_mask)

    def remove(self, module) -> None:
        """Make the pruning permanent: ``NAME`` a parameter again, holding the masked values."""
        if self._tensor_name is None:
            raise AssertionError(f"Module {module} has to be pruned before pruning can be "
                                 "removed")
        name = self._tensor_name
        pruned = self.apply_mask(module)
        if hasattr(module, name):
            delattr(module, name)
        parameter = module._parameters.pop(name + "_orig")
        parameter.data = pruned.data
        del module._buffers[name + "_mask"]
        setattr(module, name, parameter)


def _joined_with_earlier(method, module, name):
    """``method`` named for ``name``, or with the earlier pruning of ``name`` in one container
    (whose hook leaves the module: the container's is registered again)."""
    method._tensor_name = name
    earlier = [(number, hook) for number, hook in module._forward_pre_hooks.items()
               if isinstance(hook, BasePruningMethod) and hook._tensor_name == name]
    if len(earlier) > 1:
        raise AssertionError(f"Avoid adding multiple pruning hooks to the same tensor {name} "
                             f"of module {module}. Use a PruningContainer.")
    if not earlier:
        return method
    number, previous = earlier[0]
    del module._forward_pre_hooks[number]
    container = previous if isinstance(previous, PruningContainer) else PruningContainer(previous)
    container.add_pruning_method(method)
    return container


class PruningContainer(BasePruningMethod):
    """Pruning methods applied one after another to the same tensor: the newest one prunes
    only what the earlier masks kept."""

    def __init__(self, *methods) -> None:
        self._pruning_methods: tuple = ()
        if len(methods) == 1:
            self._tensor_name = methods[0]._tensor_name
        for method in methods:
            self.add_pruning_method(method)

    def add_pruning_method(self, method) -> None:
        if method is not None and not isinstance(method, BasePruningMethod):
            raise TypeError(f"{type(method)} is not a BasePruningMethod subclass")
        if method is not None and self._tensor_name != method._tensor_name:
            raise ValueError("Can only add pruning methods acting on the parameter named "
                             f"'{self._tensor_name}' to PruningContainer {self}. Found "
                             f"'{method._tensor_name}'")
        self._pruning_methods += (method,)

    def __len__(self) -> int:
        return len(self._pruning_methods)

    def __iter__(self):
        return iter(self._pruning_methods)

    def __getitem__(self, index):
        return self._pruning_methods[index]

    def compute_mask(self, t, default_mask):
        """The newest method's mask over the part the current mask keeps: the kept entries
        (unstructured), the kept channels along its ``dim`` (structured) or all (global)."""
        newest = self._pruning_methods[-1]
        combined = default_mask.to(dtype=t.dtype)
        kept = _kept_part(newest, t, default_mask)
        partial = newest.compute_mask(t[kept], default_mask=default_mask[kept])
        combined[kept] = partial.to(dtype=combined.dtype)
        return combined


def _kept_part(method, t, mask):
    """The index that selects what ``method`` may still prune, given the current mask."""
    kind = method.PRUNING_TYPE
    if kind == "unstructured":
        return mask == 1
    if kind == "global":
        return (slice(None),) * len(t.shape)
    if kind != "structured":
        raise ValueError(f"Unrecognized PRUNING_TYPE {kind}")
    if not hasattr(method, "dim"):
        raise AttributeError('Pruning methods of PRUNING_TYPE "structured" need to have the '
                             "attribute `dim` defined.")
    dims = t.dim()
    dim = method.dim + dims if method.dim < 0 else method.dim
    if dim < 0:
        raise IndexError(f"Index is out of bounds for tensor with dimensions {dims}")
    channels_kept = mask.sum(dim=[d for d in range(dims) if d != dim]) != 0
    return tuple(channels_kept if d == dim else slice(None) for d in range(dims))


class Identity(BasePruningMethod):
    """Prunes nothing: the mask is all ones (a way to get the _orig/_mask form)."""

    PRUNING_TYPE = "unstructured"

    def compute_mask(self, t, default_mask):
        return default_mask

    @classmethod
    def apply(cls, module, name):
        return super().apply(module, name)


class _AmountPruning(BasePruningMethod):
    """A method that prunes an ``amount``: a count, or a fraction of the entries (rounded)."""

    def __init__(self, amount) -> None:
        _check_amount(amount)
        self.amount = amount

    def _count(self, size: int) -> int:
        count = self.amount if isinstance(self.amount, numbers.Integral) else round(
            self.amount * size)
        if isinstance(count, numbers.Integral) and count > size:
            raise ValueError(f"amount={count} should be smaller than the number of parameters "
                             f"to prune={size}")
        return count


class _UnstructuredPruning(_AmountPruning):
    """Zeros the ``amount`` entries that score highest under ``_scores`` (anywhere)."""

    PRUNING_TYPE = "unstructured"

    def compute_mask(self, t, default_mask):
        count = self._count(t.nelement())
        mask = default_mask.clone()
        if count != 0:
            chosen = self._chosen(t, count)
            mask.view(-1)[chosen] = 0
        return mask


class RandomUnstructured(_UnstructuredPruning):
    """Zeros ``amount`` entries at random (the largest of a uniform draw per entry)."""

    def _chosen(self, t, count):
        return _factories.rand_like(t).view(-1).topk(k=count).indices

    @classmethod
    def apply(cls, module, name, amount):
        return super().apply(module, name, amount=amount)


class L1Unstructured(_UnstructuredPruning):
    """Zeros the ``amount`` entries of smallest magnitude."""

    def _chosen(self, t, count):
        return t.abs().view(-1).topk(k=count, largest=False).indices

    @classmethod
    def apply(cls, module, name, amount, importance_scores=None):
        return super().apply(module, name, amount=amount, importance_scores=importance_scores)


class _StructuredPruning(_AmountPruning):
    """Zeros whole channels (slices along ``dim``) with a mask of ones over the kept ones."""

    PRUNING_TYPE = "structured"

    def compute_mask(self, t, default_mask):
        if len(t.shape) <= 1:
            raise ValueError("Structured pruning can only be applied to multidimensional "
                             f"tensors. Found tensor of shape {t.shape} with {len(t.shape)} "
                             "dims")
        if self.dim >= t.dim():
            raise IndexError(f"Invalid index {self.dim} for tensor of size {t.shape}")
        channels = t.shape[self.dim]
        count = self._count(channels)
        kept = self._kept_channels(t, channels, count)
        if count == 0:
            return default_mask
        mask = _factories.zeros_like(t)
        mask[tuple(kept if d == self.dim % t.dim() else slice(None)
                   for d in range(t.dim()))] = 1
        mask *= default_mask.to(dtype=mask.dtype)
        return mask


class RandomStructured(_StructuredPruning):
    """Zeros ``amount`` channels along ``dim`` at random."""

    def __init__(self, amount, dim=-1) -> None:
        super().__init__(amount)
        self.dim = dim

    def _kept_channels(self, t, channels, count):
        if count == 0:
            return None
        draws = _factories.rand(channels)
        return draws > draws.kthvalue(k=count).values

    @classmethod
    def apply(cls, module, name, amount, dim=-1):
        return super().apply(module, name, amount=amount, dim=dim)


class LnStructured(_StructuredPruning):
    """Zeros the ``amount`` channels along ``dim`` of smallest L``n`` norm."""

    def __init__(self, amount, n, dim=-1) -> None:
        super().__init__(amount)
        self.n = n
        self.dim = dim

    def _kept_channels(self, t, channels, count):
        dim = list(range(t.dim()))[self.dim]
        norms = t.norm(p=self.n, dim=[d for d in range(t.dim()) if d != dim])
        return norms.topk(k=channels - count, largest=True).indices

    @classmethod
    def apply(cls, module, name, amount, n, dim, importance_scores=None):
        return super().apply(module, name, amount=amount, n=n, dim=dim,
                             importance_scores=importance_scores)


class CustomFromMask(BasePruningMethod):
    """Zeros what a given mask zeros."""

    PRUNING_TYPE = "global"

    def __init__(self, mask) -> None:
        self.mask = mask

    def compute_mask(self, t, default_mask):
        if default_mask.shape != self.mask.shape:
            raise AssertionError(f"default_mask shape {default_mask.shape} must match "
                                 f"self.mask shape {self.mask.shape}")
        return default_mask * self.mask.to(dtype=default_mask.dtype)

    @classmethod
    def apply(cls, module, name, mask):
        return super().apply(module, name, mask=mask)


def identity(module, name):
    Identity.apply(module, name)
    return module


def random_unstructured(module, name, amount):
    RandomUnstructured.apply(module, name, amount)
    return module


def l1_unstructured(module, name, amount, importance_scores=None):
    L1Unstructured.apply(module, name, amount=amount, importance_scores=importance_scores)
    return module


def random_structured(module, name, amount, dim):
    RandomStructured.apply(module, name, amount, dim)
    return module


def ln_structured(module, name, amount, n, dim, importance_scores=None):
    LnStructured.apply(module, name, amount, n, dim, importance_scores=importance_scores)
    return module


def custom_from_mask(module, name, mask):
    CustomFromMask.apply(module, name, mask)
    return module


def global_unstructured(parameters, pruning_method, importance_scores=None, **kwargs) -> None:
    """Prune across several tensors at once, as if they were one vector: the method's mask
    over all of them, cut back into one CustomFromMask per tensor."""
    if not isinstance(parameters, Iterable):
        raise TypeError("global_unstructured(): parameters is not an Iterable")
    importance_scores = {} if importance_scores is None else importance_scores
    if not isinstance(importance_scores, dict):
        raise TypeError("global_unstructured(): importance_scores must be of type dict")
    scores = parameters_to_vector([importance_scores.get((module, name), getattr(module, name))
                                   for module, name in parameters])
    masks = parameters_to_vector([
        getattr(module, name + "_mask", _factories.ones_like(getattr(module, name)))
        for module, name in parameters])
    method = pruning_method(**kwargs)
    method._tensor_name = "temp"
    if method.PRUNING_TYPE != "unstructured":
        raise TypeError('Only "unstructured" PRUNING_TYPE supported for the `pruning_method`. '
                        f"Found method {pruning_method} of type {method.PRUNING_TYPE}")
    container = PruningContainer()
    container._tensor_name = "temp"
    container.add_pruning_method(method)
    whole_mask = container.compute_mask(scores, masks)
    start = 0
    for module, name in parameters:
        tensor = getattr(module, name)
        size = tensor.numel()
        custom_from_mask(module, name, mask=whole_mask[start:start + size].view_as(tensor))
        start += size


def remove(module, name):
    """Make ``name``'s pruning permanent and drop its hook, mask and ``_orig``."""
    for number, hook in module._forward_pre_hooks.items():
        if isinstance(hook, BasePruningMethod) and hook._tensor_name == name:
            hook.remove(module)
            del module._forward_pre_hooks[number]
            return module
    raise ValueError(f"Parameter '{name}' of module {module} has to be pruned before pruning "
                     "can be removed")


def is_pruned(module) -> bool:
    """Whether any submodule carries a pruning hook."""
    return any(isinstance(hook, BasePruningMethod)
               for _, submodule in module.named_modules()
               for hook in submodule._forward_pre_hooks.values())


def _check_amount(amount) -> None:
    if not isinstance(amount, numbers.Real):
        raise TypeError(f"Invalid type for amount: {amount}. Must be int or float.")
    whole = isinstance(amount, numbers.Integral)
    if (whole and amount < 0) or (not whole and not 0.0 <= float(amount) <= 1.0):
        raise ValueError(f"amount={amount} should either be a float in the range [0, 1] or a "
                         "non-negative integer")

