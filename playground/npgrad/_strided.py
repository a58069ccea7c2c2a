"""torch.as_strided on the NumPy engine (a view of the storage by sizes, strides and an
offset: AsStridedBackward0; as_strided_ and resize_ in place) and torch.stft made of the ops
torch makes it of (a reflection pad, a strided window of frames, the window's product, a
real-to-complex FFT)."""

from __future__ import annotations

import numpy as np

from ._bindings import binds
from ._grad_mode import GradMode
from ._inplace import _history, _recorded
from ._missing import MISSING_HINT
from ._recording import output
from ._strides import dense, element_strides
from ._tensor import Tensor, bump_version, shared_counter
from ._user_warnings import warn_at_user_code
from ._view_places import addresses, positions_in


def _storage_of(self: Tensor) -> tuple[Tensor, np.ndarray]:
    """The tensor holding self's memory (its first base) and where each of self's elements
    lies in it; refused where the engine keeps that memory in another order than torch."""
    root = self if self._base is None else self._base
    memory = root._data
    if memory.flags.c_contiguous:
        places = np.arange(self._data.size).reshape(self._data.shape) if root is self else \
            positions_in(self._data, memory)
    elif dense(memory.shape, element_strides(memory)) and min(memory.strides, default=0) >= 0:
        # (a clone of a transpose keeps its layout, as torch's: a place is its distance from
        # the start of the memory, in elements)
        places = (addresses(self._data) - memory.__array_interface__["data"][0]) // \
            memory.itemsize if np.shares_memory(self._data, memory) else None
    else:
        places = None
    if places is None:
        raise NotImplementedError(f"as_strided of a tensor whose memory is not laid out in "
                                  f"order is not {MISSING_HINT}")
    return root, places


def _storage(memory: np.ndarray) -> np.ndarray:
    """A dense array's memory, one element after another (a view: writes go through)."""
    if memory.flags.c_contiguous:
        return memory.reshape(-1)
    return np.lib.stride_tricks.as_strided(memory, (memory.size,), (memory.itemsize,))


@binds("as_strided")
def as_strided(self: Tensor, size, stride, storage_offset=None) -> Tensor:
    """A view of self's storage: element i sits at offset + Σ i_d·stride_d."""
    data, positions, root = _strided_view(self, size, stride, storage_offset)
    return output("as_strided", data, (self,), (self._data.shape, positions),
                  shared_counter(self), root)


def _strided_view(self: Tensor, size, stride, storage_offset) -> tuple:
    """The view's values, where each of its elements lies among self's (its gradient's way
    back) and the tensor whose memory it views."""
    size, stride = tuple(int(n) for n in size), tuple(int(s) for s in stride)
    if len(size) != len(stride):
        raise RuntimeError("mismatch in length of strides and shape")
    root, places = _storage_of(self)
    offset = int(places.flat[0]) if storage_offset is None and places.size else \
        int(storage_offset or 0)
    storage, itemsize = _storage(root._data), root._data.itemsize
    reach = sum((n - 1) * s for n, s in zip(size, stride, strict=True))
    needed = 0 if 0 in size else offset + 1 + reach
    if needed > storage.size:
        raise RuntimeError(f"setStorage: sizes {list(size)}, strides {list(stride)}, storage "
                           f"offset {offset}, and itemsize {itemsize} requiring a storage size "
                           f"of {needed * itemsize} are out of bounds for storage of size "
                           f"{storage.size * itemsize}")
    data = np.lib.stride_tricks.as_strided(storage[offset:], shape=size,
                                           strides=[s * itemsize for s in stride])
    in_storage = offset + sum(np.arange(n).reshape([-1 if d == dim else 1
                                                     for d in range(len(size))]) * s
                              for dim, (n, s) in enumerate(zip(size, stride, strict=True)))
    in_self = np.full(storage.size, -1)
    in_self[places.reshape(-1)] = np.arange(places.size)
    positions = in_self[np.broadcast_to(in_storage, size)] if size else \
        in_self[np.asarray([offset])].reshape(())
    if (positions < 0).any():  # (fine for values; a gradient there is not the engine's)
        if self.requires_grad:
            raise NotImplementedError("as_strided of a tensor that requires grad, reaching "
                                      f"memory beyond its own elements, is not {MISSING_HINT}")
        positions = np.maximum(positions, 0)
    return data, positions, root


# ----- in place: the tensor itself made a new view of its storage ----------------------------
@binds("resize_", function=False)
def resize_(self: Tensor, *sizes, memory_format=None) -> Tensor:
    """The tensor re-shaped over its storage: its first elements (in memory order) when it
    shrinks or keeps its count, the old ones followed by new memory when it grows (torch's
    new memory holds whatever was there; here zeros)."""
    sizes = tuple(int(n) for n in (sizes[0] if len(sizes) == 1 and
                                   isinstance(sizes[0], tuple | list) else sizes))
    _refuse_grad(self)
    flat = self._data.reshape(-1)
    count = int(np.prod(sizes))
    if count <= flat.size:
        self._data = flat[:count].reshape(sizes)
    else:
        grown = np.zeros(count, self._data.dtype)
        grown[:flat.size] = flat
        self._data = grown.reshape(sizes)
    bump_version(self)
    return self


@binds("resize_as_", function=False)
def resize_as_(self: Tensor, the_template: Tensor, memory_format=None) -> Tensor:
    return resize_(self, tuple(the_template.shape))


@binds("as_strided_", function=False)
def as_strided_(self: Tensor, size, stride, storage_offset=None) -> Tensor:
    """as_strided, the tensor itself becoming that view of its storage; where autograd
    records it, AsStridedBackward1 joins its history (a leaf that requires grad is refused,
    as any in-place op on one is)."""
    recorded = GradMode.enabled and self.requires_grad
    if recorded:
        self._check_inplace()
    data, positions, _ = _strided_view(self, size, stride, storage_offset)
    shape, history = self._data.shape, _history(self) if recorded else None
    self._data = data
    bump_version(self)
    return _recorded("as_strided_", self, history, None, (shape, positions)) if recorded \
        else self


def _refuse_grad(self: Tensor) -> None:
    if self.requires_grad:
        raise RuntimeError("cannot resize variables that require grad")


_NO_WINDOW = ("A window was not provided. A rectangular window will be applied,which is known "
              "to cause spectral leakage. Other windows such as torch.hann_window or "
              "torch.hamming_window are recommended to reduce spectral leakage.To suppress this "
              "warning and use a rectangular window, explicitly set `window=torch.ones(n_fft, "
              "device=<device>)`. (Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/"
              "native/SpectralOps.cpp:835.)")


_REAL_RETURN = ("stft with return_complex=False is deprecated. In a future pytorch release, stft "
                "will return complex tensors for all inputs, and return_complex=False will raise "
                "an error.\nNote: you can still call torch.view_as_real on the complex output to "
                "recover the old return format. (Triggered internally at /__w/pytorch/pytorch/"
                "aten/src/ATen/native/SpectralOps.cpp:874.)")
_said: list = []
_said_real: list = []


@binds("stft")
def stft(input: Tensor, n_fft: int, hop_length=None, win_length=None, window=None,
         center: bool = True, pad_mode: str = "reflect", normalized: bool = False,
         onesided=None, return_complex=None) -> Tensor:
    """Short-time Fourier transform: frames of n_fft samples every hop_length, each windowed
    and transformed (frequencies by frames)."""
    from . import _shapes, fft
    from ._complex import view_as_real
    from .nn.functional import pad

    if window is None and not _said:  # (torch says it once, before anything else)
        _said.append(True)
        warn_at_user_code(_NO_WINDOW)
    if return_complex is None and input._data.dtype.kind != "c":
        raise RuntimeError("stft requires the return_complex parameter be given for real "
                           "inputs, and will further require that return_complex=True in a "
                           "future PyTorch release.")
    if return_complex is False and not _said_real:
        _said_real.append(True)
        warn_at_user_code(_REAL_RETURN)
    hop_length = n_fft // 4 if hop_length is None else hop_length
    win_length = n_fft if win_length is None else win_length
    batched = input.ndim == 2
    if center:
        shaped = input.view(*((1,) if batched else (1, 1)), *input.shape)
        shaped = pad(shaped, (n_fft // 2, n_fft // 2), mode=pad_mode)
        input = shaped.view(*shaped.shape[-2 if batched else -1:])
    if not batched:
        input = _shapes.unsqueeze(input, 0)
    length = input.shape[-1]
    if not 0 < n_fft <= length:
        raise RuntimeError(f"stft: expected 0 < n_fft < {length}, but got n_fft={n_fft}")
    frames = 1 + (length - n_fft) // hop_length
    strides = input.stride()
    framed = as_strided(input, (input.shape[0], frames, n_fft),
                        (strides[0], hop_length * strides[1], strides[1]))
    if window is not None:
        framed = framed * _padded_window(window, n_fft, win_length)
    spectrum = fft.fft_r2c(framed, (2,), fft._BY_ROOT_N if normalized else fft._NONE,
                           True if onesided is None else onesided)
    out = output("transpose_", np.swapaxes(spectrum._data, 1, 2), (spectrum,), (1, 2))
    if not batched:
        out = output("squeeze_dims", out._data[0], (out,), (out._data.shape,))
    return out if return_complex or return_complex is None else view_as_real(out)


def _padded_window(window: Tensor, n_fft: int, win_length: int) -> Tensor:
    if win_length == n_fft:
        return window
    from ._factories import zeros

    padded = zeros(n_fft, dtype=window.dtype)
    left = (n_fft - win_length) // 2
    padded[left:left + win_length] = window
    return padded


