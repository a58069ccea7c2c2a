"""torch's own vector math: where torch is installed, the MKL functions its CPU build computes
exp, log, sin, tanh, sqrt... with, taken from its library, so that their last bits are torch's.

torch 2.13's CPU kernels for these ops call MKL's VML (``vmsTanh``, ``vmdExp``... in its high
accuracy mode), whatever ATEN_CPU_CAPABILITY says; MKL's code is not public and is not
correctly rounded (float32 tanh: 0.1% of elements one bit off the nearest; sqrt too), so no
NumPy function gives its bits. torch's library exports them: this module loads it with ctypes
(``torch`` itself is never imported; the library takes some 0.2 s to load, once: at the first
call, or before it in a kernel's warm-up, ``preload``) and calls them through the C module's
vml_map (through ctypes where that is not built: some 4 µs more a call, a 2x2 tensor's whole
op). Without torch (or with PLAYGROUND_VML=off, or where the library has no VML: macOS's),
``vector_math`` answers None and the engine rounds once in float64 (_pointwise.rounded_once),
which agrees with MKL in 93-100% of elements."""

from __future__ import annotations

import ctypes
import importlib.machinery
import os
import sys
import threading
from collections.abc import Callable

import numpy as np

from . import _compiled

# The ops whose torch kernel is MKL's, by their name in MKL (measured on 2 x 10^5 samples of
# each, float32 and float64: every bit equal to torch's)
MKL_NAMES = {"exp": "Exp", "log": "Ln", "log10": "Log10", "log2": "Log2", "sqrt": "Sqrt",
             "sin": "Sin", "cos": "Cos", "tan": "Tan", "tanh": "Tanh", "asin": "Asin",
             "acos": "Acos", "atan": "Atan", "erf": "Erf", "erfc": "Erfc", "erfinv": "ErfInv"}
# torch's mode for every call (aten/src/ATen/cpu/vml.h): high accuracy, subnormals kept, no
# error handling
_MODE = 0x2 | 0x140000 | 0x100
_LARGEST_CALL = 2 ** 31 - 1  # MKL's LP64 interface counts elements in a C int
_LIBRARY_NAMES = {"linux": "libtorch_cpu.so", "win32": "torch_cpu.dll",
                  "darwin": "libtorch_cpu.dylib"}
_PREFIXES = {np.dtype(np.float32): "vms", np.dtype(np.float64): "vmd"}

_lock = threading.Lock()
# What has been loaded ("library", "functions", Sleef's addresses): filled in, never rebound,
# because a kernel reads the engine's module attributes by identity to tell whether a run
# changed the engine (kernel/fingerprint.py), and loading on first use is no change.
_loaded_once: dict = {}


def torch_library_path() -> str | None:
    """Where the installed torch keeps its CPU library, found without importing torch (in the
    NumPy engine's kernel ``torch`` names this engine, so the search skips sys.modules)."""
    spec = importlib.machinery.PathFinder.find_spec("torch")
    name = _LIBRARY_NAMES.get(sys.platform)
    if spec is None or not spec.submodule_search_locations or name is None:
        return None
    path = os.path.join(spec.submodule_search_locations[0], "lib", name)
    return path if os.path.exists(path) else None


def switched_off() -> bool:
    """PLAYGROUND_VML=off: the engine's own rounding, never torch's library."""
    return os.environ.get("PLAYGROUND_VML", "").lower() in ("off", "0", "no")


def _open_library():
    if switched_off():
        return None
    path = torch_library_path()
    if path is None:
        return None
    try:
        return ctypes.CDLL(path, handle=_loaded_without_the_gil(path))
    except OSError:
        return None


def _loaded_without_the_gil(path: str) -> int | None:
    """The library's handle, loaded by the C module with the GIL released (ctypes holds it
    for the 0.2 s: a load in the background would stop every other thread); None for ctypes
    to load it (no C module, or no dlopen: Windows)."""
    open_library = getattr(_compiled.kernels, "open_library", None)
    if open_library is None:
        return None
    try:
        return open_library(path)
    except NotImplementedError:
        return None


def preload() -> None:
    """Load torch's library and find its functions now (a kernel's warm-up, in the
    background): a script's first exp, tanh or matrix product took the 0.2 s otherwise."""
    _loaded()


def torch_library():
    """torch's CPU library (ctypes), loaded once; None where there is none to load."""
    if "library" not in _loaded_once:
        with _lock:
            if "library" not in _loaded_once:
                _loaded_once["library"] = _open_library()
    return _loaded_once["library"]


def _load() -> dict:
    """The VML functions by (op, dtype); empty where there are none to take."""
    library = torch_library()
    if library is None:
        return {}
    found = {}
    for op, mkl_name in MKL_NAMES.items():
        for dtype, prefix in _PREFIXES.items():
            function = getattr(library, prefix + mkl_name, None)
            if function is None:
                return {}  # (a build without MKL: none of them, not some)
            function.restype = None
            function.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64]
            found[op, dtype] = function, ctypes.cast(function, ctypes.c_void_p).value
    return found


def _loaded() -> dict:
    if "functions" not in _loaded_once:
        _loaded_once["one thread"] = _address("MKL_Set_Num_Threads_Local") or 0
        _loaded_once["functions"] = _load()
    return _loaded_once["functions"]


def available() -> bool:
    """Whether torch's VML is here to compute with (loads it, once)."""
    return bool(_loaded())


def vector_math(op: str, data: np.ndarray) -> np.ndarray | None:
    """``op`` of a float32 or float64 array as torch's CPU kernel computes it, in the array's
    layout; None where torch's VML is not here or the dtype is not one it takes."""
    found = _loaded().get((op, data.dtype))
    if found is None:
        return None
    flags = data.flags
    if flags.c_contiguous or flags.f_contiguous:
        return _dense_map(*found, data, flags.c_contiguous)
    # (torch copies such an operand into a buffer for VML too)
    result = np.empty_like(data)  # (laid out as the operand)
    result[...] = _dense_map(*found, np.ascontiguousarray(data), True)
    return result


def _dense_map(function, address: int, data: np.ndarray, in_order: bool) -> np.ndarray:
    """VML's ``function`` (at ``address``) of a C-contiguous (``in_order``) or else
    Fortran-contiguous array, in its layout: one call of the C module's vml_map, or ctypes'
    calls of at most a C int of elements each."""
    result = np.empty_like(data)
    kernels = _compiled.kernels
    one_thread = _loaded_once["one thread"]  # (MKL's OpenMP team left asleep: vml_map says why)
    if kernels is not None:  # (the C module's call: a fraction of ctypes' cost)
        if data.size:  # (the transpose of a Fortran-ordered one is C-ordered, as its result's)
            kernels.vml_map(address, _MODE, data.itemsize, data if in_order else data.T,
                            result if in_order else result.T, one_thread)
        return result
    source, target = data.ravel(order="K"), result.ravel(order="K")  # (views, memory order)
    set_threads = torch_library().MKL_Set_Num_Threads_Local if one_thread else None
    previous = set_threads(1) if set_threads else 0
    try:
        for start in range(0, source.size, _LARGEST_CALL):
            count = min(_LARGEST_CALL, source.size - start)
            function(count, source[start:].ctypes.data, target[start:].ctypes.data, _MODE)
    finally:
        if set_threads:
            set_threads(previous)
    return result


def torch_kernel(op: str, fallback: Callable) -> Callable:
    """``op`` on arrays as torch's CPU build computes it where its MKL functions are here
    (float32 and float64), else ``fallback``."""

    def on_arrays(data):
        if data.__class__ is np.ndarray:
            result = vector_math(op, data)
        elif isinstance(data, np.floating):  # (a formula's NumPy scalar)
            result = vector_math(op, np.asarray(data))
            result = None if result is None else result[()]
        else:
            result = None
        return fallback(data) if result is None else result

    on_arrays.__name__ = op
    return on_arrays


def _address(name: str) -> int | None:
    library = torch_library()
    function = None if library is None else getattr(library, name, None)
    return None if function is None else ctypes.cast(function, ctypes.c_void_p).value


def sleef_function(function: str, dtype: np.dtype) -> tuple[int, int] | None:
    """The address of torch's ``Sleef_<function>f8_u10`` (``d4`` for float64; 16 and 8 lanes
    under AVX-512) and the bytes of its vector; None where torch's kernels run their scalar
    code (ATEN_CPU_CAPABILITY=default), or torch, the C module or the dtype is not there."""

    if _compiled.kernels is None:
        return None
    key = (function, dtype.char, os.environ.get("ATEN_CPU_CAPABILITY"))
    if key not in _loaded_once:  # (reading the CPU's flags and the symbol: more than a call)
        _loaded_once[key] = _sleef_found(function, dtype)
    return _loaded_once[key]


def _sleef_found(function: str, dtype: np.dtype) -> tuple[int, int] | None:
    from ._kernel_exp import vector_floats

    lanes = vector_floats()
    if lanes == 1 or dtype.kind != "f" or \
            dtype.itemsize not in (4, 8):
        return None
    width, kind = (lanes, "f") if dtype.itemsize == 4 else (lanes // 2, "d")
    address = _address(f"Sleef_{function}{kind}{width}_u10")
    return None if address is None else (address, lanes * 4)


def _contiguous(data: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(data).reshape(data.shape)  # (a 0-d array stays 0-d)


def sleef_values(function: str, data: np.ndarray) -> np.ndarray | None:
    """``Vectorized<T>::<function>()`` of each element as torch's AVX2 or AVX-512 kernels
    compute it: Sleef's, from torch's library, through the C module's vector_map; None where
    that cannot be (``sleef_function``)."""

    found = sleef_function(function, data.dtype)
    if found is None:
        return None
    source = _contiguous(data)
    result = np.empty_like(source)
    _compiled.kernels.vector_map(*found, data.dtype.itemsize, source, result)
    return result


def sleef_binary(function: str, first: np.ndarray, second: np.ndarray) -> np.ndarray | None:
    """``Vectorized<T>::<function>(other)`` (pow) of each pair of elements of two arrays of one
    shape and dtype, as sleef_values of one."""

    found = sleef_function(function, first.dtype)
    if found is None or second.dtype != first.dtype:
        return None
    first = _contiguous(first)
    result = np.empty_like(first)
    _compiled.kernels.vector_map2(*found, first.dtype.itemsize, first, _contiguous(second),
                                  result)
    return result
