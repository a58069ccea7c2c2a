"""``torch._dynamo``, as code that uses torch.compile touches it: ``reset()``, its ``config``
flags, the marks for dynamic shapes and ``disable``; all of them leave the code to run as
written, the engine compiling nothing (``compiler.py``)."""

from __future__ import annotations

import types

from ._missing import missing_attribute
from .compiler import allow_in_graph, disable, is_compiling, reset  # noqa: F401 - torch's

# torch._dynamo.config's flags that scripts set or read (their torch 2.13 defaults); setting
# any other is taken, as nothing reads them
config = types.SimpleNamespace(cache_size_limit=8, recompile_limit=8,
                               accumulated_cache_size_limit=256, suppress_errors=False,
                               verbose=False, capture_scalar_outputs=False,
                               capture_dynamic_output_shape_ops=False,
                               automatic_dynamic_shapes=True, assume_static_by_default=True,
                               optimize_ddp=True)


def mark_dynamic(t, index, *, min=None, max=None) -> None:  # noqa: A002 - torch's names
    """A dimension torch.compile should not specialise on: nothing is compiled here."""


def maybe_mark_dynamic(t, index) -> None:
    """As mark_dynamic."""


def mark_static(t, index=None) -> None:
    """As mark_dynamic."""


__getattr__ = missing_attribute("torch._dynamo")
