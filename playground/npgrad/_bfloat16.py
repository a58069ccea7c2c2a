"""bfloat16 tensors as values: made, converted, printed and read as torch's are (each value
rounded to bfloat16 as torch rounds a float), computed with by no operation of this engine.

NumPy has no bfloat16 type, so such a tensor's storage is ``BFloat16Values``: float32 values
that are all exactly bfloat16 numbers. What reads a tensor as an array meets a clear error
that names the torch engine, never float32 arithmetic that would round otherwise."""

from __future__ import annotations

import numpy as np

from ._dtype import BFLOAT16_STORAGE
from ._meta import RefusedStorage

COMPUTING = ("computing with bfloat16 tensors is not in the built-in NumPy engine (it makes, "
             "converts and prints them); switch the engine to torch")

AUTOGRAD_REFUSED = ("autograd through bfloat16 tensors is not in the built-in NumPy engine; "
                    "switch the engine to torch")


def values_for_numpy(storage: BFloat16Values, force: bool) -> np.ndarray:
    """``Tensor.numpy()`` of a bfloat16 tensor: torch's refusal, or for the app's views
    (``force``) its values as float32."""
    if not force:
        raise TypeError("Got unsupported ScalarType BFloat16")
    return storage.values


def rounded_to_bfloat16(values) -> np.ndarray:
    """float32 values rounded to bfloat16's 8 significant bits, to nearest even, as
    c10::BFloat16 rounds a float; a NaN becomes the positive quiet NaN it makes."""
    single = np.asarray(values, dtype=np.float32)
    bits = single.view(np.uint32).astype(np.uint64)  # (wide: the carry may pass bit 31)
    halfway_up = np.uint64(0x7FFF) + ((bits >> np.uint64(16)) & np.uint64(1))
    kept = ((bits + halfway_up) >> np.uint64(16)) << np.uint64(16)
    rounded = kept.astype(np.uint32).view(np.float32).reshape(single.shape)
    return np.where(np.isnan(single), np.float32(np.nan), rounded)


class BFloat16Values(RefusedStorage):
    """A bfloat16 tensor's storage: its values as float32, read for shape, conversion,
    printing and Python numbers only."""

    __slots__ = ("values",)
    refusal = COMPUTING
    dtype = BFLOAT16_STORAGE
    itemsize = 2

    def __init__(self, values: np.ndarray) -> None:
        self.values = values

    @classmethod
    def of(cls, data) -> BFloat16Values:
        """``data`` (numbers, an array of any dtype) rounded to bfloat16 as torch converts:
        to float32 first, then to bfloat16."""
        if isinstance(data, BFloat16Values):
            return cls(data.values.copy())
        return cls(rounded_to_bfloat16(np.asarray(data).astype(np.float32)))

    @property
    def shape(self) -> tuple:
        return self.values.shape

    @property
    def ndim(self) -> int:
        return self.values.ndim

    @property
    def size(self) -> int:
        return self.values.size

    @property
    def nbytes(self) -> int:
        return self.values.size * self.itemsize

    def astype(self, dtype, copy: bool = True, order: str = "K"):
        """A copy, the one conversion read this way; an op that would promote these values to
        compute with them (as integers are to float32) is refused instead. ``Tensor.to``
        converts them to other dtypes, by value."""
        if np.dtype(dtype) != BFLOAT16_STORAGE:
            raise NotImplementedError(COMPUTING)
        return BFloat16Values(self.values.copy())

    def item(self):
        return self.values.item()

    def tolist(self):
        return self.values.tolist()

    def __getitem__(self, index):
        raise NotImplementedError(COMPUTING)
