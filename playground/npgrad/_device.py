"""``torch.device``: the CPU, where the NumPy engine computes, and ``meta``, the device of
tensors that have a shape and a dtype but no values (_meta.py)."""

from __future__ import annotations

# torch's device types: a device of any of them can be named (``torch.device("cuda", 0)``
# in code that picks one); only the CPU and the meta device can hold the engine's tensors
_KNOWN = ("cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve",
          "fpga", "maia", "xla", "lazy", "vulkan", "mps", "meta", "hpu", "mtia", "privateuseone")


class device:
    """``torch.device('cpu')``, ``torch.device('meta')``, or another of torch's devices,
    named but refused where a tensor would go there (``usable``). A context manager too, as
    torch's: tensors made inside go to it."""

    __slots__ = ("type", "index")

    def __init__(self, spec="cpu", index: int | None = None) -> None:
        if isinstance(spec, device):
            spec, index = spec.type, spec.index
        kind, _, number = str(spec).partition(":")
        if kind not in _KNOWN:
            raise RuntimeError(f"Expected one of {', '.join(_KNOWN)} device type at start of "
                               f"device string: {spec}")
        self.type = kind
        self.index = int(number) if number else index

    def __enter__(self) -> device:
        _OPEN.append(usable(self))
        return self

    def __exit__(self, *exception) -> None:
        _OPEN.pop()

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
_OPEN: list[device] = []  # the devices of the open ``with torch.device(...)`` blocks
_DEFAULT = [CPU]  # torch.set_default_device's
_SET = [False]  # whether set_default_device named one (even the CPU): torch keeps a mode then


def set_default(spec) -> None:
    _DEFAULT[0] = CPU if spec is None else usable(spec)
    _SET[0] = spec is not None


def mode_active() -> bool:
    """Whether torch would have a device's torch function mode on its stack now: inside a
    ``with torch.device(...)`` block, or after set_default_device named a device (then
    has_torch_function is True for any arguments, as torch's is)."""
    return bool(_OPEN) or _SET[0]


def default() -> device:
    """Where a factory called without ``device=`` puts its tensor."""
    return _OPEN[-1] if _OPEN else _DEFAULT[0]


def usable(spec) -> device:
    """The device ``spec`` names, if the engine's tensors can be there (the CPU, the meta
    device); another says what to do."""
    named = device(spec)
    if named.type not in ("cpu", "meta"):
        raise RuntimeError(f"device '{named}' is not in the built-in NumPy engine (it runs on "
                           "the CPU only); switch the engine to torch")
    return named


def is_meta(spec) -> bool:
    """Whether ``spec`` (a device, a string, None for the default CPU) names the meta device;
    a device the engine does not have says what to do."""
    return spec is not None and usable(spec).type == "meta"


def made_on_meta(spec) -> bool:
    """Whether a factory given ``device=spec`` makes a meta tensor (None: the default
    device, which a ``with torch.device('meta')`` block or set_default_device changes)."""
    return default().type == "meta" if spec is None else is_meta(spec)
