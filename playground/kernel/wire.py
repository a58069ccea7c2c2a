"""Messages between the app and its kernel: a JSON header plus raw .npy buffers, framed.

Nothing received is unpickled: arrays are read with ``numpy.load(allow_pickle=False)``.
A frame is: 4-byte big-endian header length, the UTF-8 JSON header, then for each buffer a
4-byte length and the .npy bytes. The header names its buffers as ``{"$array": index}``.
"""

from __future__ import annotations

import io
import json
import os
import struct
import time

import numpy as np

_LENGTH = struct.Struct(">I")


def _extract(value, buffers: list[bytes]):
    """Replace every ndarray in a JSON-like value by a reference to a buffer."""
    if isinstance(value, np.ndarray):
        stream = io.BytesIO()
        np.save(stream, value, allow_pickle=False)
        buffers.append(stream.getvalue())
        return {"$array": len(buffers) - 1}
    if isinstance(value, dict):
        return {key: _extract(item, buffers) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_extract(item, buffers) for item in value]
    return value


def _restore(value, arrays: list[np.ndarray]):
    if isinstance(value, dict):
        if set(value) == {"$array"}:
            return arrays[value["$array"]]
        return {key: _restore(item, arrays) for key, item in value.items()}
    if isinstance(value, list):
        return [_restore(item, arrays) for item in value]
    return value


def encode(message: dict) -> bytes:
    buffers: list[bytes] = []
    header = json.dumps(_extract(message, buffers)).encode()
    parts = [_LENGTH.pack(len(header)), header, _LENGTH.pack(len(buffers))]
    for buffer in buffers:
        parts += [_LENGTH.pack(len(buffer)), buffer]
    return b"".join(parts)


def decode(frame: bytes) -> dict:
    view = memoryview(frame)
    (header_length,) = _LENGTH.unpack_from(view, 0)
    offset = 4 + header_length
    header = json.loads(bytes(view[4:offset]))
    (count,) = _LENGTH.unpack_from(view, offset)
    offset += 4
    arrays = []
    for _ in range(count):
        (length,) = _LENGTH.unpack_from(view, offset)
        offset += 4
        arrays.append(np.load(io.BytesIO(bytes(view[offset:offset + length])),
                              allow_pickle=False))
        offset += length
    return _restore(header, arrays)


def send(fd: int, message: dict) -> None:
    frame = encode(message)
    data = _LENGTH.pack(len(frame)) + frame
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def _read_exactly(fd: int, size: int) -> bytes | None:
    chunks = []
    while size:
        chunk = os.read(fd, min(size, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


def receive(fd: int, timings: dict | None = None) -> dict | None:
    """The next message, or None when the other side has closed (or died); ``timings``
    gets the seconds spent decoding it."""
    prefix = _read_exactly(fd, 4)
    if prefix is None:
        return None
    frame = _read_exactly(fd, _LENGTH.unpack(prefix)[0])
    if frame is None:
        return None
    started = time.perf_counter()
    message = decode(frame)
    if timings is not None:
        timings["decode"] = time.perf_counter() - started
    return message
