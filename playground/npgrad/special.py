"""``torch.special``: its names for the engine's functions (expit is sigmoid, gammaln is
lgamma, psi is digamma, multigammaln is mvlgamma...); what the engine lacks is said with the
module's name and what to do."""

from __future__ import annotations

import importlib

from ._missing import missing_attribute

# torch.special's name -> the engine's top-level function
_NAMES = {"expit": "sigmoid", "gammaln": "lgamma", "psi": "digamma",
          "multigammaln": "mvlgamma", **{name: name for name in (
              "erf", "erfc", "exp2", "expm1", "log1p", "erfinv", "sinc", "logit", "digamma",
              "polygamma", "zeta", "xlogy", "log_softmax", "softmax", "logsumexp", "round")}}
_PACKAGE = __name__.rpartition(".")[0]  # (read now: the engine's torch alias renames modules)
_lacking = missing_attribute("torch.special")


def __getattr__(name: str):
    if name in _NAMES:
        return getattr(importlib.import_module(_PACKAGE), _NAMES[name])
    return _lacking(name)


__all__ = list(_NAMES)
