"""torch's smaller top-level calls that pasted code makes: runtime settings (threads,
determinism, matmul precision), type questions, legacy sequences and signal windows, and the
facts a tensor tells about its memory (data_ptr, nbytes, storages)."""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence

import numpy as np

from . import _dtype as dtypes
from ._bindings import bind_function, bind_method, binds
from ._cpu_threads import inter_op_default, intra_op_default
from ._factories import _dtype_or_default, _finish
from ._numerics import linspace
from ._shapes import cat
from ._tensor import Size, Tensor


class _Settings:
    """What the settings calls set; the engine computes the same way whatever they say."""

    threads = intra_op_default()
    interop_threads = inter_op_default()
    deterministic = False
    warn_only = False
    debug_mode = 0
    matmul_precision = "highest"
    warn_always = False


def set_num_threads(count: int) -> None:
    if int(count) <= 0:
        raise RuntimeError("set_num_threads expects a positive integer")
    _Settings.threads = int(count)


def get_num_threads() -> int:
    return _Settings.threads


def set_num_interop_threads(count: int) -> None:
    _Settings.interop_threads = int(count)


def get_num_interop_threads() -> int:
    return _Settings.interop_threads


def use_deterministic_algorithms(mode: bool, *, warn_only: bool = False) -> None:
    _Settings.deterministic, _Settings.warn_only = bool(mode), bool(warn_only)
    _Settings.debug_mode = (1 if warn_only else 2) if mode else 0


def are_deterministic_algorithms_enabled() -> bool:
    return _Settings.deterministic


def is_deterministic_algorithms_warn_only_enabled() -> bool:
    return _Settings.warn_only


def set_deterministic_debug_mode(mode) -> None:
    levels = {"default": 0, "warn": 1, "error": 2}
    level = levels[mode] if isinstance(mode, str) else int(mode)
    use_deterministic_algorithms(level > 0, warn_only=level == 1)


def get_deterministic_debug_mode() -> int:
    return _Settings.debug_mode


def set_float32_matmul_precision(precision: str) -> None:
    if precision not in ("highest", "high", "medium"):
        warnings.warn(f"{precision} is not one of 'highest', 'high', or 'medium'; the current"
                      "setFloat32MatmulPrecision call has no effect.", UserWarning, stacklevel=2)
        return
    _Settings.matmul_precision = precision


def get_float32_matmul_precision() -> str:
    return _Settings.matmul_precision


def set_warn_always(enabled: bool) -> None:
    _Settings.warn_always = bool(enabled)


def is_warn_always_enabled() -> bool:
    return _Settings.warn_always


def set_flush_denormal(mode: bool) -> bool:
    return True  # (x86 CPUs support it, as torch answers there)


def set_default_tensor_type(kind) -> None:
    warnings.warn("torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use "
                  "torch.set_default_dtype() and torch.set_default_device() as alternatives.",
                  UserWarning, stacklevel=2)
    name = kind if isinstance(kind, str) else f"torch.{kind.__name__}"
    legacy = name.rpartition(".")[2]
    dtype = next((d for d in dtypes.ALL_DTYPES if d.legacy_name == legacy), None)
    if dtype is None or not dtype.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    dtypes.set_default_dtype(dtype)


# ----- questions about types --------------------------------------------------------------------
def typename(obj) -> str:
    if isinstance(obj, Tensor):
        return f"torch.{obj.dtype.legacy_name}"
    module = type(obj).__module__
    name = type(obj).__qualname__
    return name if module in ("builtins", "__builtin__", None) else f"{module}.{name}"


def result_type(tensor1, tensor2) -> dtypes.dtype:
    def described(value):
        if isinstance(value, Tensor):
            return value.dtype, value.ndim
        return None, None

    first, first_ndim = described(tensor1)
    second, second_ndim = described(tensor2)
    if first is not None and second is not None:
        return dtypes.result_type(first, first_ndim, second, second_ndim)
    if first is not None:
        return dtypes.result_type_scalar(first, tensor2)
    if second is not None:
        return dtypes.result_type_scalar(second, tensor1)
    return dtypes.default_for_category(max(dtypes.scalar_category(tensor1),
                                           dtypes.scalar_category(tensor2)))


def can_cast(from_, to) -> bool:
    """torch's casting rule: never to a lower kind (float to int, complex to float, to bool)."""
    return dtypes.to_dtype(from_).category <= dtypes.to_dtype(to).category


def scalar_tensor(value, *, dtype=None, device=None, requires_grad=False) -> Tensor:
    data = np.asarray(value, dtype=_dtype_or_default(dtype))
    return _finish(data, requires_grad, device)


def is_floating_point(input: Tensor) -> bool:
    return input.dtype.is_floating_point


def is_nonzero(input: Tensor) -> bool:
    if input.numel() == 0:
        raise RuntimeError("Boolean value of Tensor with no values is ambiguous")
    if input.numel() > 1:
        raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
    return bool(input._data.reshape(-1)[0] != 0)


def is_signed(input: Tensor) -> bool:
    return input.dtype.is_signed and input.dtype is not dtypes.uint8


def is_same_size(input: Tensor, other: Tensor) -> bool:
    return tuple(input.shape) == tuple(other.shape)


def broadcast_shapes(*shapes) -> Size:
    """The shapes' common broadcast shape, worked out as torch's Python does it: each shape
    in turn against the shape so far, its last dimension first (torch's messages)."""
    given = [(shape,) if isinstance(shape, int) else shape for shape in shapes
             if shape is not None]
    for shape in given:
        if not isinstance(shape, Sequence):
            raise RuntimeError("Input shapes should be of type ints, a tuple of ints, or a list "
                               f"of ints, got {shape}")
    common = [1] * max((len(shape) for shape in given), default=0)
    for index, shape in enumerate(given):
        for dim in range(-1, -1 - len(shape), -1):
            if shape[dim] == common[dim]:
                continue
            if common[dim] == 1:
                if shape[dim] < 0:
                    raise ValueError("Attempting to broadcast a dimension with negative length!")
                common[dim] = shape[dim]
            elif shape[dim] != 1:
                raise RuntimeError(f"Attempting to broadcast a dimension of length {shape[dim]} "
                                   f"at {dim}! Mismatching argument at index {index} had "
                                   f"{shape}; but expected shape should be broadcastable to "
                                   f"{common}")
    return Size(common)


def unravel_index(indices, shape) -> tuple:
    flat = indices._data if isinstance(indices, Tensor) else np.asarray(indices)
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    return tuple(Tensor._make(np.asarray(part, np.int64)) for part in np.unravel_index(flat, shape))


# ----- sequences and windows --------------------------------------------------------------------
def torch_range(start=0, end=None, step=1, *, dtype=None, device=None, requires_grad=False):
    """The deprecated torch.range: end included, floating by default."""
    warnings.warn("torch.range is deprecated and will be removed in a future release because "
                  "its behavior is inconsistent with Python's range builtin. Instead, use "
                  "torch.arange, which produces values in [start, end).", UserWarning,
                  stacklevel=2)
    if end is None:
        start, end = 0, start
    count = int(math.floor((end - start) / step)) + 1
    target = _dtype_or_default(dtype)
    values = (start + np.arange(count, dtype=np.float64) * step).astype(target)
    return _finish(values, requires_grad, device)


def logspace(start, end, steps: int, base: float = 10.0, *, dtype=None, device=None,
             requires_grad=False) -> Tensor:
    """base ** linspace(start, end) in float64, then in the dtype (bfloat16's rounded)."""
    target = dtypes.get_default_dtype() if dtype is None else dtypes.to_dtype(dtype)
    exponents = linspace(start, end, steps, np.float64)
    return _finish(dtypes.values_as(np.power(np.float64(base), exponents), target),
                   requires_grad, device)


def _window(length: int, periodic: bool, dtype, shape) -> Tensor:
    """A window of ``length`` points: ``shape(n, N)`` over n = 0..N-1 in the window's dtype, N
    one longer when periodic (its last point dropped), as torch's kernels compute it."""
    target = _dtype_or_default(dtype)
    if length <= 1:
        return _finish(np.ones(length, target), False, None)
    total = length + 1 if periodic else length
    window = shape(np.arange(total, dtype=target), total, target.type)
    return _finish(np.asarray(window[:length], target), False, None)


def _cosine(alpha: float, beta: float):
    """alpha - beta·cos(2πn/(N-1)): torch's hamming_window (hann's with alpha = beta = 1/2)."""
    def shape(n, total, scalar):
        return np.cos(n * scalar(2 * math.pi / (total - 1))) * scalar(-beta) + scalar(alpha)

    return shape


def hann_window(window_length: int, periodic: bool = True, *, dtype=None, **_) -> Tensor:
    return _window(window_length, periodic, dtype, _cosine(0.5, 0.5))


def hamming_window(window_length: int, periodic: bool = True, alpha: float = 0.54,
                   beta: float = 0.46, *, dtype=None, **_) -> Tensor:
    return _window(window_length, periodic, dtype, _cosine(alpha, beta))


def _blackman(n, total, scalar):
    """0.08·cos(4πn/(N-1)) - 0.5·cos(2πn/(N-1)) + 0.42, in torch's order."""
    phase = n * scalar(math.pi / (total - 1))
    return (np.cos(phase * scalar(4)) * scalar(0.08) - np.cos(phase * scalar(2)) * scalar(0.5)
            + scalar(0.42))


def _bartlett(n, total, scalar):
    ramp = n * scalar(2.0 / (total - 1))
    return np.where(ramp > 1, scalar(2) - ramp, ramp)


def blackman_window(window_length: int, periodic: bool = True, *, dtype=None, **_) -> Tensor:
    return _window(window_length, periodic, dtype, _blackman)


def bartlett_window(window_length: int, periodic: bool = True, *, dtype=None, **_) -> Tensor:
    return _window(window_length, periodic, dtype, _bartlett)


def kaiser_window(window_length: int, periodic: bool = True, beta: float = 12.0, *,
                  dtype=None, **_) -> Tensor:
    """I0(β·√(1 - ((n - α)/α)²)) / I0(β), α = (N - 1)/2 (in float64, rounded once)."""
    from ._special_functions import _bessel

    def shape(n, total, scalar):
        half = (total - 1) / 2.0
        ratio = (n.astype(np.float64) - half) / half
        return _bessel(beta * np.sqrt(np.maximum(1 - ratio * ratio, 0)), 0) / \
            _bessel(np.array([beta], np.float64), 0)

    return _window(window_length, periodic, dtype, shape)


for _function in (set_num_threads, get_num_threads, set_num_interop_threads,
                  get_num_interop_threads, use_deterministic_algorithms,
                  are_deterministic_algorithms_enabled,
                  is_deterministic_algorithms_warn_only_enabled, set_deterministic_debug_mode,
                  get_deterministic_debug_mode, set_float32_matmul_precision,
                  get_float32_matmul_precision, set_warn_always, is_warn_always_enabled,
                  set_flush_denormal, set_default_tensor_type, typename, result_type, can_cast,
                  scalar_tensor, is_floating_point, is_nonzero, broadcast_shapes,
                  unravel_index, logspace, hann_window, hamming_window, blackman_window,
                  kaiser_window,
                  bartlett_window):
    bind_function(_function.__name__, _function)
bind_function("range", torch_range)
bind_function("concatenate", cat)
binds("is_signed", function=True, method=False)(is_signed)
binds("is_same_size")(is_same_size)


# ----- what a tensor tells about its memory -----------------------------------------------------
def _root(data: np.ndarray) -> np.ndarray:
    while isinstance(data.base, np.ndarray):
        data = data.base
    return data


class UntypedStorage:
    """The bytes a tensor's values live in (its base's memory): what ``data_ptr()`` of two
    views compares."""

    def __init__(self, data: np.ndarray) -> None:
        self._memory = _root(data)

    def data_ptr(self) -> int:
        return self._memory.ctypes.data

    def nbytes(self) -> int:
        return self._memory.nbytes

    def size(self) -> int:
        return self._memory.nbytes

    __len__ = size

    @property
    def device(self):
        from ._device import device

        return device("cpu")


class TypedStorage(UntypedStorage):
    """The legacy typed view of the same memory (``tensor.storage()``), counted in elements."""

    def __init__(self, data: np.ndarray) -> None:
        super().__init__(data)
        self.dtype = dtypes.from_numpy_dtype(data.dtype)

    def size(self) -> int:
        return self._memory.nbytes // self.dtype.itemsize

    __len__ = size

    def tolist(self) -> list:
        return self._memory.reshape(-1).view(self.dtype.numpy).tolist()

    def __repr__(self) -> str:
        values = "\n".join(f" {value}" for value in self.tolist())
        return (f"{values}\n[torch.storage.TypedStorage(dtype={self.dtype}, device=cpu) of "
                f"size {self.size()}]")


def storage(self: Tensor) -> TypedStorage:
    warnings.warn("TypedStorage is deprecated. It will be removed in the future and "
                  "UntypedStorage will be the only storage class. This should only matter to "
                  "you if you are using storages directly.  To access UntypedStorage directly, "
                  "use tensor.untyped_storage() instead of tensor.storage()", UserWarning,
                  stacklevel=2)
    return TypedStorage(self._data)


bind_method("data_ptr", lambda self: self._data.ctypes.data)
bind_method("nbytes", property(lambda self: self._data.size * self.dtype.itemsize))
bind_method("itemsize", property(lambda self: self.dtype.itemsize))
bind_method("is_cpu", property(lambda self: True))
bind_method("get_device", lambda self: -1)
bind_method("is_nonzero", is_nonzero)
bind_method("is_signed", is_signed)
bind_method("untyped_storage", lambda self: UntypedStorage(self._data))
bind_method("storage", storage)


def _functional_method(name: str):
    """``x.prelu(weight)``, ``x.hardshrink()``: torch.nn.functional's op as a method."""
    def method(self: Tensor, *args, **kwargs):
        from .nn import functional

        return getattr(functional, name)(self, *args, **kwargs)

    method.__name__ = method.__qualname__ = name
    return method


for _name in ("prelu", "hardshrink"):
    bind_method(_name, _functional_method(_name))
