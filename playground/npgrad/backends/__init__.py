"""``torch.backends``: the switches scripts set for speed or reproducibility (cuDNN's
``deterministic`` and ``benchmark``, TF32) and the questions they ask (``mps.is_available()``).
The NumPy engine runs on the CPU alone: the switches are kept, read back and change nothing."""

from .._missing import missing_attribute
from . import cuda, cudnn, mkldnn, mps

__all__ = ["cuda", "cudnn", "mkldnn", "mps"]

__getattr__ = missing_attribute("torch.backends")
