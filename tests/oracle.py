"""Running the same code on real torch and on npgrad, to compare what they print and compute."""

from __future__ import annotations

import builtins
import contextlib
import importlib
import io
import re
import warnings

import numpy as np

ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+>")


def normalize(text: str) -> str:
    """Object addresses differ between any two runs; everything else must be identical."""
    return ADDRESS.sub(" at 0xADDR>", text)


def _importer(torch_module):
    """An ``__import__`` under which ``import torch`` (and torch.nn...) means ``torch_module``."""
    real_import = builtins.__import__

    def import_(name, globals=None, locals=None, fromlist=(), level=0):
        if level == 0 and (name == "torch" or name.startswith("torch.")):
            target = torch_module.__name__ + name[len("torch"):]
            module = importlib.import_module(target)
            return module if fromlist else torch_module
        return real_import(name, globals, locals, fromlist, level)

    return import_


def run_printing(code: str, torch_module, extra: dict | None = None) -> str:
    """Execute ``code`` with ``torch`` bound to ``torch_module``; return what it printed."""
    namespace = {"torch": torch_module, "np": np, "__name__": "__main__",
                 "__builtins__": dict(vars(builtins), __import__=_importer(torch_module))}
    namespace.update(extra or {})
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exec(compile(code, "<tutorial>", "exec"), namespace)
    return normalize(buffer.getvalue())
