"""The engines the app offers, by name: what the window's boxes, the kernel and the CLI list.

Adding an engine is one module with an ``Engine`` subclass and one ``register`` line below;
nothing else names engines. Classes are imported only when an engine is made (torch: seconds).
"""

from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass


@dataclass(frozen=True)
class EngineEntry:
    """An engine as the app lists it; ``load`` makes one (in the kernel process)."""

    name: str                  # "torch": settings, the CLI's --engine, the kernel's argument
    label: str                 # "Torch": the toolbar's toggle
    noun: str                  # "torch": in sentences ("Starting the torch engine…")
    module: str                # where its Engine subclass lives, imported when made
    class_name: str
    devices: tuple[str, ...] = ("auto",)  # more than one: the device box applies to it
    requires: str = ""  # the package it runs on ("torch"), if it is not the app's own

    @property
    def has_devices(self) -> bool:
        return len(self.devices) > 1

    @property
    def installed(self) -> bool:
        """Whether the package it needs can be imported here (looked up, not imported)."""
        return not self.requires or importlib.util.find_spec(self.requires) is not None

    def load(self, device: str = "auto"):
        engine_class = getattr(importlib.import_module(self.module), self.class_name)
        return engine_class(device) if self.has_devices else engine_class()


ENGINES: dict[str, EngineEntry] = {}


def register(entry: EngineEntry) -> None:
    ENGINES[entry.name] = entry


def entry(name: str) -> EngineEntry:
    """The registered engine called ``name``; the default one for a name nobody registered
    (a settings file from another version)."""
    return ENGINES.get(name, ENGINES[DEFAULT_ENGINE])


DEFAULT_ENGINE = "numpy"
register(EngineEntry("numpy", "NumPy", "NumPy", "playground.engines.numpy_engine",
                     "NumpyEngine"))
register(EngineEntry("torch", "Torch", "torch", "playground.engines.torch_engine",
                     "TorchEngine", devices=("auto", "cpu", "cuda"), requires="torch"))
