"""bfloat16 tensors, computed with as torch's CPU kernels compute them: each op in float32,
its result rounded to bfloat16 once (to nearest even, as c10::BFloat16 rounds a float).

NumPy has no bfloat16 type, so such a tensor's storage is a ``BFloat16Array``: a float32
array marked as bfloat16's. NumPy's functions on it compute in float32 (its own class set
aside) and mark their float32 results where torch's result would be bfloat16: every floating
operand that sets the result's dtype is bfloat16 (a number, or a 0-d tensor beside a larger
one, does not set it; a float32 array does, and then the result is float32 as torch
promotes). The marked values are rounded where they come to rest (``settled``): as a
tensor's values (``Tensor._make``, an in-place write's version bump) and as a gradient
reaching a bfloat16 tensor's node, whose dtype is ``GRADIENT_DTYPE``. Between them an op's
NumPy steps keep float32's digits, as torch's kernel keeps them in registers.
"""

from __future__ import annotations

import numpy as np

_FLOAT32 = np.dtype(np.float32)
# The dtype a bfloat16 tensor's node declares for the gradient it takes: never a gradient's
# own dtype, so the engine casts every gradient reaching it (cast_gradient rounds it to
# bfloat16). Big-endian float32 is a dtype this engine's tensors never hold.
GRADIENT_DTYPE = np.dtype(">f4")


class InUse:
    """Whether a bfloat16 array was ever made: until then the recording skips its check."""

    made = False


def rounded_to_bfloat16(values) -> np.ndarray:
    """float32 values rounded to bfloat16's 8 significant bits, to nearest even, as
    c10::BFloat16 rounds a float; a NaN becomes the positive quiet NaN it makes."""
    single = np.asarray(values, dtype=np.float32)
    bits = single.view(np.uint32).astype(np.uint64)  # (wide: the carry may pass bit 31)
    halfway_up = np.uint64(0x7FFF) + ((bits >> np.uint64(16)) & np.uint64(1))
    kept = ((bits + halfway_up) >> np.uint64(16)) << np.uint64(16)
    rounded = kept.astype(np.uint32).view(np.float32).reshape(single.shape)
    return np.where(np.isnan(single), np.float32(np.nan), rounded)


def as_bfloat16(values) -> BFloat16Array:
    """``values`` (an array of any real dtype, numbers) as a bfloat16 array: to float32
    first, then rounded, as torch converts; a bfloat16 array is itself, settled."""
    if values.__class__ is BFloat16Array:
        return settled(values)
    InUse.made = True
    return rounded_to_bfloat16(np.asarray(values).astype(np.float32)).view(BFloat16Array)


def marked_bfloat16(data: np.ndarray) -> BFloat16Array:
    """An op's fresh float32 result marked as bfloat16's (its layout kept); ``Tensor._make``
    rounds it where it comes to rest (settled)."""
    InUse.made = True
    return data.view(BFloat16Array)


def values_for_numpy(data: BFloat16Array, force: bool) -> np.ndarray:
    """``Tensor.numpy()`` of a bfloat16 tensor: torch's refusal, or for the app's views
    (``force``) its values as float32."""
    if not force:
        raise TypeError("Got unsupported ScalarType BFloat16")
    return data.view(np.ndarray)


def plain(value):
    """A bfloat16 array as the float32 array it holds; anything else as it is."""
    return value.view(np.ndarray) if value.__class__ is BFloat16Array else value


def gradient_dtype(data) -> np.dtype:
    """The dtype a node whose result is ``data`` declares for its gradient."""
    return GRADIENT_DTYPE if data.__class__ is BFloat16Array else data.dtype


def stays_bfloat16(operands) -> bool:
    """Whether torch's result of these operands is bfloat16: a bfloat16 operand among them,
    and every floating one that sets the result's dtype bfloat16 (arrays with dimensions set
    it; 0-d ones only where there are no others)."""
    floating = [o for o in operands if isinstance(o, np.ndarray | np.generic)
                and o.dtype.kind == "f"]
    ranked = [o for o in floating if o.ndim] or floating
    return bool(ranked) and all(o.__class__ is BFloat16Array for o in ranked)


def carries_bfloat16(result: np.ndarray, inputs: tuple) -> bool:
    """Whether an op's float32 ``result`` is bfloat16's: its tensor inputs make it so (the
    op's NumPy steps set the mark aside: a C kernel, a copy to float32, a NumPy number)."""
    if result.dtype != _FLOAT32:
        return False
    for tensor in inputs:  # (most ops have none: a short look before the rule)
        if getattr(tensor, "_data", None).__class__ is BFloat16Array:
            return stays_bfloat16([getattr(t, "_data", None) for t in inputs])
    return False


def _marked(result, keep: bool):
    """A NumPy result marked bfloat16 where it is float32 and torch's would be (rounded where
    it comes to rest: settled)."""
    if isinstance(result, tuple):
        return tuple(_marked(r, keep) for r in result)
    if keep and isinstance(result, np.ndarray | np.generic) and result.dtype == _FLOAT32:
        return marked_bfloat16(np.asarray(result))
    return result


# The ufuncs whose numbers torch converts to a bfloat16 result's dtype before it computes
# (its add and sub kernels take the number as a bfloat16 tensor; mul and div keep a float)
_ROUNDING_NUMBERS = frozenset((np.add, np.subtract))


def _operand(value):
    """An operand of a bfloat16 sum or difference, as torch takes it: a bfloat16 array's
    float32 values, a number or a float array beside it rounded to bfloat16 first, anything
    else as it is."""
    if value.__class__ is BFloat16Array:
        return value.view(np.ndarray)
    if value.__class__ is float or (isinstance(value, np.ndarray | np.generic)
                                    and value.dtype.kind == "f"):
        return rounded_to_bfloat16(np.asarray(value, dtype=np.float32))
    return value


def settled(data: np.ndarray) -> np.ndarray:
    """A bfloat16 array where it comes to rest (a tensor's values, a gradient), rounded: the
    NumPy steps of one op keep float32's digits between them, as torch's kernel does."""
    if data.__class__ is BFloat16Array and data.flags.writeable:
        _round_in_place(data)
    return data


def _flattened(args) -> list:
    found = []
    for arg in args:
        if isinstance(arg, list | tuple):
            found.extend(_flattened(arg))
        else:
            found.append(arg)
    return found


def _unmarked(args):
    """The arguments of a NumPy function with bfloat16 arrays as their float32 values."""
    if isinstance(args, list | tuple):
        return type(args)(_unmarked(a) for a in args)
    return plain(args)


class BFloat16Array(np.ndarray):
    """A bfloat16 tensor's storage: float32 values, bfloat16 numbers once they settle."""

    def __array_ufunc__(self, ufunc, method, *inputs, out=None, **kwargs):
        if out is not None:
            kwargs["out"] = tuple(plain(o) for o in out)
        keep = kwargs.get("dtype") is None and stays_bfloat16(inputs)
        operands = (_operand(i) for i in inputs) if keep and ufunc in _ROUNDING_NUMBERS else \
            (plain(i) for i in inputs)
        result = getattr(ufunc, method)(*operands, **kwargs)
        if out is None:
            if method == "at":  # (in place on its first operand: rounded when it settles)
                return None
            return _marked(result, keep)  # (asked for a dtype: float32 is float32's)
        # (written into, it stays marked: rounded where it comes to rest, a tensor's write
        # when its version is bumped)
        return out[0] if len(out) == 1 else out

    def __array_function__(self, func, types, args, kwargs):
        keep = kwargs.get("dtype") is None and stays_bfloat16(_flattened(args))
        result = func(*_unmarked(args), **{k: _unmarked(v) for k, v in kwargs.items()})
        if isinstance(kwargs.get("out"), BFloat16Array):
            return kwargs["out"]
        return _marked(result, keep)  # (asked for a dtype: float32 is float32's)

    def __getitem__(self, index):
        """An element is a 0-d bfloat16 array, not a NumPy float32 number (torch's x[i])."""
        item = np.ndarray.__getitem__(self, index)
        return np.asarray(item).view(BFloat16Array) if item.__class__ is np.float32 else item

    def astype(self, dtype, *args, **kwargs) -> np.ndarray:
        """Its values in ``dtype`` as a plain array (float32 too: a float32 tensor's)."""
        return self.view(np.ndarray).astype(dtype, *args, **kwargs)

    def view(self, *args, **kwargs):
        """A view as another dtype or class is plain (bit patterns, the float32 values)."""
        if not (args or kwargs) or (args and args[0] is BFloat16Array):
            return np.ndarray.view(self, BFloat16Array)
        return np.ndarray.view(np.ndarray.view(self, np.ndarray), *args, **kwargs)


def _round_in_place(array) -> None:
    if array.__class__ is BFloat16Array:
        values = array.view(np.ndarray)
        values[...] = rounded_to_bfloat16(values)


# The classes of a dense gradient's values (a sparse one's are another class).
DENSE_ARRAYS = (np.ndarray, BFloat16Array)
