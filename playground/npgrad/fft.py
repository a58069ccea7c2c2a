"""torch.fft: discrete Fourier transforms as torch composes them from its three transforms
(complex to complex, real to complex, complex to real: FftC2CBackward0, FftR2CBackward0,
FftC2RBackward0), their norms, sizes and derivatives, and the frequency helpers."""

from __future__ import annotations

import numpy as np

from . import _dtype as dtypes
from ._complex import conj
from ._factories import _dtype_or_default, _finish
from ._formula_kit import Kit
from ._missing import missing_attribute
from ._out_argument import accept_out_in
from ._recording import output
from ._shapes import roll
from ._tensor import Tensor, _wrap_dim

__getattr__ = missing_attribute("torch.fft")

# torch's normalisations: a scale on the transform's result, whichever way it goes
_NONE, _BY_ROOT_N, _BY_N = 0, 1, 2
# NumPy's norm argument giving that scale, going forward or back
_NUMPY_NORM = {(True, _NONE): "backward", (True, _BY_ROOT_N): "ortho", (True, _BY_N): "forward",
               (False, _NONE): "forward", (False, _BY_ROOT_N): "ortho",
               (False, _BY_N): "backward"}


def _normalization(norm: str | None, forward: bool) -> int:
    if norm in (None, "backward"):
        return _NONE if forward else _BY_N
    if norm == "forward":
        return _BY_N if forward else _NONE
    if norm == "ortho":
        return _BY_ROOT_N
    raise RuntimeError(f'Invalid normalization mode: "{norm}"')


# ----- torch's three transforms (recorded) ------------------------------------------------------
def _c2c_values(data: np.ndarray, dims: tuple, normalization: int, forward: bool) -> np.ndarray:
    transform = np.fft.fftn if forward else np.fft.ifftn
    return transform(data, axes=dims, norm=_NUMPY_NORM[forward, normalization])


def fft_c2c(self: Tensor, dims: tuple, normalization: int, forward: bool) -> Tensor:
    values = _c2c_values(self._data, dims, normalization, forward).astype(self._data.dtype)
    return output("fft_c2c", values, (self,), (dims, normalization, forward))


def _r2c_values(data: np.ndarray, dims: tuple, normalization: int, onesided: bool):
    half = np.fft.rfftn(data, axes=dims, norm=_NUMPY_NORM[True, normalization])
    half = half.astype(np.result_type(data.dtype, np.complex64))
    if onesided:
        return half
    # the other half by conjugate symmetry, as torch fills it: X[N - k] = conj(X[k])
    last = dims[-1]
    size = data.shape[last]
    full = np.concatenate([half, np.zeros_like(half).take(
        range(size - half.shape[last]), axis=last)], axis=last)
    mirrored = np.conj(np.flip(full, axis=dims))
    mirrored = np.roll(mirrored, 1, axis=dims)
    index = [slice(None)] * data.ndim
    index[last] = slice(half.shape[last], size)
    full[tuple(index)] = mirrored[tuple(index)]
    return full


def fft_r2c(self: Tensor, dims: tuple, normalization: int, onesided: bool) -> Tensor:
    values = _r2c_values(self._data, dims, normalization, onesided)
    return output("fft_r2c", values, (self,),
                  (dims, normalization, onesided, self._data.shape[dims[-1]]))


def _c2r_values(data: np.ndarray, dims: tuple, normalization: int, size: int) -> np.ndarray:
    sizes = [data.shape[d] for d in dims[:-1]] + [size]
    values = np.fft.irfftn(data, s=sizes, axes=dims, norm=_NUMPY_NORM[False, normalization])
    return values.astype(data.real.dtype)


def fft_c2r(self: Tensor, dims: tuple, normalization: int, size: int) -> Tensor:
    values = _c2r_values(self._data, dims, normalization, size)
    return output("fft_c2r", values, (self,), (dims, normalization))


# ----- their derivatives (torch's fft_*_backward) -----------------------------------------------
def c2c_grad(k, grad, dims, normalization, forward):
    """The transform the other way, with the same scale."""
    if isinstance(grad, np.ndarray):
        return _c2c_values(grad, dims, normalization, not forward).astype(grad.dtype)
    return fft_c2c(grad, dims, normalization, not forward)


def r2c_grad(k, grad, dims, normalization, onesided, size):
    """The one-sided gradient filled with zeros to the input's length, transformed back; its
    real part (the input is real)."""
    last = dims[-1]
    if onesided and grad.shape[last] < size:
        widths = [(0, 0)] * grad.ndim
        widths[last] = (0, size - grad.shape[last])
        if isinstance(grad, np.ndarray):
            grad = np.pad(grad, widths)
        else:
            grad = _pad_end(grad, last, size - grad.shape[last])
    return k.real_part(c2c_grad(k, grad, dims, normalization, True))


def c2r_grad(k, grad, dims, normalization):
    """A one-sided transform of the gradient, the entries whose mirror image fell outside it
    doubled."""
    last = dims[-1]
    if isinstance(grad, np.ndarray):
        result = _r2c_values(grad, dims, normalization, True)
        doubled = grad.shape[last] - result.shape[last]
        if doubled > 0:
            index = [slice(None)] * grad.ndim
            index[last] = slice(1, 1 + doubled)
            result[tuple(index)] *= 2
        return result
    result = fft_r2c(grad, dims, normalization, True)
    doubled = grad.shape[last] - result.shape[last]
    if doubled > 0:
        scale = np.ones(result.shape[last], result._data.real.dtype)
        scale[1:1 + doubled] = 2
        shape = [1] * result.ndim
        shape[last] = -1
        result = result * Tensor._make(scale.reshape(shape))
    return result


for _function in (c2c_grad, r2c_grad, c2r_grad):
    setattr(Kit, _function.__name__, _function)


# ----- what users call --------------------------------------------------------------------------
def _floating(input: Tensor) -> Tensor:
    """Integers and bools are transformed as the default floating dtype, as torch's."""
    if input._data.dtype.kind in "fc":
        return input
    return input.to(dtypes.get_default_dtype())


def _pad_end(input: Tensor, dim: int, count: int) -> Tensor:
    from .nn.resampling import pad

    widths = [0, 0] * (input.ndim - dim)
    widths[-1] = count
    return pad(input, widths)


def _resized(input: Tensor, dims: tuple, sizes: tuple) -> Tensor:
    """The input cut or padded with zeros at the end of each dimension to the sizes asked."""
    for dim, size in zip(dims, sizes, strict=True):
        if size < 1:
            raise RuntimeError(f"Invalid number of data points ({size}) specified")
        current = input.shape[dim]
        if size < current:
            input = input.narrow(dim, 0, size)
        elif size > current:
            input = _pad_end(input, dim, size - current)
    return input


def _one_dim(input: Tensor, n, dim: int) -> tuple[Tensor, tuple]:
    dims = (_wrap_dim(dim, input.ndim),)
    if n is not None:
        input = _resized(input, dims, (n,))
    return input, dims


def _many_dims(input: Tensor, s, dim, default_all: bool) -> tuple[Tensor, tuple]:
    if dim is None:
        dims = tuple(range(input.ndim)) if s is None else \
            tuple(range(input.ndim - len(s), input.ndim))
    else:
        dims = tuple(_wrap_dim(d, input.ndim) for d in ((dim,) if isinstance(dim, int) else dim))
    if s is not None:
        input = _resized(input, dims, tuple(s))
    return input, dims


def _complex_input(input: Tensor) -> Tensor:
    return input if input._data.dtype.kind == "c" else input.to(input.dtype.to_complex())


def fft(input: Tensor, n=None, dim: int = -1, norm=None) -> Tensor:
    input, dims = _one_dim(_floating(input), n, dim)
    if input._data.dtype.kind == "c":
        return fft_c2c(input, dims, _normalization(norm, True), True)
    return fft_r2c(input, dims, _normalization(norm, True), False)


def ifft(input: Tensor, n=None, dim: int = -1, norm=None) -> Tensor:
    input, dims = _one_dim(_floating(input), n, dim)
    if input._data.dtype.kind == "c":
        return fft_c2c(input, dims, _normalization(norm, False), False)
    return conj(fft_r2c(input, dims, _normalization(norm, False), False))


def rfft(input: Tensor, n=None, dim: int = -1, norm=None) -> Tensor:
    _real_only(input, "rfft")
    input, dims = _one_dim(_floating(input), n, dim)
    return fft_r2c(input, dims, _normalization(norm, True), True)


def irfft(input: Tensor, n=None, dim: int = -1, norm=None) -> Tensor:
    dims = (_wrap_dim(dim, input.ndim),)
    size = 2 * (input.shape[dims[0]] - 1) if n is None else n
    if size < 1:
        raise RuntimeError(f"Invalid number of data points ({size}) specified")
    input = _resized(_complex_input(_floating(input)), dims, (size // 2 + 1,))
    return fft_c2r(input, dims, _normalization(norm, False), size)


def hfft(input: Tensor, n=None, dim: int = -1, norm=None) -> Tensor:
    dims = (_wrap_dim(dim, input.ndim),)
    size = 2 * (input.shape[dims[0]] - 1) if n is None else n
    input = _resized(_complex_input(_floating(input)), dims, (size // 2 + 1,))
    return fft_c2r(conj(input), dims, _normalization(norm, True), size)


def ihfft(input: Tensor, n=None, dim: int = -1, norm=None) -> Tensor:
    _real_only(input, "ihfft")
    input, dims = _one_dim(_floating(input), n, dim)
    return conj(fft_r2c(input, dims, _normalization(norm, False), True))


def fftn(input: Tensor, s=None, dim=None, norm=None) -> Tensor:
    input, dims = _many_dims(_complex_input(_floating(input)), s, dim, True)
    return fft_c2c(input, dims, _normalization(norm, True), True)


def ifftn(input: Tensor, s=None, dim=None, norm=None) -> Tensor:
    input, dims = _many_dims(_complex_input(_floating(input)), s, dim, True)
    return fft_c2c(input, dims, _normalization(norm, False), False)


def rfftn(input: Tensor, s=None, dim=None, norm=None) -> Tensor:
    _real_only(input, "rfftn")
    input, dims = _many_dims(_floating(input), s, dim, True)
    return fft_r2c(input, dims, _normalization(norm, True), True)


def irfftn(input: Tensor, s=None, dim=None, norm=None) -> Tensor:
    input = _complex_input(_floating(input))
    _, dims = _many_dims(input, None, dim if dim is not None or s is None else
                         tuple(range(input.ndim - len(s), input.ndim)), True)
    sizes = list(s) if s is not None else \
        [input.shape[d] for d in dims[:-1]] + [2 * (input.shape[dims[-1]] - 1)]
    half = tuple(sizes[:-1]) + (sizes[-1] // 2 + 1,)
    input = _resized(input, dims, half)
    return fft_c2r(input, dims, _normalization(norm, False), sizes[-1])


def fft2(input: Tensor, s=None, dim=(-2, -1), norm=None) -> Tensor:
    return fftn(input, s, dim, norm)


def ifft2(input: Tensor, s=None, dim=(-2, -1), norm=None) -> Tensor:
    return ifftn(input, s, dim, norm)


def rfft2(input: Tensor, s=None, dim=(-2, -1), norm=None) -> Tensor:
    return rfftn(input, s, dim, norm)


def irfft2(input: Tensor, s=None, dim=(-2, -1), norm=None) -> Tensor:
    return irfftn(input, s, dim, norm)


def _real_only(input: Tensor, name: str) -> None:
    if input._data.dtype.kind == "c":
        raise RuntimeError(f"{name} expects a real input tensor, but got "
                           f"{input.dtype.legacy_name[:-6]}")


def fftshift(input: Tensor, dim=None) -> Tensor:
    dims = tuple(range(input.ndim)) if dim is None else \
        ((dim,) if isinstance(dim, int) else tuple(dim))
    return roll(input, tuple(input.shape[d] // 2 for d in dims), dims)


def ifftshift(input: Tensor, dim=None) -> Tensor:
    dims = tuple(range(input.ndim)) if dim is None else \
        ((dim,) if isinstance(dim, int) else tuple(dim))
    return roll(input, tuple((input.shape[d] + 1) // 2 for d in dims), dims)


def fftfreq(n: int, d: float = 1.0, *, dtype=None, device=None, requires_grad=False) -> Tensor:
    """The sample frequencies: 0, 1, ..., then the negative ones, over n·d, as torch computes
    them (whole numbers in the dtype, times 1/(n·d))."""
    target = _dtype_or_default(dtype)
    counts = np.arange(n, dtype=target)
    counts[(n + 1) // 2:] -= n
    return _finish(counts * target.type(1.0 / (n * d)), requires_grad, device)


def rfftfreq(n: int, d: float = 1.0, *, dtype=None, device=None, requires_grad=False) -> Tensor:
    target = _dtype_or_default(dtype)
    counts = np.arange(n // 2 + 1, dtype=target)
    return _finish(counts * target.type(1.0 / (n * d)), requires_grad, device)

# torch's out= for every function here (_out_argument.py)
accept_out_in(globals())
