"""``torch.nn.utils.parametrizations``: orthogonal, weight_norm and spectral_norm, each a
parametrization module registered on a tensor of a module, computing what torch's computes
(in the same order of random draws, so that a seeded script prints torch's numbers)."""

from __future__ import annotations

from enum import Enum, auto

from ... import _factories, linalg
from ..._factorizations import geqrf
from ..._grad_mode import no_grad
from ..._shapes import cat
from ..._tensor import Tensor
from ..._type_info import finfo
from ..._weight_norm import norm_except_dim
from ..._weight_norm import weight_norm as _weight_norm
from .. import functional as F
from ..convolution import ConvTranspose2d
from ..modules import Module
from . import parametrize


class _OrthMaps(Enum):
    matrix_exp = auto()
    cayley = auto()
    householder = auto()


def _is_orthogonal(Q: Tensor) -> bool:
    n, k = Q.shape[-2], Q.shape[-1]
    identity = _factories.eye(k, dtype=Q.dtype)
    return bool((Q.mH @ Q).allclose(identity, atol=10.0 * n * finfo(Q.dtype).eps))


def _make_orthogonal(A: Tensor) -> Tensor:
    """The Q of A = QR (A tall), its columns' signs chosen so that R's diagonal is >= 0."""
    X, tau = geqrf(A)
    Q = linalg.householder_product(X, tau)
    return Q * X.diagonal(dim1=-2, dim2=-1).sgn().unsqueeze(-2)


class _Orthogonal(Module):
    """Maps an unconstrained matrix to an orthogonal one: exp or the Cayley transform of its
    skew-symmetric part, or the Householder reflections below its diagonal; with
    ``use_trivialization`` the result is multiplied by a fixed orthogonal ``base``."""

    def __init__(self, weight: Tensor, orthogonal_map: _OrthMaps, *,
                 use_trivialization: bool = True) -> None:
        super().__init__()
        if weight.is_complex() and orthogonal_map == _OrthMaps.householder:
            raise ValueError("The householder parametrization does not support complex tensors.")
        self.shape = weight.shape
        self.orthogonal_map = orthogonal_map
        if use_trivialization:
            self.register_buffer("base", None)

    def forward(self, X: Tensor) -> Tensor:
        n, k = X.shape[-2], X.shape[-1]
        transposed = n < k
        if transposed:
            X, n, k = X.mT, k, n
        if self.orthogonal_map == _OrthMaps.householder:
            A = X.tril(diagonal=-1)
            tau = 2.0 / (1.0 + (A * A).sum(dim=-2))
            Q = linalg.householder_product(A, tau)
            # the diagonal of X holds ±1, not differentiated through (hence the int)
            Q = Q * X.diagonal(dim1=-2, dim2=-1).int().unsqueeze(-2)
        else:
            Q = self._exp_or_cayley(X, n, k)
        if hasattr(self, "base"):
            Q = self.base @ Q
        return Q.mT if transposed else Q

    def _exp_or_cayley(self, X: Tensor, n: int, k: int) -> Tensor:
        """exp(A) or (I + A/2)(I - A/2)⁻¹ of A = X - Xᴴ, X's lower triangle padded square."""
        X = X.tril()
        if n != k:
            padding = X.new_zeros(n, n - k).expand(*X.shape[:-2], -1, -1)
            X = cat([X, padding], dim=-1)
        A = X - X.mH
        if self.orthogonal_map == _OrthMaps.matrix_exp:
            Q = linalg.matrix_exp(A)
        else:
            identity = _factories.eye(n, dtype=A.dtype)
            Q = linalg.solve(identity.add(A, alpha=-0.5), identity.add(A, alpha=0.5))
        return Q[..., :k] if n != k else Q

    def right_inverse(self, Q: Tensor) -> Tensor:
        with no_grad():
            return self._right_inverse(Q)

    def _right_inverse(self, Q: Tensor) -> Tensor:
        if Q.shape != self.shape:
            raise ValueError(f"Expected a matrix or batch of matrices of shape {self.shape}. "
                             f"Got a tensor of shape {Q.shape}.")
        Q_init = Q
        n, k = Q.shape[-2], Q.shape[-1]
        transpose = n < k
        if transpose:
            Q, n, k = Q.mT, k, n
        if not hasattr(self, "base"):
            return self._reflectors_of(Q, transpose)
        if n == k:
            Q = Q.clone() if _is_orthogonal(Q) else _make_orthogonal(Q)
        else:  # completed to a square orthogonal matrix by random columns, as torch's
            extra = _factories.randn(*(tuple(Q.shape[:-2]) + (n, n - k)), dtype=Q.dtype)
            Q = _make_orthogonal(cat([Q, extra], dim=-1))
        self.base = Q
        # -I: householder(zeros) is I up to these signs, so the weight starts as base
        negated_identity = _factories.zeros_like(Q_init)
        negated_identity.diagonal(dim1=-2, dim2=-1).fill_(-1.0)
        return negated_identity

    def _reflectors_of(self, Q: Tensor, transpose: bool) -> Tensor:
        if self.orthogonal_map != _OrthMaps.householder:
            raise NotImplementedError("It is not possible to assign to the matrix exponential "
                                      "or the Cayley parametrizations when "
                                      "use_trivialization=False.")
        A, tau = geqrf(Q)
        A.diagonal(dim1=-2, dim2=-1).sign_()
        A.diagonal(dim1=-2, dim2=-1)[tau == 0.0] *= -1
        return A.mT if transpose else A


def orthogonal(module: Module, name: str = "weight", orthogonal_map: str | None = None, *,
               use_trivialization: bool = True) -> Module:
    """Make ``module.<name>`` an orthogonal matrix (or batch of them), kept so by the map."""
    weight = getattr(module, name, None)
    if not isinstance(weight, Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if weight.ndim < 2:
        raise ValueError("Expected a matrix or batch of matrices. "
                         f"Got a tensor of {weight.ndim} dimensions.")
    if orthogonal_map is None:
        square = weight.shape[-2] == weight.shape[-1]
        orthogonal_map = "matrix_exp" if square or weight.is_complex() else "householder"
    chosen = getattr(_OrthMaps, orthogonal_map, None)
    if chosen is None:
        raise ValueError('orthogonal_map has to be one of "matrix_exp", "cayley", '
                         f'"householder". Got: {orthogonal_map}')
    parametrization = _Orthogonal(weight, chosen, use_trivialization=use_trivialization)
    parametrize.register_parametrization(module, name, parametrization, unsafe=True)
    return module


class _WeightNorm(Module):
    """w = g v / ‖v‖ from a magnitude g (``original0``) and a direction v (``original1``)."""

    def __init__(self, dim: int | None = 0) -> None:
        super().__init__()
        self.dim = -1 if dim is None else dim

    def forward(self, weight_g: Tensor, weight_v: Tensor) -> Tensor:
        return _weight_norm(weight_v, weight_g, self.dim)

    def right_inverse(self, weight: Tensor) -> tuple[Tensor, Tensor]:
        return norm_except_dim(weight, 2, self.dim), weight


def weight_norm(module: Module, name: str = "weight", dim: int | None = 0) -> Module:
    """Split ``module.<name>`` into a magnitude and a direction (per slice along ``dim``;
    over the whole tensor with ``dim=None``)."""
    parametrize.register_parametrization(module, name, _WeightNorm(dim), unsafe=True)

    def renamed_old_keys(state_dict, prefix, *_) -> None:
        """A state dict saved by the old nn.utils.weight_norm names them ``<name>_g/_v``."""
        old_g, old_v = f"{prefix}{name}_g", f"{prefix}{name}_v"
        if old_g in state_dict and old_v in state_dict:
            state_dict[f"{prefix}parametrizations.{name}.original0"] = state_dict.pop(old_g)
            state_dict[f"{prefix}parametrizations.{name}.original1"] = state_dict.pop(old_v)

    module._register_load_state_dict_pre_hook(renamed_old_keys)
    return module


class _SpectralNorm(Module):
    """W / σ(W), σ the largest singular value estimated by power iteration on the
    vectors ``_u`` and ``_v`` (one step each forward in training mode)."""

    def __init__(self, weight: Tensor, n_power_iterations: int = 1, dim: int = 0,
                 eps: float = 1e-12) -> None:
        super().__init__()
        ndim = weight.ndim
        if dim >= ndim or dim < -ndim:
            raise IndexError("Dimension out of range (expected to be in range of "
                             f"[-{ndim}, {ndim - 1}] but got {dim})")
        if n_power_iterations <= 0:
            raise ValueError("Expected n_power_iterations to be positive, but got "
                             f"n_power_iterations={n_power_iterations}")
        self.dim = dim if dim >= 0 else dim + ndim
        self.eps = eps
        if ndim > 1:
            self.n_power_iterations = n_power_iterations
            matrix = self._as_matrix(weight)
            h, w = matrix.shape
            u = matrix.new_empty(h).normal_(0, 1)
            v = matrix.new_empty(w).normal_(0, 1)
            self.register_buffer("_u", F.normalize(u, dim=0, eps=self.eps))
            self.register_buffer("_v", F.normalize(v, dim=0, eps=self.eps))
            self._power_method(matrix, 15)

    def _as_matrix(self, weight: Tensor) -> Tensor:
        if self.dim != 0:
            weight = weight.permute(self.dim, *(d for d in range(weight.ndim) if d != self.dim))
        return weight.flatten(1)

    def _power_method(self, matrix: Tensor, iterations: int) -> None:
        with no_grad():
            for _ in range(iterations):
                self._u = F.normalize(matrix.mv(self._v), dim=0, eps=self.eps)
                self._v = F.normalize(matrix.mH.mv(self._u), dim=0, eps=self.eps)

    def forward(self, weight: Tensor) -> Tensor:
        if weight.ndim == 1:
            return F.normalize(weight, dim=0, eps=self.eps)
        matrix = self._as_matrix(weight)
        if self.training:
            self._power_method(matrix, self.n_power_iterations)
        u, v = self._u.clone(), self._v.clone()
        sigma = u.vdot(matrix.mv(v))
        return weight / sigma

    def right_inverse(self, value: Tensor) -> Tensor:
        return value


def spectral_norm(module: Module, name: str = "weight", n_power_iterations: int = 1,
                  eps: float = 1e-12, dim: int | None = None) -> Module:
    """Divide ``module.<name>`` by its spectral norm (dim 1 for transposed convolutions)."""
    weight = getattr(module, name, None)
    if not isinstance(weight, Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if dim is None:
        dim = 1 if isinstance(module, ConvTranspose2d) else 0
    parametrize.register_parametrization(
        module, name, _SpectralNorm(weight, n_power_iterations, dim, eps))
    return module


__all__ = ["orthogonal", "spectral_norm", "weight_norm"]
