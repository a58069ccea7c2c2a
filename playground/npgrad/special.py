"""``torch.special``: its names for the engine's functions (expit is sigmoid, gammaln is
lgamma, psi is digamma, multigammaln is mvlgamma...); what the engine lacks is said with the
module's name and what to do."""

from __future__ import annotations

import importlib

from ._missing import missing_attribute

# torch.special's name -> the engine's top-level function
_NAMES = {"expit": "sigmoid", "gammaln": "lgamma", "psi": "digamma", "gammainc": "igamma",
          "gammaincc": "igammac",
          "multigammaln": "mvlgamma", **{name: name for name in (
              "erf", "erfc", "exp2", "expm1", "log1p", "erfinv", "sinc", "logit", "digamma",
              "polygamma", "zeta", "xlogy", "log_softmax", "softmax", "logsumexp", "round")}}
_PACKAGE = __name__.rpartition(".")[0]  # (read now: the engine's torch alias renames modules)
_lacking = missing_attribute("torch.special")


# torch.special's own functions, loaded on first use (_special_functions.py)
_OWN = ("entr", "erfcx", "ndtr", "ndtri", "log_ndtr", "i0", "i0e", "i1", "i1e", "xlog1py")


# without derivatives (_bessel_functions.py)
_BESSEL = ("bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1", "modified_bessel_i0",
           "modified_bessel_i1", "modified_bessel_k0", "modified_bessel_k1",
           "scaled_modified_bessel_k0", "scaled_modified_bessel_k1", "spherical_bessel_j0")


def __getattr__(name: str):
    if name in _BESSEL:
        return getattr(importlib.import_module(f"{_PACKAGE}._bessel_functions"), name)
    if name in _NAMES:
        return getattr(importlib.import_module(_PACKAGE), _NAMES[name])
    if name in _OWN:
        return getattr(importlib.import_module(f"{_PACKAGE}._special_functions"), name)
    return _lacking(name)


__all__ = list(_NAMES) + list(_OWN) + list(_BESSEL)
