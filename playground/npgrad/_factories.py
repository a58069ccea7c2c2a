"""Tensor creation: torch.tensor, zeros/ones/full, ranges, random numbers and *_like."""

from __future__ import annotations

import functools
import math
import numbers

import numpy as np

from . import _dtype as dtypes
from . import _numerics, _random
from ._bfloat16 import as_bfloat16
from ._bindings import bind_method
from ._device import made_on_meta
from ._factory_sizes import factory_size
from ._inplace import bind_variant, record_fill
from ._meta import NoValues, shape_only
from ._nested_data import checked_fill, inferred_dtype, is_sequence, nested_array
from ._tensor import Size, Tensor, bump_version
from ._user_warnings import warn_at_user_code

_make = Tensor._make
Generator = _random.Generator
default_generator = _random.default_generator
_stream = _random.chosen


def manual_seed(seed) -> Generator:
    return default_generator.manual_seed(seed)


def seed() -> int:
    return default_generator.seed()


def initial_seed() -> int:
    return default_generator.initial_seed()


def _generator_get_state(self: Generator) -> Tensor:
    """The generator's state as torch's 5056-byte ByteTensor."""
    return _make(np.frombuffer(self.state_bytes(), dtype=np.uint8).copy())


def _generator_set_state(self: Generator, new_state: Tensor) -> Generator:
    if not isinstance(new_state, Tensor) or new_state._data.dtype != np.uint8:
        raise TypeError("RNG state must be a torch.ByteTensor")
    self.restore(new_state._data.tobytes())
    return self


def get_rng_state() -> Tensor:
    return _generator_get_state(default_generator)


def set_rng_state(new_state: Tensor) -> None:
    _generator_set_state(default_generator, new_state)


Generator.get_state = _generator_get_state
Generator.set_state = _generator_set_state


def randperm(n: int, *, generator: Generator | None = None, dtype=None, device=None,
             requires_grad: bool = False) -> Tensor:
    """0 .. n-1 in torch's random order."""
    target = dtypes.to_dtype(dtype) if dtype is not None else dtypes.int64
    if made_on_meta(device):  # (torch draws nothing for a meta tensor)
        return _finish(np.empty(int(n), target.numpy), requires_grad, device)
    data = _random.permutation(_stream(generator), int(n)).astype(target.numpy)
    return _finish(data, requires_grad, device)


@shape_only
def uniform_(self: Tensor, from_=0.0, to=1.0, *, generator: Generator | None = None) -> Tensor:
    """Numbers drawn uniformly from [from, to), in place."""
    _random.check_uniform_bounds(from_, to)
    kind = self._data.dtype
    if kind.kind == "c":  # torch fills view_as_real: each part drawn from [from, to)
        draws = _random.uniforms(_stream(generator), 2 * self._data.size, _part(kind),
                                 float(from_), float(to))
        return _fill("uniform_", self, draws.view(kind))
    _floating_kernel(self, "check_uniform_bounds")
    draws = _random.uniforms(_stream(generator), self._data.size, kind, float(from_),
                             float(to))
    return _fill("uniform_", self, draws)


@shape_only
def normal_(self: Tensor, mean=0.0, std=1.0, *, generator: Generator | None = None) -> Tensor:
    """Numbers from N(mean, std²), in place."""
    kind, contiguous = self._data.dtype, self._data.flags.c_contiguous
    if kind.kind == "c":  # torch fills view_as_real: each part N(mean, std²/2)
        draws = _random.normals(_stream(generator), 2 * self._data.size, _part(kind),
                                float(mean), float(std) / math.sqrt(2), contiguous)
        return _fill("normal_", self, draws.view(kind))
    _floating_kernel(self, "normal_kernel_cpu")
    draws = _random.normals(_stream(generator), self._data.size, kind, float(mean),
                            float(std), contiguous)
    return _fill("normal_", self, draws)


@shape_only
def bernoulli_(self: Tensor, p=0.5, *, generator: Generator | None = None) -> Tensor:
    """1 with probability ``p`` (a number, or a tensor of them), else 0, in place."""
    if isinstance(p, Tensor):
        chances = np.broadcast_to(p._data, self._data.shape)
        draws = _random.bernoulli_tensor(_stream(generator), np.ascontiguousarray(chances))
        return _fill("bernoulli_tensor", self, draws, p)
    draws = _random.bernoulli_scalar(_stream(generator), self._data.size, float(p))
    return _fill("bernoulli_", self, draws)


def bernoulli(input: Tensor, p=None, *, generator: Generator | None = None) -> Tensor:
    """0/1 draws: with probability ``input`` element by element, or ``p`` for all."""
    # (C order: NumPy's empty_like keeps an expanded input's stride order, and the draws,
    # written in that order, came out transposed)
    result = _make(np.empty_like(input._data, order="C"))  # (a bfloat16 one stays so)
    return bernoulli_(result, input if p is None else p, generator=generator)


def multinomial(input: Tensor, num_samples: int, replacement: bool = False, *,
                generator: Generator | None = None) -> Tensor:
    """Indices drawn from each row of ``input`` taken as (unnormalised) probabilities."""
    picked = _random.multinomial(_stream(generator), input._data, int(num_samples),
                                 bool(replacement))
    return _make(picked)


def normal(mean, std=1.0, size=None, *, generator: Generator | None = None, dtype=None,
           device=None, requires_grad: bool = False) -> Tensor:
    """torch.normal: tensor means and/or stds (drawn N(0, 1), then scaled and shifted), or
    two numbers and a size."""
    mean_tensor, std_tensor = isinstance(mean, Tensor), isinstance(std, Tensor)
    if not (mean_tensor or std_tensor):
        if size is None:
            raise TypeError(_NORMAL_SIGNATURES)
        result = empty(*_size((size,)), dtype=dtype, device=device)
        normal_(result, mean, std, generator=generator)
        return _finish(result._data, requires_grad)
    if mean_tensor and not std_tensor:
        result = _make(np.empty_like(mean._data))
        normal_(result, 0.0, std, generator=generator)
        return _make(result._data + mean._data)
    shape = np.broadcast_shapes(mean._data.shape if mean_tensor else (), std._data.shape)
    kind = std._data.dtype if not mean_tensor else np.result_type(mean._data, std._data)
    result = _make(np.empty(shape, dtype=kind))
    normal_(result, generator=generator)
    shifted = result._data * std._data
    return _make((shifted + (mean._data if mean_tensor else kind.type(mean))).astype(kind))


_NORMAL_SIGNATURES = (
    "normal() received an invalid combination of arguments - got (float, float), but expected "
    "one of:\n"
    " * (Tensor mean, Tensor std, *, torch.Generator generator = None, Tensor out = None)\n"
    " * (Tensor mean, float std = 1, *, torch.Generator generator = None, Tensor out = None)\n"
    " * (float mean, Tensor std, *, torch.Generator generator = None, Tensor out = None)\n"
    " * (float mean, float std, tuple of ints size, *, torch.Generator generator = None, "
    "Tensor out = None, torch.dtype dtype = None, torch.layout layout = None, torch.device "
    "device = None, bool pin_memory = False, bool requires_grad = False)\n")


def _floating_kernel(self: Tensor, kernel: str) -> None:
    _floating_target(self._data.dtype, kernel)


def _fill(op: str, self: Tensor, draws: np.ndarray, chances: Tensor | None = None) -> Tensor:
    """Write a random fill into self (its views see it), as torch's in-place kernels do, and
    record it as the rule ``op``'s node where autograd records the write. A half tensor takes
    float64 draws through float, as c10::Half's constructor does (two roundings); a draw too
    large for the dtype becomes inf (or C's cast) silently, as in torch."""
    if self._data.dtype == np.float16 and draws.dtype == np.float64:
        with np.errstate(over="ignore"):
            draws = draws.astype(np.float32)

    def write() -> None:
        # torch's kernels walk a tensor in memory order (a transposed view column by column)
        strides = [-abs(stride) for stride in self._data.strides]
        target = self._data.transpose(np.argsort(strides, kind="stable"))
        with np.errstate(over="ignore", invalid="ignore"):
            target[...] = draws.reshape(target.shape)
        bump_version(self)

    return record_fill(op, self, write, chances)


def _finish(data: np.ndarray, requires_grad: bool, device_spec=None) -> Tensor:
    if made_on_meta(device_spec):  # (its shape and dtype; the values are let go)
        data = NoValues.of(data)
    result = _make(data)
    if requires_grad:
        result.requires_grad_(True) if dtypes.holds_floats(data) else _integer_grad_error()
    return result


def _integer_grad_error():
    raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")


def _to_array(data, dtype: dtypes.dtype) -> np.ndarray:
    if dtype is dtypes.bfloat16:  # (torch's way: to float32, then rounded to bfloat16)
        return as_bfloat16(_to_array(data, dtypes.float32))
    if isinstance(data, Tensor):
        return data._data.astype(dtype.numpy, copy=True)
    if is_sequence(data) and not isinstance(data, np.ndarray):
        return nested_array(data, dtype)
    return np.array(data, dtype=dtype.numpy)


def tensor(data, *, dtype=None, device=None, requires_grad=False, pin_memory=False) -> Tensor:
    """A new tensor holding a copy of ``data`` (nested lists, NumPy arrays, numbers)."""
    _warn_copy_of_tensor(data, "torch.tensor(sourceTensor)")
    return _copied(data, dtype, device, requires_grad)


def _copied(data, dtype=None, device=None, requires_grad=False) -> Tensor:
    target = None if dtype is None else dtypes.to_dtype(dtype)
    if is_sequence(data) and not isinstance(data, np.ndarray):  # (torch: the shape first)
        values = nested_array(data, target) if target is not dtypes.bfloat16 else \
            as_bfloat16(nested_array(data, dtypes.float32))
    else:
        values = _to_array(data, inferred_dtype(data) if target is None else target)
    return _finish(values, requires_grad, device)


def _warn_copy_of_tensor(data, call: str) -> None:
    """torch's advice when a tensor is copied by a factory meant for data."""
    if isinstance(data, Tensor):
        warn_at_user_code("To copy construct from a tensor, it is recommended to use "
                          "sourceTensor.detach().clone() or sourceTensor.detach().clone()."
                          f"requires_grad_(True), rather than {call}.")


def as_tensor(data, dtype=None, device=None) -> Tensor:
    if isinstance(data, Tensor):  # itself, or converted (recorded, as torch's .to)
        return data if dtype is None else data.to(dtypes.to_dtype(dtype))
    same_dtype = dtype is None or (  # (an array is never bfloat16's: NumPy has no such type)
        isinstance(data, np.ndarray) and dtypes.to_dtype(dtype) is not dtypes.bfloat16
        and dtypes.to_dtype(dtype).numpy == data.dtype)
    if isinstance(data, np.ndarray) and same_dtype:
        dtypes.from_numpy_dtype(data.dtype)
        return _make(data)
    return _copied(data, dtype=dtype, device=device)


def from_numpy(array: np.ndarray) -> Tensor:
    """Shares memory with ``array``, as torch.from_numpy does."""
    if not isinstance(array, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(array).__name__})")
    dtypes.from_numpy_dtype(array.dtype)
    return _make(array)


def _size(size, op: str = "empty") -> tuple:
    return factory_size(size, op)


def _dtype_or_default(dtype) -> np.dtype:
    return (dtypes.to_dtype(dtype) if dtype is not None else dtypes.get_default_dtype()).numpy


def _bfloat16_through_float32(factory):
    """``factory(..., dtype=torch.bfloat16)``: its float32 values rounded, which are torch's
    (its bfloat16 kernels compute in float; torch.rand draws as for float32)."""
    @functools.wraps(factory)
    def made(*args, dtype=None, requires_grad=False, **kwargs) -> Tensor:
        if dtype is None or dtypes.to_dtype(dtype) is not dtypes.bfloat16:
            return factory(*args, dtype=dtype, requires_grad=requires_grad, **kwargs)
        result = factory(*args, dtype=dtypes.float32, **kwargs)
        if result._data.__class__ is np.ndarray:  # (a meta tensor's has no values)
            result._data = as_bfloat16(result._data)
        return _finish(result._data, requires_grad, kwargs.get("device"))

    return made


@_bfloat16_through_float32
def zeros(*size, dtype=None, device=None, requires_grad=False) -> Tensor:
    return _finish(np.zeros(_size(size, "zeros"), _dtype_or_default(dtype)), requires_grad,
                   device)


@_bfloat16_through_float32
def ones(*size, dtype=None, device=None, requires_grad=False) -> Tensor:
    return _finish(np.ones(_size(size, "ones"), _dtype_or_default(dtype)), requires_grad,
                   device)


def empty(*size, dtype=None, device=None, requires_grad=False, memory_format=None) -> Tensor:
    # Zero-filled rather than uninitialised: the same shape and dtype, and reproducible.
    made = zeros(*_size(size, "empty"), dtype=dtype, device=device, requires_grad=requires_grad)
    if memory_format is not None:  # (channels_last: the strides, for stride() to show)
        from ._memory_formats import laid_out

        made._data = laid_out(made._data, memory_format)
    return made


@_bfloat16_through_float32
def full(size, fill_value, *, dtype=None, device=None, requires_grad=False) -> Tensor:
    target = dtypes.to_dtype(dtype) if dtype is not None else (
        dtypes.default_for_category(dtypes.scalar_category(fill_value)))
    fill_value = checked_fill(fill_value, np.dtype(target.numpy))
    return _finish(np.full(_size((size,), "full"), fill_value, target.numpy), requires_grad,
                   device)


@_bfloat16_through_float32
def eye(n: int, m: int | None = None, *, dtype=None, device=None, requires_grad=False) -> Tensor:
    return _finish(np.eye(n, m, dtype=_dtype_or_default(dtype)), requires_grad, device)


@_bfloat16_through_float32
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
    _check_range(*values)
    count = max(0, int(np.ceil((values[1] - values[0]) / values[2])))
    data = (values[0] + np.arange(count, dtype=np.float64) * values[2]).astype(target.numpy)
    return _finish(data, requires_grad, device)


def _check_range(start, end, step) -> None:
    """torch's checks of an arange's bounds and step."""
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if not (math.isfinite(start) and math.isfinite(end)):
        def text(value):  # (as C++ prints a Scalar)
            return f"{value:g}" if isinstance(value, float) else str(value)
        raise RuntimeError(f"unsupported range: {text(start)} -> {text(end)}")
    if (step > 0 and end < start) or (step < 0 and end > start):
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")


def linspace(start, end, steps: int, *, dtype=None, device=None, requires_grad=False) -> Tensor:
    if dtype is not None and dtypes.to_dtype(dtype) is dtypes.bfloat16:
        return _finish(as_bfloat16(_numerics.bfloat16_linspace(start, end, steps)),
                       requires_grad, device)
    data = _numerics.linspace(start, end, steps, _dtype_or_default(dtype))
    return _finish(data, requires_grad, device)


@_bfloat16_through_float32
def rand(*size, generator=None, dtype=None, device=None, requires_grad=False) -> Tensor:
    """Uniform numbers in [0, 1), torch's for the seed."""
    target = _dtype_or_default(dtype)
    shape = _size(size, "rand")
    if made_on_meta(device):
        return _finish(np.empty(shape, target), requires_grad, device)
    if target.kind == "c":  # the pairs of parts drawn as reals
        parts = _random.uniforms(_stream(generator), 2 * _count(shape), _part(target))
        return _finish(parts.view(target).reshape(shape), requires_grad, device)
    _floating_target(target, "check_uniform_bounds")
    data = _random.uniforms(_stream(generator), _count(shape), target).reshape(shape)
    return _finish(data, requires_grad, device)


def _part(complex_dtype: np.dtype) -> np.dtype:
    return np.zeros((), complex_dtype).real.dtype


def randn(*size, generator=None, dtype=None, device=None, requires_grad=False) -> Tensor:
    """Standard normal numbers, torch's for the seed."""
    shape = _size(size, "randn")
    if dtype is not None and dtypes.to_dtype(dtype) is dtypes.bfloat16:
        values = _random.reduced_precision_normals(_stream(generator), _count(shape))
        return _finish(as_bfloat16(values.reshape(shape)), requires_grad, device)
    target = _dtype_or_default(dtype)
    if made_on_meta(device):
        return _finish(np.empty(shape, target), requires_grad, device)
    if target.kind == "c":  # the pairs of parts, each of variance 1/2
        parts = _random.normals(_stream(generator), 2 * _count(shape), _part(target), 0.0,
                                math.sqrt(0.5))
        return _finish(parts.view(target).reshape(shape), requires_grad, device)
    _floating_target(target, "normal_kernel_cpu")
    data = _random.normals(_stream(generator), _count(shape), target).reshape(shape)
    return _finish(data, requires_grad, device)


@_bfloat16_through_float32
def randint(low, high=None, size=None, *, generator=None, dtype=None, device=None,
            requires_grad=False) -> Tensor:
    """Whole numbers in [low, high) (``randint(high, size)`` from 0), int64 unless told."""
    if size is None:
        low, high, size = 0, low, high
    target = dtypes.to_dtype(dtype) if dtype is not None else dtypes.int64
    shape = _size((size,), "randint")
    if made_on_meta(device):
        return _finish(np.empty(shape, target.numpy), requires_grad, device)
    data = _random.integers(_stream(generator), _count(shape), target.numpy, int(low),
                            int(high)).reshape(shape)
    return _finish(data, requires_grad, device)


def _count(shape: tuple) -> int:
    return int(np.prod(shape, dtype=np.int64))


def _floating_target(target: np.dtype, kernel: str) -> None:
    if np.dtype(target).kind != "f":
        name = dtypes.from_numpy_dtype(np.dtype(target)).legacy_name.replace("Tensor", "")
        raise NotImplementedError(f'"{kernel}" not implemented for \'{name}\'')


def legacy_constructor(dtype: dtypes.dtype, *args, device=None) -> Tensor:
    """``torch.FloatTensor([1, 2])`` copies data; ``torch.FloatTensor(2, 3)`` makes a shape."""
    if not args:
        return zeros(0, dtype=dtype)
    if all(isinstance(a, numbers.Integral) and not isinstance(a, bool) for a in args) or (
        len(args) == 1 and isinstance(args[0], Size)
    ):
        return zeros(_size(args), dtype=dtype)
    if len(args) == 1:
        data = args[0]
        if isinstance(data, Tensor) and data.dtype is not dtype:
            raise TypeError(f"expected {dtype.legacy_name} (got {data.dtype.legacy_name})")
        return _copied(data, dtype=dtype)
    raise TypeError("new(): invalid arguments")


def _legacy_type(dtype: dtypes.dtype):
    """``torch.FloatTensor`` and its kin, by dtype: legacy_constructor for that dtype."""
    def construct(*args, device=None) -> Tensor:
        return legacy_constructor(dtype, *args)

    construct.__name__ = construct.__qualname__ = dtype.legacy_name
    return construct


FloatTensor, DoubleTensor, HalfTensor, BFloat16Tensor = (_legacy_type(d) for d in (
    dtypes.float32, dtypes.float64, dtypes.float16, dtypes.bfloat16))
# (randperm is defined before the decorator; its bfloat16 is its float32 rounded too)
randperm = _bfloat16_through_float32(randperm)
LongTensor, IntTensor, ShortTensor, CharTensor, ByteTensor, BoolTensor = (
    _legacy_type(d) for d in (dtypes.int64, dtypes.int32, dtypes.int16, dtypes.int8,
                              dtypes.uint8, dtypes.bool))


def _new_factory(factory):
    """``x.new_zeros(...)`` and the like: the factory, with x's dtype unless told."""

    def new(self: Tensor, *args, dtype=None, device=None, requires_grad=False):
        if factory.__name__ != "full":  # (the size first, read as torch reads it, its name)
            args = factory_size(args, f"new_{factory.__name__}")
        return factory(*args, dtype=dtype or self.dtype, device=device,
                       requires_grad=requires_grad)

    new.__name__ = f"new_{factory.__name__}"
    return new


def new_tensor(self: Tensor, data, dtype=None, device=None, requires_grad=False) -> Tensor:
    _warn_copy_of_tensor(data, "tensor.new_tensor(sourceTensor)")
    return _copied(data, dtype=dtype or self.dtype, device=device, requires_grad=requires_grad)


for _fill_method in (bernoulli_, uniform_, normal_):
    bind_variant(_fill_method.__name__, _fill_method)
bind_method("bernoulli", bernoulli)
bind_method("multinomial", multinomial)
bind_method("new_tensor", new_tensor)
# x.new(2, 3), x.new([1, 2]): the legacy constructor of x's dtype (old tutorials use it)
bind_method("new", lambda self, *args, device=None: legacy_constructor(self.dtype, *args))
for _factory in (zeros, ones, empty, full):
    bind_method(f"new_{_factory.__name__}", _new_factory(_factory))


# (at the end: they call this module's factories)
from ._like_factories import (  # noqa: E402, F401 - named here too, as before
    empty_like,
    full_like,
    ones_like,
    rand_like,
    randint_like,
    randn_like,
    zeros_like,
)
