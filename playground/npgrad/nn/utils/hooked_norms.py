"""``torch.nn.utils.weight_norm`` and ``spectral_norm`` in their older form, which torch keeps
beside the parametrizations: the parameters they split the weight into are registered on the
module itself (``weight_g``/``weight_v``; ``weight_orig`` with buffers ``weight_u``/``weight_v``)
and a forward pre-hook recomputes ``module.weight`` before each forward."""

from __future__ import annotations

from ..._grad_mode import no_grad
from ..._tensor import Tensor
from ..._user_warnings import warn_at_user_code
from ..._weight_norm import norm_except_dim
from ..._weight_norm import weight_norm as _weight_norm
from .. import functional as F
from ..convolution import ConvTranspose2d
from ..modules import Module, Parameter


class WeightNorm:
    """The pre-hook of weight_norm: weight = g v / ‖v‖ from ``<name>_g`` and ``<name>_v``."""

    def __init__(self, name: str, dim: int | None) -> None:
        self.name, self.dim = name, -1 if dim is None else dim

    def compute_weight(self, module: Module) -> Tensor:
        return _weight_norm(getattr(module, self.name + "_v"), getattr(module, self.name + "_g"),
                            self.dim)

    warned = False  # torch warns from one line of its own: once a run

    @staticmethod
    def apply(module: Module, name: str, dim: int | None) -> WeightNorm:
        if not WeightNorm.warned:
            WeightNorm.warned = True
            warn_at_user_code("`torch.nn.utils.weight_norm` is deprecated in favor of "
                              "`torch.nn.utils.parametrizations.weight_norm`.", FutureWarning)
        for hook in module._forward_pre_hooks.values():
            if isinstance(hook, WeightNorm) and hook.name == name:
                raise RuntimeError(f"Cannot register two weight_norm hooks on the same "
                                   f"parameter {name}")
        hook = WeightNorm(name, dim)
        weight = getattr(module, name)
        del module._parameters[name]
        module.register_parameter(name + "_g", Parameter(norm_except_dim(weight, 2,
                                                                         hook.dim).data))
        module.register_parameter(name + "_v", Parameter(weight.data))
        setattr(module, name, hook.compute_weight(module))
        module.register_forward_pre_hook(hook)
        return hook

    def remove(self, module: Module) -> None:
        weight = self.compute_weight(module)
        delattr(module, self.name)
        del module._parameters[self.name + "_g"]
        del module._parameters[self.name + "_v"]
        setattr(module, self.name, Parameter(weight.data))

    def __call__(self, module: Module, inputs) -> None:
        setattr(module, self.name, self.compute_weight(module))


def weight_norm(module: Module, name: str = "weight", dim: int | None = 0) -> Module:
    """Split ``module.<name>`` into a magnitude ``<name>_g`` and a direction ``<name>_v``."""
    WeightNorm.apply(module, name, dim)
    return module


def remove_weight_norm(module: Module, name: str = "weight") -> Module:
    return _remove(module, name, WeightNorm, "weight_norm")


class SpectralNorm:
    """The pre-hook of spectral_norm: weight = ``<name>_orig`` / σ, σ estimated by power
    iteration on the buffers ``<name>_u`` and ``<name>_v`` (one step per training forward)."""

    def __init__(self, name: str = "weight", n_power_iterations: int = 1, dim: int = 0,
                 eps: float = 1e-12) -> None:
        if n_power_iterations <= 0:
            raise ValueError("Expected n_power_iterations to be positive, but got "
                             f"n_power_iterations={n_power_iterations}")
        self.name, self.dim, self.eps = name, dim, eps
        self.n_power_iterations = n_power_iterations

    def reshape_weight_to_matrix(self, weight: Tensor) -> Tensor:
        if self.dim != 0:
            weight = weight.permute(self.dim, *[d for d in range(weight.dim()) if d != self.dim])
        return weight.reshape(weight.shape[0], -1)

    def compute_weight(self, module: Module, do_power_iteration: bool) -> Tensor:
        weight = getattr(module, self.name + "_orig")
        u, v = getattr(module, self.name + "_u"), getattr(module, self.name + "_v")
        matrix = self.reshape_weight_to_matrix(weight)
        if do_power_iteration:
            with no_grad():  # (into the buffers themselves, as torch's out=)
                for _ in range(self.n_power_iterations):
                    v = F.normalize(matrix.t().mv(u), dim=0, eps=self.eps, out=v)
                    u = F.normalize(matrix.mv(v), dim=0, eps=self.eps, out=u)
                u, v = u.clone(), v.clone()
        return weight / u.dot(matrix.mv(v))

    @staticmethod
    def apply(module: Module, name: str, n_power_iterations: int, dim: int,
              eps: float) -> SpectralNorm:
        for hook in module._forward_pre_hooks.values():
            if isinstance(hook, SpectralNorm) and hook.name == name:
                raise RuntimeError(f"Cannot register two spectral_norm hooks on the same "
                                   f"parameter {name}")
        hook = SpectralNorm(name, n_power_iterations, dim, eps)
        weight = module._parameters[name]
        if weight is None:
            raise ValueError(f"`SpectralNorm` cannot be applied as parameter `{name}` is None")
        with no_grad():
            height, width = hook.reshape_weight_to_matrix(weight).shape
            u = F.normalize(weight.new_empty(height).normal_(0, 1), dim=0, eps=hook.eps)
            v = F.normalize(weight.new_empty(width).normal_(0, 1), dim=0, eps=hook.eps)
        delattr(module, name)
        module.register_parameter(name + "_orig", weight)
        setattr(module, name, weight.data)
        module.register_buffer(name + "_u", u)
        module.register_buffer(name + "_v", v)
        module.register_forward_pre_hook(hook)
        return hook

    def remove(self, module: Module) -> None:
        with no_grad():
            weight = self.compute_weight(module, do_power_iteration=False)
        for suffix in ("", "_u", "_v", "_orig"):
            delattr(module, self.name + suffix)
        module.register_parameter(self.name, Parameter(weight.detach()))

    def __call__(self, module: Module, inputs) -> None:
        setattr(module, self.name, self.compute_weight(module, module.training))


def spectral_norm(module: Module, name: str = "weight", n_power_iterations: int = 1,
                  eps: float = 1e-12, dim: int | None = None) -> Module:
    """Divide ``module.<name>`` by its spectral norm before each forward."""
    if dim is None:
        dim = 1 if isinstance(module, ConvTranspose2d) else 0
    SpectralNorm.apply(module, name, n_power_iterations, dim, eps)
    return module


def remove_spectral_norm(module: Module, name: str = "weight") -> Module:
    return _remove(module, name, SpectralNorm, "spectral_norm")


def _remove(module: Module, name: str, kind: type, what: str) -> Module:
    for key, hook in module._forward_pre_hooks.items():
        if isinstance(hook, kind) and hook.name == name:
            hook.remove(module)
            del module._forward_pre_hooks[key]
            return module
    raise ValueError(f"{what} of '{name}' not found in {module}")
