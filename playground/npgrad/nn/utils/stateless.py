"""``torch.nn.utils.stateless``: functional_call from before torch.func, deprecated."""

from __future__ import annotations

import warnings

from ..._missing import missing_attribute

DEPRECATED = ("`torch.nn.utils.stateless.functional_call` is deprecated as of PyTorch 2.0 and "
              "will be removed in a future version of PyTorch. Please use "
              "`torch.func.functional_call` instead which is a drop-in replacement.")


def functional_call(module, parameters_and_buffers, args=None, kwargs=None, *,
                    tie_weights: bool = True, strict: bool = False):
    """torch.func.functional_call, with torch's FutureWarning."""
    from ...func import functional_call as current

    warnings.warn(DEPRECATED, FutureWarning, stacklevel=2)
    return current(module, parameters_and_buffers, () if args is None else args, kwargs,
                   tie_weights=tie_weights, strict=strict)


__getattr__ = missing_attribute("torch.nn.utils.stateless")
