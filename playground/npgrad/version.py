"""``torch.version``: the torch the engine answers as (2.13.0, its release's commit), built for
the CPU alone: no CUDA, ROCm or XPU version, as an environment check prints them."""

from . import __version__  # noqa: F401 - torch.version.__version__, the same text

git_version = "cf30153c4c131c8164ee7798e5022d810682e2cb"
debug = False
cuda = hip = rocm = xpu = None
