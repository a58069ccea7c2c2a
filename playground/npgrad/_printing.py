"""repr/str of tensors, character for character as torch prints them."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import numpy as np

from . import _dtype as dtypes
from ._forward import tangent_of


@dataclass
class PrintOptions:
    """torch's print options; one shared instance, as ``torch.set_printoptions`` changes it."""

    precision: int = 4
    threshold: float = 1000
    edgeitems: int = 3
    linewidth: int = 80
    sci_mode: bool | None = None


OPTIONS = PrintOptions()
_PROFILES = {
    "default": dict(precision=4, threshold=1000, edgeitems=3, linewidth=80),
    "short": dict(precision=2, threshold=1000, edgeitems=2, linewidth=80),
    "full": dict(precision=4, threshold=math.inf, edgeitems=3, linewidth=80),
}


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None,
                     profile=None, sci_mode=None) -> None:
    if profile is not None:
        for name, value in _PROFILES[profile].items():
            setattr(OPTIONS, name, value)
    for name, value in (("precision", precision), ("threshold", threshold),
                        ("edgeitems", edgeitems), ("linewidth", linewidth)):
        if value is not None:
            setattr(OPTIONS, name, value)
    OPTIONS.sci_mode = sci_mode


def get_printoptions() -> dict:
    return asdict(OPTIONS)


class _Formatter:
    """Chooses integer, fixed or scientific notation and a common width for all elements."""

    def __init__(self, values: np.ndarray) -> None:
        self.floating = values.dtype.kind == "f"
        self.int_mode = True
        self.sci_mode = False
        self.max_width = 1
        flat = values.reshape(-1)
        if not self.floating:
            for value in flat.tolist():
                self.max_width = max(self.max_width, len(str(value)))
            return
        finite = flat[np.isfinite(flat) & (flat != 0)]
        if finite.size == 0:
            return
        magnitudes = np.abs(finite).astype(np.float64)
        low, high = magnitudes.min(), magnitudes.max()
        self.int_mode = bool(np.all(finite == np.ceil(finite)))
        if OPTIONS.sci_mode is None:
            self.sci_mode = bool(high / low > 1000.0 or high > 1.0e8 or low < 1.0e-4)
        else:
            self.sci_mode = OPTIONS.sci_mode
        precision = OPTIONS.precision
        for value in finite.tolist():
            if self.sci_mode:
                width = len(f"{value:.{precision}e}")
            elif self.int_mode:
                width = len(f"{value:.0f}") + 1
            else:
                width = len(f"{value:.{precision}f}")
            self.max_width = max(self.max_width, width)

    def format(self, value) -> str:
        if self.floating:
            precision = OPTIONS.precision
            if self.sci_mode:
                text = f"{value:{self.max_width}.{precision}e}"
            elif self.int_mode:
                text = f"{value:.0f}"
                if not (math.isinf(value) or math.isnan(value)):
                    text += "."
            else:
                text = f"{value:.{precision}f}"
        else:
            text = str(value)
        return (self.max_width - len(text)) * " " + text


class _ComplexFormatter:
    """torch's pair of formatters for a complex tensor: the real parts' and the imaginary
    parts', each choosing its own notation and width; ``1.0000+2.0000j``."""

    def __init__(self, values: np.ndarray) -> None:
        self.real = _Formatter(values.real)
        self.imag = _Formatter(values.imag)
        # what a row's element takes besides ", ": both widths and the "j"
        self.max_width = self.real.max_width + self.imag.max_width + 1

    def format(self, value) -> str:
        real_text = self.real.format(value.real)
        imag_text = (self.imag.format(value.imag) + "j").lstrip()
        if imag_text[0] in "+-":  # a sign of its own: -0.5000j, -0.j
            return real_text + imag_text
        return real_text + "+" + imag_text


def formatter_for(values: np.ndarray):
    """The formatter torch picks for these values: a pair of them for complex ones."""
    return _ComplexFormatter(values) if values.dtype.kind == "c" else _Formatter(values)


def _summarized(values: np.ndarray) -> np.ndarray:
    """Just the edge items of every dimension: what the formatter measures when summarising."""
    edge = OPTIONS.edgeitems
    for axis in range(values.ndim):
        if values.shape[axis] > 2 * edge:
            keep = list(range(edge)) + list(range(values.shape[axis] - edge, values.shape[axis]))
            values = np.take(values, keep, axis=axis)
    return values


def _vector(values: np.ndarray, indent: int, summarize: bool, formatter: _Formatter) -> str:
    element_length = formatter.max_width + 2
    per_line = max(1, math.floor((OPTIONS.linewidth - indent) / element_length))
    edge = OPTIONS.edgeitems
    if summarize and values.shape[0] > 2 * edge:
        items = ([formatter.format(v) for v in values[:edge].tolist()] + [" ..."]
                 + [formatter.format(v) for v in values[-edge:].tolist()])
    else:
        items = [formatter.format(v) for v in values.tolist()]
    lines = [", ".join(items[i : i + per_line]) for i in range(0, len(items), per_line)]
    return "[" + ("," + "\n" + " " * (indent + 1)).join(lines) + "]"


def _nested(values: np.ndarray, indent: int, summarize: bool, formatter: _Formatter) -> str:
    """The nested-bracket body; recursion depth is the number of dimensions, never the size."""
    if values.ndim == 0:
        return formatter.format(values.item())
    if values.ndim == 1:
        return _vector(values, indent, summarize, formatter)
    edge = OPTIONS.edgeitems
    size = values.shape[0]
    if summarize and size > 2 * edge:
        rows = list(range(edge)) + [None] + list(range(size - edge, size))
    else:
        rows = list(range(size))
    parts = [
        "..." if row is None else _nested(values[row], indent + 1, summarize, formatter)
        for row in rows
    ]
    return "[" + ("," + "\n" * (values.ndim - 1) + " " * (indent + 1)).join(parts) + "]"


def _add_suffixes(text: str, suffixes: list[str], indent: int,
                  force_newline: bool = False) -> str:
    """torch's: each suffix after a comma, on a line of its own where the line would pass
    the line width (the first one always, with ``force_newline``: a sparse tensor's size)."""
    pieces = [text]
    last_line = len(text) - text.rfind("\n") + 1
    for suffix in suffixes:
        if force_newline or last_line + len(suffix) + 2 > OPTIONS.linewidth:
            force_newline = False
            pieces.append(",\n" + " " * indent + suffix)
            last_line = indent + len(suffix)
        else:
            pieces.append(", " + suffix)
            last_line += len(suffix) + 2
    pieces.append(")")
    return "".join(pieces)


def array_text(values: np.ndarray, indent: int) -> str:
    """``tensor(...)`` of an array without dtype or autograd suffixes, its rows aligned after
    ``indent`` columns of what precedes it (a sparse tensor's indices and values)."""
    if values.size == 0:
        return f"tensor([], size={tuple(values.shape)})"
    summarize = values.size > OPTIONS.threshold
    formatter = formatter_for(_summarized(values) if summarize else values)
    return "tensor(" + _nested(values, indent + len("tensor("), summarize, formatter) + ")"


def _default_dtypes() -> tuple:
    """The dtypes a repr leaves unsaid: the default float, its complex twin, int64, bool."""
    default = dtypes.get_default_dtype()
    twin = dtypes.complex128 if default is dtypes.float64 else dtypes.complex64
    return default, twin, dtypes.int64, dtypes.bool


def tensor_repr(tensor) -> str:
    from ._tensor import PLAIN_CLASSES, Parameter

    values = tensor._data
    kind = type(tensor)  # (a subclass of the user's prints under its own name)
    prefix = "tensor(" if kind in PLAIN_CLASSES else f"{kind.__name__}("
    indent = len(prefix)
    suffixes = []
    dtype = tensor.dtype
    if dtype is dtypes.bfloat16 and not tensor.is_meta:  # (torch prints them as float32 ones)
        values = values.view(np.ndarray)
    if tensor.is_meta:  # no values to show: where they are and their shape
        suffixes.append("device='meta'")
        suffixes.append("size=" + str(tuple(values.shape)))
        if dtype is not dtypes.get_default_dtype():
            suffixes.append("dtype=" + repr(dtype))
        body = "..."
    elif values.size == 0:
        if values.ndim != 1:
            suffixes.append("size=" + str(tuple(values.shape)))
        if dtype is not dtypes.get_default_dtype():
            suffixes.append("dtype=" + repr(dtype))
        body = "[]"
    else:
        if dtype not in _default_dtypes():
            suffixes.append("dtype=" + repr(dtype))
        summarize = values.size > OPTIONS.threshold
        formatter = formatter_for(_summarized(values) if summarize else values)
        body = _nested(values, indent, summarize, formatter)
    try:
        grad_fn = tensor.grad_fn
    except RuntimeError:  # a view made under no_grad whose base was written since
        grad_fn = "Invalid"
    if grad_fn is not None:
        name = grad_fn if grad_fn == "Invalid" else type(grad_fn).__name__
        if name == "CppFunction":  # (torch prints its name's last part)
            name = grad_fn.name().rsplit("::", 1)[-1]
        suffixes.append(f"grad_fn=<{name}>")
    elif tensor._rg:
        suffixes.append("requires_grad=True")
    tangent = tangent_of(tensor)
    if tangent is not None:
        suffixes.append(f"tangent={tangent}")  # format(): a 0-d tangent prints as a number
    if "_coo" in tensor.__dict__:
        from ._sparse import sparse_repr

        return sparse_repr(tensor, [s for s in suffixes if not s.startswith("dtype=")])
    if "_csr" in tensor.__dict__:
        from ._sparse_csr import csr_repr

        return csr_repr(tensor, [s for s in suffixes if not s.startswith("dtype=")])
    text = _add_suffixes(prefix + body, suffixes, indent)
    return "Parameter containing:\n" + text if isinstance(tensor, Parameter) else text
