"""bfloat16 tensors, computed with as torch's CPU kernels compute them: each op in float32,
its result rounded to bfloat16 (to nearest even, as c10::BFloat16 rounds a float).

NumPy has no bfloat16 type, so such a tensor's storage is a ``BFloat16Array``: a float32
array whose values are all exactly bfloat16 numbers. NumPy's functions on it compute in
float32 (its own class set aside) and hand back their float32 results rounded and marked as
bfloat16 where torch's result would be bfloat16: every floating operand that sets the
result's dtype is bfloat16 (a number, or a 0-d tensor beside a larger one, does not set it;
a float32 array does, and then the result is float32 as torch promotes). Gradients into a
bfloat16 tensor's node are rounded so too: that node's dtype is ``GRADIENT_DTYPE``.
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
    first, then rounded, as torch converts; a bfloat16 array is itself."""
    if values.__class__ is BFloat16Array:
        return values
    InUse.made = True
    return rounded_to_bfloat16(np.asarray(values).astype(np.float32)).view(BFloat16Array)


def marked_bfloat16(data: np.ndarray) -> BFloat16Array:
    """An op's fresh float32 result as bfloat16's, rounded where it lies (its layout kept; a
    read-only result is a view of bfloat16 values already)."""
    InUse.made = True
    marked = data.view(BFloat16Array)
    if data.flags.writeable:
        _round_in_place(marked)
    return marked


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
    """A NumPy result rounded and marked bfloat16 where it is float32 and torch's would be."""
    if isinstance(result, tuple):
        return tuple(_marked(r, keep) for r in result)
    if keep and isinstance(result, np.ndarray | np.generic) and result.dtype == _FLOAT32:
        return as_bfloat16(result)
    return result


def _flattened(args) -> list:
    found = []
    for arg in args:
        if isinstance(arg, list | tuple):
            found.extend(_flattened(arg))
        else:
            found.append(arg)
    return found


def _unmarked(args):
    if isinstance(args, list | tuple):
        return type(args)(_unmarked(a) for a in args)
    return plain(args)


class BFloat16Array(np.ndarray):
    """A bfloat16 tensor's storage: float32 values that are all bfloat16 numbers."""

    def __array_ufunc__(self, ufunc, method, *inputs, out=None, **kwargs):
        if out is not None:
            kwargs["out"] = tuple(plain(o) for o in out)
        result = getattr(ufunc, method)(*(plain(i) for i in inputs), **kwargs)
        if kwargs.get("dtype") is not None:  # (asked for: float32 is float32's)
            return result
        if out is None:
            if method == "at":  # (in place on its first operand)
                _round_in_place(inputs[0])
                return None
            return _marked(result, stays_bfloat16(inputs))
        for written in out:
            _round_in_place(written)
        return out[0] if len(out) == 1 else out

    def __array_function__(self, func, types, args, kwargs):
        result = func(*_unmarked(args), **{k: _unmarked(v) for k, v in kwargs.items()})
        if func in _WRITING_FIRST:  # (np.copyto(bfloat16, values) and the like)
            _round_in_place(args[0])
        if isinstance(kwargs.get("out"), BFloat16Array):
            _round_in_place(kwargs["out"])
            return kwargs["out"]
        if kwargs.get("dtype") is not None:  # (asked for: float32 is float32's)
            return result
        return _marked(result, stays_bfloat16(_flattened(args)))

    def __getitem__(self, index):
        """An element is a 0-d bfloat16 array, not a NumPy float32 number (torch's x[i])."""
        item = np.ndarray.__getitem__(self, index)
        return np.asarray(item).view(BFloat16Array) if item.__class__ is np.float32 else item

    def __setitem__(self, index, value) -> None:
        """Values written in are rounded to bfloat16, as torch's copy into one rounds them."""
        np.ndarray.__setitem__(self.view(np.ndarray), index,
                               rounded_to_bfloat16(np.asarray(plain(value)).astype(np.float32)))

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


# NumPy's functions that write into their first argument
_WRITING_FIRST = frozenset((np.copyto, np.put, np.place, np.putmask, np.fill_diagonal))
# The classes of a dense gradient's values (a sparse one's are another class).
DENSE_ARRAYS = (np.ndarray, BFloat16Array)
