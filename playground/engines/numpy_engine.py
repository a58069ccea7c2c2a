"""The NumPy engine: user code's ``import torch`` (and torch.nn, torch.autograd) gets npgrad."""

from __future__ import annotations

import contextlib
import importlib
import importlib.abc
import importlib.machinery
import sys
from collections.abc import Iterator

ENGINE_PACKAGE = "playground.npgrad"


class _TorchAlias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds ``torch`` and ``torch.x.y`` as the engine's modules of the same name."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname != "torch" and not fullname.startswith("torch."):
            return None
        target_name = ENGINE_PACKAGE + fullname[len("torch"):]
        try:
            importlib.import_module(target_name)
        except ModuleNotFoundError:
            return None
        return importlib.machinery.ModuleSpec(fullname, self, is_package=True)

    def create_module(self, spec):
        return importlib.import_module(ENGINE_PACKAGE + spec.name[len("torch"):])

    def exec_module(self, module) -> None:
        """The engine module is already executed; nothing more to do."""


@contextlib.contextmanager
def torch_is_npgrad() -> Iterator[None]:
    """While active, ``import torch`` anywhere yields npgrad; real torch comes back after.

    Modules named ``torch*`` already imported are set aside and restored, so a process that
    also uses real torch (the tests do) sees no difference outside the block.
    """
    set_aside = {name: module for name, module in sys.modules.items()
                 if name == "torch" or name.startswith("torch.")}
    for name in set_aside:
        del sys.modules[name]
    finder = _TorchAlias()
    sys.meta_path.insert(0, finder)
    try:
        yield
    finally:
        sys.meta_path.remove(finder)
        for name in [n for n in sys.modules if n == "torch" or n.startswith("torch.")]:
            del sys.modules[name]
        sys.modules.update(set_aside)
