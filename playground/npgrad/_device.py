"""``torch.device``: the CPU, where the NumPy engine computes, and ``meta``, the device of
tensors that have a shape and a dtype but no values (_meta.py)."""

from __future__ import annotations


class device:
    """``torch.device('cpu')`` or ``torch.device('meta')``; any other needs the torch engine."""

    __slots__ = ("type", "index")

    def __init__(self, spec="cpu", index: int | None = None) -> None:
        if isinstance(spec, device):
            spec, index = spec.type, spec.index
        kind, _, number = str(spec).partition(":")
        if kind not in ("cpu", "meta"):
            raise RuntimeError(
                f"The NumPy engine runs on the CPU only; device '{spec}' needs the torch engine."
            )
        self.type = kind
        self.index = int(number) if number else index

    def __repr__(self) -> str:
        return f"device(type='{self.type}')" if self.index is None else (
            f"device(type='{self.type}', index={self.index})")

    def __str__(self) -> str:
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __eq__(self, other) -> bool:
        if isinstance(other, str):
            other = device(other)
        return isinstance(other, device) and (self.type, self.index) == (other.type, other.index)

    def __hash__(self) -> int:
        return hash((self.type, self.index))


CPU = device("cpu")
META = device("meta")


def is_meta(spec) -> bool:
    """Whether ``spec`` (a device, a string, None for the default CPU) names the meta device;
    a device the engine does not have raises as torch.device would here."""
    return spec is not None and device(spec).type == "meta"
