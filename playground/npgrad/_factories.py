"""Tensor creation: torch.tensor, zeros/ones/full, ranges, random numbers and *_like."""

from __future__ import annotations

import numbers

import numpy as np

from . import _dtype as dtypes
from . import _numerics
from ._bindings import bind_method
from ._tensor import Size, Tensor, device

_make = Tensor._make
# torch's default generator starts from this seed, so a fresh process draws the same numbers.
DEFAULT_SEED = 67280421310721


class Generator:
    """A random stream (``torch.Generator``): seeded, reseeded, passed as ``generator=``.

    Its numbers are NumPy's (PCG64), not torch's: a seeded script draws other values than
    under torch. Created on first use: importing numpy.random costs as much as the engine."""

    def __init__(self, device="cpu") -> None:
        self.device = globals()["device"](device)
        self._seed = DEFAULT_SEED
        self._stream = None

    def manual_seed(self, seed: int) -> Generator:
        self._seed, self._stream = int(seed) % (2**64), None
        return self

    def initial_seed(self) -> int:
        return self._seed

    def seed(self) -> int:
        value = int(np.random.SeedSequence().entropy % (2**63))
        self.manual_seed(value)
        return value

    def stream(self) -> np.random.Generator:
        if self._stream is None:
            self._stream = np.random.Generator(np.random.PCG64(self._seed))
        return self._stream

    def __repr__(self) -> str:
        return f"<torch._C.Generator object at {hex(id(self))}>"


default_generator = Generator()


class RandomState:
    """The engine's default stream (``torch.manual_seed`` reseeds it)."""

    @staticmethod
    def generator(chosen: Generator | None = None) -> np.random.Generator:
        return (chosen or default_generator).stream()


def manual_seed(seed: int) -> Generator:
    return default_generator.manual_seed(seed)


def seed() -> int:
    return default_generator.seed()


def initial_seed() -> int:
    return default_generator.initial_seed()


def randperm(n: int, *, generator: Generator | None = None, dtype=None, device=None,
             requires_grad: bool = False) -> Tensor:
    """0 .. n-1 in a random order."""
    target = dtypes.to_dtype(dtype) if dtype is not None else dtypes.int64
    data = RandomState.generator(generator).permutation(int(n)).astype(target.numpy)
    return _finish(data, requires_grad, device)


def random_(self: Tensor, from_=0, to=None, *, generator: Generator | None = None) -> Tensor:
    """Whole numbers in [from, to), in place; ``random_(to)`` is [0, to); ``random_()`` any
    that the dtype holds exactly (below 2**24 for float32, 2**53 for float64, 2**63 int64)."""
    if to is None and from_ != 0:
        from_, to = 0, from_
    if to is None:
        kind = self._data.dtype
        to = 2 ** (np.finfo(kind).nmant + 1) + 1 if kind.kind == "f" else \
            int(np.iinfo(kind).max) + 1 if kind.kind in "iu" else 2
    draws = RandomState.generator(generator).integers(int(from_), int(to),
                                                      size=self._data.shape, dtype=np.int64,
                                                      endpoint=False)
    self._data[...] = draws.astype(self._data.dtype)
    return self


def _finish(data: np.ndarray, requires_grad: bool, device_spec=None) -> Tensor:
    if device_spec is not None:
        device(device_spec)
    result = _make(data)
    if requires_grad:
        result.requires_grad_(True) if data.dtype.kind == "f" else _integer_grad_error()
    return result


def _integer_grad_error():
    raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")


def _infer_dtype(data) -> dtypes.dtype:
    """torch.tensor's dtype for nested Python data: bool < int < float, floats as default."""
    if isinstance(data, np.ndarray | np.generic):
        return dtypes.from_numpy_dtype(data.dtype)
    if isinstance(data, Tensor):
        return data.dtype
    category = -1
    stack = [data]
    seen_tensor_dtype = None
    while stack:
        item = stack.pop()
        if isinstance(item, list | tuple):
            stack.extend(item)
        elif isinstance(item, Tensor):
            seen_tensor_dtype = item.dtype if seen_tensor_dtype is None else dtypes.promote_types(
                seen_tensor_dtype, item.dtype)
            category = max(category, item.dtype.category)
        elif isinstance(item, np.ndarray):
            category = max(category, dtypes.from_numpy_dtype(item.dtype).category)
        elif isinstance(item, bool | np.bool_):
            category = max(category, 0)
        elif isinstance(item, numbers.Integral):
            category = max(category, 1)
        elif isinstance(item, numbers.Real):
            category = max(category, 2)
        else:
            raise TypeError(f"Could not infer dtype of {type(item).__name__}")
    if category == -1:
        return dtypes.get_default_dtype()
    if seen_tensor_dtype is not None and seen_tensor_dtype.category == category:
        return seen_tensor_dtype
    return dtypes.default_for_category(category)


def _to_array(data, dtype: dtypes.dtype) -> np.ndarray:
    if isinstance(data, Tensor):
        return data._data.astype(dtype.numpy, copy=True)
    if isinstance(data, list | tuple):
        data = _unwrap_tensors(data)
    return np.array(data, dtype=dtype.numpy)


def _unwrap_tensors(data):
    if isinstance(data, list | tuple):
        return [_unwrap_tensors(item) for item in data]
    if isinstance(data, Tensor):
        return data._data
    return data


def tensor(data, *, dtype=None, device=None, requires_grad=False, pin_memory=False) -> Tensor:
    """A new tensor holding a copy of ``data`` (nested lists, NumPy arrays, numbers)."""
    target = dtypes.to_dtype(dtype) if dtype is not None else _infer_dtype(data)
    return _finish(_to_array(data, target), requires_grad, device)


def as_tensor(data, dtype=None, device=None) -> Tensor:
    if isinstance(data, Tensor) and (dtype is None or data.dtype is dtypes.to_dtype(dtype)):
        return data
    same_dtype = dtype is None or (
        isinstance(data, np.ndarray) and dtypes.to_dtype(dtype).numpy == data.dtype)
    if isinstance(data, np.ndarray) and same_dtype:
        dtypes.from_numpy_dtype(data.dtype)
        return _make(data)
    return tensor(data, dtype=dtype, device=device)


def from_numpy(array: np.ndarray) -> Tensor:
    """Shares memory with ``array``, as torch.from_numpy does."""
    if not isinstance(array, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(array).__name__})")
    dtypes.from_numpy_dtype(array.dtype)
    return _make(array)


def _size(size) -> tuple:
    if len(size) == 1 and isinstance(size[0], list | tuple | Size):
        size = size[0]
    return tuple(int(s) for s in size)


def _dtype_or_default(dtype) -> np.dtype:
    return (dtypes.to_dtype(dtype) if dtype is not None else dtypes.get_default_dtype()).numpy


def zeros(*size, dtype=None, device=None, requires_grad=False) -> Tensor:
    return _finish(np.zeros(_size(size), _dtype_or_default(dtype)), requires_grad, device)


def ones(*size, dtype=None, device=None, requires_grad=False) -> Tensor:
    return _finish(np.ones(_size(size), _dtype_or_default(dtype)), requires_grad, device)


def empty(*size, dtype=None, device=None, requires_grad=False) -> Tensor:
    # Zero-filled rather than uninitialised: the same shape and dtype, and reproducible.
    return zeros(*size, dtype=dtype, device=device, requires_grad=requires_grad)


def full(size, fill_value, *, dtype=None, device=None, requires_grad=False) -> Tensor:
    target = dtypes.to_dtype(dtype) if dtype is not None else (
        dtypes.default_for_category(dtypes.scalar_category(fill_value)))
    return _finish(np.full(_size((size,)), fill_value, target.numpy), requires_grad, device)


def eye(n: int, m: int | None = None, *, dtype=None, device=None, requires_grad=False) -> Tensor:
    return _finish(np.eye(n, m, dtype=_dtype_or_default(dtype)), requires_grad, device)


def arange(start, end=None, step=1, *, dtype=None, device=None, requires_grad=False) -> Tensor:
    if end is None:
        start, end = 0, start
    values = [v.item() if isinstance(v, Tensor) else v for v in (start, end, step)]
    if dtype is not None:
        target = dtypes.to_dtype(dtype)
    elif all(isinstance(v, numbers.Integral) for v in values):
        target = dtypes.int64
    else:
        target = dtypes.get_default_dtype()
    count = max(0, int(np.ceil((values[1] - values[0]) / values[2])))
    data = (values[0] + np.arange(count, dtype=np.float64) * values[2]).astype(target.numpy)
    return _finish(data, requires_grad, device)


def linspace(start, end, steps: int, *, dtype=None, device=None, requires_grad=False) -> Tensor:
    data = _numerics.linspace(start, end, steps, _dtype_or_default(dtype))
    return _finish(data, requires_grad, device)


def rand(*size, generator=None, dtype=None, device=None, requires_grad=False) -> Tensor:
    target = _dtype_or_default(dtype)
    data = RandomState.generator(generator).random(_size(size), dtype=np.float64).astype(target)
    return _finish(data, requires_grad, device)


def randn(*size, generator=None, dtype=None, device=None, requires_grad=False) -> Tensor:
    target = _dtype_or_default(dtype)
    data = RandomState.generator(generator).standard_normal(_size(size),
                                                         dtype=np.float64).astype(target)
    return _finish(data, requires_grad, device)


def randint(low, high=None, size=None, *, generator=None, dtype=None, device=None,
            requires_grad=False) -> Tensor:
    if size is None:
        low, high, size = 0, low, high
    if size is None and high is not None and isinstance(high, tuple | list):
        low, high, size = 0, low, high
    target = dtypes.to_dtype(dtype) if dtype is not None else dtypes.int64
    data = RandomState.generator(generator).integers(low, high, size=tuple(size))
    data = data.astype(target.numpy)
    return _finish(data, requires_grad, device)


def _like(factory):
    """``zeros_like`` and the like: ``factory`` with the input's shape, and its dtype unless
    told otherwise."""

    def like(input: Tensor, *, dtype=None, device=None, requires_grad=False) -> Tensor:
        return factory(tuple(input.shape), dtype=dtype or input.dtype, device=device,
                       requires_grad=requires_grad)

    like.__name__ = like.__qualname__ = f"{factory.__name__}_like"
    return like


zeros_like = _like(zeros)
ones_like = _like(ones)
rand_like = _like(rand)
randn_like = _like(randn)


def empty_like(input: Tensor, *, dtype=None, device=None, requires_grad=False) -> Tensor:
    return zeros_like(input, dtype=dtype, device=device, requires_grad=requires_grad)


def full_like(input: Tensor, fill_value, *, dtype=None, device=None, requires_grad=False):
    return full(tuple(input.shape), fill_value, dtype=dtype or input.dtype, device=device,
                requires_grad=requires_grad)


def legacy_constructor(dtype: dtypes.dtype, *args, device=None) -> Tensor:
    """``torch.FloatTensor([1, 2])`` copies data; ``torch.FloatTensor(2, 3)`` makes a shape."""
    if not args:
        return _make(np.zeros((0,), dtype.numpy))
    if all(isinstance(a, numbers.Integral) and not isinstance(a, bool) for a in args) or (
        len(args) == 1 and isinstance(args[0], Size)
    ):
        return zeros(_size(args), dtype=dtype)
    if len(args) == 1:
        data = args[0]
        if isinstance(data, Tensor) and data.dtype is not dtype:
            raise TypeError(f"expected {dtype.legacy_name} (got {data.dtype.legacy_name})")
        return tensor(data, dtype=dtype)
    raise TypeError("new(): invalid arguments")


def FloatTensor(*args, device=None) -> Tensor:
    return legacy_constructor(dtypes.float32, *args)


def DoubleTensor(*args, device=None) -> Tensor:
    return legacy_constructor(dtypes.float64, *args)


def LongTensor(*args, device=None) -> Tensor:
    return legacy_constructor(dtypes.int64, *args)


def IntTensor(*args, device=None) -> Tensor:
    return legacy_constructor(dtypes.int32, *args)


def BoolTensor(*args, device=None) -> Tensor:
    return legacy_constructor(dtypes.bool, *args)


def _new_factory(factory):
    """``x.new_zeros(...)`` and the like: the factory, with x's dtype unless told."""

    def new(self: Tensor, *args, dtype=None, device=None, requires_grad=False):
        return factory(*args, dtype=dtype or self.dtype, device=device,
                       requires_grad=requires_grad)

    new.__name__ = f"new_{factory.__name__}"
    return new


def new_tensor(self: Tensor, data, dtype=None, device=None, requires_grad=False) -> Tensor:
    return tensor(data, dtype=dtype or self.dtype, device=device, requires_grad=requires_grad)


def bernoulli_(self: Tensor, p=0.5, *, generator=None) -> Tensor:
    """Fill with 1 (probability ``p``) or 0, in place."""
    chance = p._data if isinstance(p, Tensor) else p
    draws = RandomState.generator(generator).random(self._data.shape)
    self._data[...] = (draws < chance).astype(self._data.dtype)
    return self


bind_method("bernoulli_", bernoulli_)
bind_method("random_", random_)
bind_method("new_tensor", new_tensor)
for _factory in (zeros, ones, empty, full):
    bind_method(f"new_{_factory.__name__}", _new_factory(_factory))
