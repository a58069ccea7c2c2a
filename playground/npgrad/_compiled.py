"""The optional C kernels (_kernels.c) where setup.py built a current one here, else None:
read at each use (``_compiled.kernels``), so that tests can set it to None and run the NumPy
twins that stand in for them."""

from __future__ import annotations

KERNELS_API = 13  # what the engine expects of _kernels.c (its module's API constant)


def _load():
    try:
        from playground.npgrad import _kernels
    except ImportError:  # no C compiler at install time: the NumPy twins do the same
        return None
    return _kernels if getattr(_kernels, "API", None) == KERNELS_API else None


kernels = _load()
