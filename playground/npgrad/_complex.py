"""Complex tensors: their parts and views (real, imag, view_as_real, view_as_complex, complex,
polar, conj, angle), with torch's nodes and its derivatives for complex numbers (the gradient of
a real loss by a complex input is dL/dRe + i dL/dIm, as torch's autograd notes define it)."""

from __future__ import annotations

import numpy as np

from . import _dtype as dtypes
from ._bindings import bind_method, binds
from ._formula_kit import Kit
from ._recording import RESULT, output
from ._shapes import select
from ._tensor import Tensor
from ._versions import shared_counter

_COMPLEX_OF = {np.dtype(np.float32): np.dtype(np.complex64),
               np.dtype(np.float64): np.dtype(np.complex128)}
_SCALAR_NAMES = {"float16": "Half", "float32": "Float", "float64": "Double"}


def _is_complex(tensor: Tensor) -> bool:
    return tensor._data.dtype.kind == "c"


# ----- views of the parts -----------------------------------------------------------------------
def _real_view(data: np.ndarray) -> np.ndarray:
    """The complex values as pairs of reals along a new last axis, sharing their memory."""
    return data[..., None].view(data.real.dtype)


@binds("view_as_real")
def view_as_real(self: Tensor) -> Tensor:
    if not _is_complex(self):
        raise RuntimeError("view_as_real is only supported for complex tensors")
    return output("view_as_real", _real_view(self._data), (self,), (), shared_counter(self), self)


@binds("view_as_complex")
def view_as_complex(self: Tensor) -> Tensor:
    data = self._data
    if data.dtype not in _COMPLEX_OF:
        raise RuntimeError("view_as_complex is only supported for half, float and double "
                           f"tensors, but got a tensor of scalar type: {_scalar_name(data.dtype)}")
    if data.ndim == 0 or data.shape[-1] != 2:
        raise RuntimeError("Tensor must have a last dimension of size 2")
    item = data.itemsize
    if data.strides[-1] != item:
        raise RuntimeError("Tensor must have a last dimension with stride 1")
    if any(stride % (2 * item) for stride, size in zip(data.strides[:-1], data.shape[:-1],
                                                       strict=True) if size > 1):
        raise RuntimeError("Tensor must have a stride divisible by 2 for all but last dimension")
    values = data.view(_COMPLEX_OF[data.dtype])[..., 0]
    return output("view_as_complex", values, (self,), (), shared_counter(self), self)


def _scalar_name(dtype: np.dtype) -> str:
    return _SCALAR_NAMES.get(dtype.name, dtypes.from_numpy_dtype(dtype).legacy_name[:-6])


def real(self: Tensor) -> Tensor:
    """The real parts, a view (torch's: a select of view_as_real); a real tensor itself."""
    return select(view_as_real(self), -1, 0) if _is_complex(self) else self


def imag(self: Tensor) -> Tensor:
    if not _is_complex(self):
        raise RuntimeError("imag is not implemented for tensors with non-complex dtypes.")
    return select(view_as_real(self), -1, 1)


def _set_part(index: int):
    def setter(self: Tensor, value) -> None:
        part = real(self) if index == 0 else imag(self)
        part.copy_(value if isinstance(value, Tensor) else Tensor._make(np.asarray(value)))

    return setter


binds("real", method=False)(real)
binds("imag", method=False)(imag)
bind_method("real", property(real, _set_part(0)))
bind_method("imag", property(imag, _set_part(1)))


# ----- made from real parts ---------------------------------------------------------------------
def _check_parts(first: Tensor, second: Tensor) -> None:
    a, b = first._data.dtype, second._data.dtype
    if a not in _COMPLEX_OF or b not in _COMPLEX_OF:
        raise RuntimeError("Expected both inputs to be Half, Float or Double tensors but got "
                           f"{_scalar_name(a)} and {_scalar_name(b)}")
    if a != b:
        raise RuntimeError(f"Expected object of scalar type {_scalar_name(a)} but got scalar "
                           f"type {_scalar_name(b)} for second argument")


@binds("complex", method=False)
def complex(real: Tensor, imag: Tensor) -> Tensor:  # noqa: A001 - torch.complex
    _check_parts(real, imag)
    values = real._data + 1j * imag._data.astype(_COMPLEX_OF[imag._data.dtype])
    return output("complex", values.astype(_COMPLEX_OF[real._data.dtype]), (real, imag))


@binds("polar", method=False)
def polar(abs: Tensor, angle: Tensor) -> Tensor:  # noqa: A002 - torch's argument names
    _check_parts(abs, angle)
    target = _COMPLEX_OF[abs._data.dtype]
    values = (abs._data * np.cos(angle._data) + 1j * (abs._data * np.sin(angle._data)))
    return output("polar", values.astype(target), (abs, angle), (RESULT,))


# ----- conjugates and angles --------------------------------------------------------------------
@binds("conj")
def conj(self: Tensor) -> Tensor:
    """The conjugate (torch's is a lazy view, ``is_conj()``; here its values); a real tensor
    itself."""
    if not _is_complex(self):
        return self
    result = output("conj", np.conj(self._data), (self,))
    result.__dict__["_conjugated"] = True
    return result


@binds("conj_physical")
def conj_physical(self: Tensor) -> Tensor:
    if not _is_complex(self):
        return self
    return output("conj_physical", np.conj(self._data), (self,))


@binds("resolve_conj")
def resolve_conj(self: Tensor) -> Tensor:
    return self.clone() if is_conj(self) else self


@binds("resolve_neg")
def resolve_neg(self: Tensor) -> Tensor:
    """Self: the engine makes no lazily negated views, so there is none to resolve."""
    return self


@binds("is_neg")
def is_neg(self: Tensor) -> bool:
    return False


@binds("is_conj")
def is_conj(self: Tensor) -> bool:
    return bool(self.__dict__.get("_conjugated", False))


@binds("angle")
def angle(self: Tensor) -> Tensor:
    """The argument of each element; for reals 0 or π (NaN stays NaN), as torch's."""
    data = self._data
    if data.dtype.kind == "c":
        return output("angle", np.angle(data), (self,), (self,))
    floating = data if data.dtype.kind == "f" else data.astype(dtypes.get_default_dtype().numpy)
    values = np.where(floating < 0, np.asarray(np.pi, floating.dtype), 0).astype(floating.dtype)
    values = np.where(np.isnan(floating), floating, values)
    return output("angle", values, (self,), (self,))


@binds("isreal")
def isreal(self: Tensor) -> Tensor:
    data = self._data
    return Tensor._make(data.imag == 0 if data.dtype.kind == "c" else np.ones(data.shape, bool))


bind_method("cfloat", lambda self: self.to(dtypes.complex64))
bind_method("cdouble", lambda self: self.to(dtypes.complex128))


# ----- derivatives ------------------------------------------------------------------------------
def _values(value):
    return value._data if isinstance(value, Tensor) else value


def as_complex_pairs(k, grad):
    """view_as_real's gradient: the pairs read back as complex numbers."""
    if isinstance(grad, np.ndarray):
        return np.ascontiguousarray(grad).view(_COMPLEX_OF[grad.dtype])[..., 0]
    return view_as_complex(grad.contiguous())


def as_real_pairs(k, grad):
    """view_as_complex's gradient: the complex numbers as pairs of reals."""
    if isinstance(grad, np.ndarray):
        return _real_view(np.ascontiguousarray(grad))
    return view_as_real(grad.contiguous())


def real_part(k, grad):
    return grad.real if isinstance(grad, np.ndarray) else real(grad)


def imag_part(k, grad):
    return grad.imag if isinstance(grad, np.ndarray) else imag(grad)


def conjugate(k, value):
    if isinstance(value, np.ndarray):
        return np.conj(value)
    return conj_physical(value) if isinstance(value, Tensor) else value.conjugate()


def angle_grad(k, grad, self):
    """torch's angle_backward: i·grad·z/|z|² for complex z (0 at 0), zeros for reals."""
    values = _values(self)
    if values.dtype.kind != "c":
        return k.zeros_like(grad)
    if isinstance(grad, np.ndarray):
        magnitude = (values * np.conj(values)).real
        with np.errstate(divide="ignore", invalid="ignore"):
            share = grad * values / magnitude * 1j
        return np.where(values == 0, np.zeros((), share.dtype), share)
    return k.where(self == 0, 0, grad * self / self.abs().pow(2) * 1j)


def polar_grads(k, grad, result, for_abs: bool):
    """torch's polar_backward: Re(conj(grad)·sgn(result)) for the moduli, Re(conj(grad)·i·result)
    for the angles."""
    grad_conj = conjugate(k, grad)
    if for_abs:
        return real_part(k, grad_conj * k.sgn(result))
    return real_part(k, grad_conj * (result * 1j))


def sgn_grad(k, grad, self, result):
    """torch's sgn_backward: for complex z, (grad - sgn·Re(grad·conj(sgn)))/|z| (0 at 0); for
    reals, zeros."""
    values = _values(self)
    if values.dtype.kind != "c":
        return k.zeros_like(grad)
    along = real_part(k, grad * conjugate(k, result))
    if isinstance(grad, np.ndarray):
        magnitude = np.abs(values)
        with np.errstate(divide="ignore", invalid="ignore"):
            share = (grad - result * along) / magnitude
        return np.where(magnitude == 0, np.zeros((), share.dtype), share)
    magnitude = self.abs()
    return k.where(magnitude == 0, 0, (grad - result * along) / magnitude)


for _function in (as_complex_pairs, as_real_pairs, real_part, imag_part, conjugate, angle_grad,
                  polar_grads, sgn_grad):
    setattr(Kit, _function.__name__, _function)
