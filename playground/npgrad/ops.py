"""``torch.ops``: ``torch.ops.<namespace>.<name>`` for the operators a script made with
``torch.library.custom_op`` (torch's own ``aten`` operators are not in the engine)."""

from __future__ import annotations

from ._missing import missing_attribute
from .library import OPERATORS, CustomOpDef


class OpOverloadPacket:
    """An operator by name: call it, or take its only overload, ``.default``."""

    def __init__(self, namespace: str, op: CustomOpDef) -> None:
        self._qualified = f"{namespace}.{op._name}"
        self._op = op

    @property
    def default(self) -> OpOverload:
        return OpOverload(self._qualified, self._op)

    def __call__(self, *args, **kwargs):
        return self._op(*args, **kwargs)

    def __repr__(self) -> str:
        return self._qualified


class OpOverload(OpOverloadPacket):
    """The operator's overload ``default``."""

    def __init__(self, qualified: str, op: CustomOpDef) -> None:
        self._qualified, self._op = qualified + ".default", op


class _OpNamespace:
    """The operators of one namespace."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, name: str) -> OpOverloadPacket:
        if name.startswith("__"):
            raise AttributeError(name)
        operators = OPERATORS.get(self._name, {})
        if name in operators:
            return OpOverloadPacket(self._name, operators[name])
        if not operators:  # aten, or a library the engine cannot load
            return missing_attribute(f"torch.ops.{self._name}")(name)
        raise AttributeError(f"'_OpNamespace' '{self._name}' object has no attribute '{name}'")


def __getattr__(name: str) -> _OpNamespace:
    if name.startswith("__"):
        raise AttributeError(f"module 'torch.ops' has no attribute {name!r}")
    return _OpNamespace(name)
