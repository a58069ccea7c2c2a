"""Messages between the app and its kernel: a JSON header plus raw .npy buffers, framed.

Nothing received is unpickled: an array travels as its raw bytes, named in the header as
``{"$array": index, "dtype": "<f4", "shape": [2, 3]}`` with a numeric or bool dtype only, and
is read back with ``numpy.frombuffer`` after its length is checked against dtype and shape.
A frame is: 4-byte big-endian header length, the UTF-8 JSON header, then for each buffer a
4-byte length and the bytes. (Raw bytes, not .npy files: np.save/np.load cost ~25 µs an
array, and a 300-node graph sends a thousand.)
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable
from json import JSONDecoder as _JSONDecoder
from json import JSONEncoder as _JSONEncoder
from os import read as _read
from os import write as _write
from time import perf_counter as _perf_counter

import numpy as np

from playground.model import gc_policy

# Names a completion reply carries at most: every name of a module (real torch has
# ~1,500); after "torch." the popup narrows as the user types.
COMPLETIONS_LIMIT = 3000

_LENGTH = struct.Struct(">I")
# The functions the wire uses are bound here, when the kernel starts: a script that replaces
# json.dumps, json's classes' methods or os.write (``os.write = lambda fd, data: len(data)``)
# changes its own modules, never what the kernel answers with (that ended the kernel, or made
# it silent for good).
_encode = _JSONEncoder.encode
_decode = _JSONDecoder.decode


_KINDS = "biufc"  # bool, integers, floats, complex: what an array may hold on the wire
_MAX_DIMENSIONS = 64
# A run's result is bounded (arrays past FULL_VALUES_LIMIT are summarised, ~10^5 nodes at most):
# no honest message comes near this.
MAX_FRAME = 512 << 20


def _buffer_reference(buffers: list[bytes]):
    """json's ``default``: an ndarray becomes a reference to a buffer (json's C encoder
    walks the message; only arrays come back to Python)."""

    def reference(value):
        if not isinstance(value, np.ndarray):
            raise TypeError(f"{type(value).__name__} cannot cross the wire")
        if value.dtype.kind not in _KINDS:
            raise ValueError(f"arrays of {value.dtype} cannot cross the wire")
        buffers.append(np.ascontiguousarray(value).tobytes())
        return {"$array": len(buffers) - 1, "dtype": value.dtype.str,
                "shape": list(value.shape)}

    return reference


def _array_restorer(buffers: list[memoryview], convert: Callable[[dict], object] | None):
    """json's ``object_hook``: a buffer reference becomes its array; ``convert`` may turn
    any other object into what it stands for as soon as it is read."""

    def restore(value: dict):
        if len(value) == 3 and "$array" in value and value.keys() == {"$array", "dtype", "shape"}:
            return _array(value, buffers)
        return value if convert is None else convert(value)

    return restore


def _array(reference: dict, buffers: list[memoryview]) -> np.ndarray:
    """The array a header names, checked: a known buffer, a plain dtype, the right length."""
    dtype = np.dtype(str(reference["dtype"]))
    shape = reference["shape"]
    if dtype.kind not in _KINDS or dtype.hasobject or not isinstance(shape, list) or \
            len(shape) > _MAX_DIMENSIONS or \
            not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in shape):
        raise ValueError("a malformed array on the wire")
    buffer = buffers[int(reference["$array"])]
    if len(buffer) != math.prod(shape) * dtype.itemsize:  # (math.prod: np.prod's call costs more)
        raise ValueError("an array's bytes do not match its shape")
    # a copy: the array outlives the frame, and views writing into it would surprise
    return np.frombuffer(buffer, dtype=dtype).reshape(shape).copy()


def encode(message: dict) -> bytes:
    buffers: list[bytes] = []
    header = _encode(_JSONEncoder(default=_buffer_reference(buffers)), message).encode()
    parts = [_LENGTH.pack(len(header)), header, _LENGTH.pack(len(buffers))]
    for buffer in buffers:
        parts += [_LENGTH.pack(len(buffer)), buffer]
    return b"".join(parts)


def decode(frame: bytes, convert: Callable[[dict], object] | None = None) -> dict:
    view = memoryview(frame)
    (header_length,) = _LENGTH.unpack_from(view, 0)
    offset = 4 + header_length
    header = str(view[4:offset], "utf-8")  # one copy: bytes() and then loads() made two
    (count,) = _LENGTH.unpack_from(view, offset)
    offset += 4
    buffers = []
    for _ in range(count):
        (length,) = _LENGTH.unpack_from(view, offset)
        offset += 4
        buffers.append(view[offset:offset + length])
        offset += length
    return _decode(_JSONDecoder(object_hook=_array_restorer(buffers, convert)), header)


def send(fd: int, message: dict) -> None:
    send_frame(fd, encode(message))


def send_frame(fd: int, frame: bytes) -> None:
    """An encoded message, with its length in front."""
    data = _LENGTH.pack(len(frame)) + frame
    view = memoryview(data)
    while view:
        written = _write(fd, view)
        view = view[written:]


def _read_exactly(fd: int, size: int) -> bytes | None:
    chunks = []
    while size:
        chunk = _read(fd, min(size, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


def receive(fd: int, timings: dict | None = None,
            convert: Callable[[dict], object] | None = None) -> dict | None:
    """The next message, or None when the other side has closed (or died); ``timings``
    gets the moment it was read whole ("arrived", perf_counter's clock, which is the same
    in every process of the machine) and the seconds spent decoding it; ``convert`` is
    ``decode``'s."""
    prefix = _read_exactly(fd, 4)
    if prefix is None:
        return None
    size = _LENGTH.unpack(prefix)[0]
    if size > MAX_FRAME:  # a forged length must not make us hold gigabytes
        raise ValueError(f"a message of {size:,} bytes is larger than the {MAX_FRAME:,} allowed")
    frame = _read_exactly(fd, size)
    if frame is None:
        return None
    started = _perf_counter()
    with gc_policy.paused():  # a large graph's frame: see model/gc_policy.py
        message = decode(frame, convert)
    if timings is not None:
        timings["arrived"], timings["decode"] = started, _perf_counter() - started
    return message
