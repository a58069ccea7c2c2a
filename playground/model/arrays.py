"""ArrayData: a tensor's values as the model keeps them, summarised above a size limit."""

from __future__ import annotations

import functools
import math
import sys
from dataclasses import dataclass, fields
from typing import ClassVar

import numpy as np


@functools.cache  # (read at every record a file's dict makes)
def json_keys(record: type) -> tuple[str, ...]:
    """The keys of a model record's JSON: its dataclass fields, in order, under the names its
    ``JSON_NAMES`` gives some of them. The reply decoder recognises records by them, and a
    test holds every record's ``to_json``/``from_json`` to them.

    On the kernel's wire (``to_json(raw=True)``) a record that a result holds many of is
    ``{WIRE_TAG: [its fields' values, in this order]}`` instead: its keys, repeated in each
    of a 300-node graph's nodes, arrays and edges, were 40% of the reply's JSON, and
    encoding and decoding them a millisecond each."""
    names = getattr(record, "JSON_NAMES", {})
    return tuple(names.get(item.name, item.name) for item in fields(record))


def read_record(record: type, data, optional: frozenset = frozenset()):
    """``record`` (a class with ``WIRE_TAG`` and ``from_wire``) from its JSON in either form,
    a file's dict or the wire's tagged list, or ``data`` itself where the reply decoder made
    it already. A dict lacking a key is a KeyError, unless the key is ``optional`` (a field
    an older file lacks: None)."""
    if isinstance(data, record):
        return data
    if record.WIRE_TAG in data:
        return record.from_wire(data[record.WIRE_TAG])
    return record.from_wire([data.get(key) if key in optional else data[key]
                             for key in json_keys(record)])


def optional_array(data) -> ArrayData | None:
    """An array's record from its JSON (either form), itself, or None."""
    return data if data is None or data.__class__ is ArrayData else ArrayData.from_json(data)


# Above this many elements only a summary (and the first elements) is kept.
FULL_VALUES_LIMIT = 4096
PREVIEW_ELEMENTS = 16


@dataclass(slots=True)  # a large run holds 10^5 of them: no __dict__ each
class ArrayData:
    """Shape, dtype name and values of an array; ``values`` is None when summarised. Only a
    summary keeps min, max and mean: a whole array has its values, and working them out for
    each of a run's arrays was half of building a 26-layer network's graph
    (``statistics()`` has them for either)."""

    JSON_NAMES: ClassVar[dict[str, str]] = {"minimum": "min", "maximum": "max"}
    WIRE_TAG: ClassVar[str] = "$A"  # on the wire: {"$A": [shape, dtype, values, ...]}

    shape: tuple[int, ...]
    dtype: str
    values: np.ndarray | None
    preview: list[float]
    minimum: float | None
    maximum: float | None
    mean: float | None

    @classmethod
    def from_array(cls, array: np.ndarray, dtype: str, limit: int = FULL_VALUES_LIMIT,
                   owned: bool = False, preview: int = PREVIEW_ELEMENTS) -> ArrayData:
        """``owned``: the array is a copy nobody else changes, kept as it is; ``preview``:
        how many first elements a summary keeps."""
        array = np.asarray(array)
        flat = array.reshape(-1)
        numeric = bool(flat.size) and flat.dtype.kind in "biuf"
        whole = array.size <= limit
        minimum, maximum, mean = _statistics(flat) if numeric and not whole else (None,) * 3
        return cls(
            shape=tuple(int(s) for s in array.shape),
            dtype=dtype,
            values=(array if owned else array.copy()) if whole else None,
            preview=_preview(flat, preview) if numeric else [],
            minimum=minimum, maximum=maximum, mean=mean,
        )

    def statistics(self) -> tuple[float | None, float | None, float | None]:
        """Min, max and mean of the finite elements: a summary's, or worked out from the
        values (None each when there are none to tell)."""
        values = self.values
        if values is None or not values.size or values.dtype.kind not in "biuf":
            return self.minimum, self.maximum, self.mean
        return _statistics(values.reshape(-1))

    @property
    def summarised(self) -> bool:
        return self.values is None

    @property
    def size(self) -> int:
        """Its elements, as NumPy counts them (1 for a scalar)."""
        return math.prod(self.shape)

    def to_json(self, raw: bool = False) -> dict:
        """JSON-ready dict; with ``raw``, the wire's form (json_keys): the values stay an
        ndarray, and the preview, which the values hold, is left out (it was 3/4 of a reply's
        JSON)."""
        values = self.values
        if raw:  # (a file has the statistics of every array; the wire, a summary's alone)
            return {self.WIRE_TAG: [
                list(self.shape), self.dtype, values,
                _jsonable(self.preview) if values is None else None,
                _jsonable(self.minimum), _jsonable(self.maximum), _jsonable(self.mean)]}
        minimum, maximum, mean = self.statistics()
        if values is not None:
            values = _jsonable(values.tolist())
        return {"shape": list(self.shape), "dtype": self.dtype, "values": values,
                "min": _jsonable(minimum), "max": _jsonable(maximum), "mean": _jsonable(mean),
                "preview": _jsonable(self.preview)}

    @classmethod
    def from_json(cls, data: dict | ArrayData) -> ArrayData:
        return read_record(cls, data, _PREVIEW)

    @classmethod
    def from_wire(cls, items: list) -> ArrayData:
        shape, dtype, values, preview, minimum, maximum, mean = items
        if values is not None and not isinstance(values, np.ndarray):
            values = np.array(_from_jsonable(values)).reshape(tuple(shape))
        return cls(
            shape=tuple(shape),
            dtype=shared(dtype),
            values=values,
            preview=_from_jsonable(preview) if preview is not None else _preview(values),
            minimum=_from_jsonable(minimum),
            maximum=_from_jsonable(maximum),
            mean=_from_jsonable(mean),
        )


_PREVIEW = frozenset({"preview"})  # what a dict may lack: worked out from the values


def _preview(values: np.ndarray | None, length: int = PREVIEW_ELEMENTS) -> list:
    """The first elements, for labels; Python ints and bools stay what they are (labels show
    2, not 2.0); none for what is not a plain number (complex, or no values)."""
    if values is None or values.dtype.kind not in "biuf":
        return []
    return values.reshape(-1)[:length].tolist()


def shared(text: str | None) -> str | None:
    """One string object for each text that repeats through a large result (dtypes, labels,
    node ids in edges and steps): a decoded 10^5-node graph held 10^6 copies."""
    return None if text is None else sys.intern(text)


# Up to this many floats, the statistics are worked out in Python: NumPy's four reductions
# have a fixed cost per call that a few elements never repay, and the player records a
# few small gradients per step.
# (Below 8 elements NumPy sums one after another, as sum() does: the same mean, bit for bit.)
SMALL_FLOATS = 7
_INFINITIES = (float("inf"), float("-inf"))


def _statistics(flat: np.ndarray) -> tuple[float | None, float | None, float | None]:
    """Min, max and mean of the finite elements, without a float64 copy of the array (a
    10^7-element tensor of a script that ran out of memory must not need 80 MB more)."""
    if flat.size <= SMALL_FLOATS and flat.dtype.kind == "f":
        finite = [value for value in flat.tolist()
                  if value == value and value not in _INFINITIES]
        if not finite:
            return None, None, None
        return min(finite), max(finite), sum(finite) / len(finite)
    if flat.dtype.kind == "b":
        flat = flat.view(np.uint8)  # same bytes, no copy: True is 1
    low, high = float(flat.min()), float(flat.max())
    if -math.inf < low and high < math.inf:  # (a NaN anywhere makes both NaN): all finite
        return low, high, float(np.mean(flat, dtype=np.float64))
    finite = np.isfinite(flat)  # (floats alone get here)
    if not finite.any():
        return None, None, None
    return (float(np.min(flat, where=finite, initial=np.inf)),
            float(np.max(flat, where=finite, initial=-np.inf)),
            float(np.mean(flat, where=finite, dtype=np.float64)))


def format_number(value) -> str:
    """One element for a label: integer-valued floats as ``2.0``, ints as ``2``, else 4 digits."""
    if value.__class__ is float:  # what labels mostly show: a graph's labels at every run
        return _float_text(value)
    if value is None:
        return "–"
    if isinstance(value, bool | int | np.integer | np.bool_):
        return str(value)
    if isinstance(value, complex | np.complexfloating):
        imag = float(value.imag)
        sign = "-" if imag < 0 or (imag == 0 and math.copysign(1, imag) < 0) else "+"
        return f"{format_number(value.real)}{sign}{format_number(abs(imag))}j"
    return _float_text(float(value))


def _float_text(value: float) -> str:
    if value != value or value in (float("inf"), float("-inf")):
        return str(value)
    if value == int(value) and abs(value) < 1e6:
        return f"{value:.1f}"
    return f"{value:.4g}"


_SPECIAL = {float("inf"): "inf", float("-inf"): "-inf"}


def _jsonable(value):
    """JSON has no inf/nan: they travel as the strings "inf", "-inf", "nan"; nor complex
    numbers: an element ``1+2j`` travels as ``{"real": 1.0, "imag": 2.0}``."""
    if isinstance(value, list):
        return [_jsonable(v) for v in value]
    if isinstance(value, complex):
        return {"real": _jsonable(value.real), "imag": _jsonable(value.imag)}
    if isinstance(value, float):
        if value != value:
            return "nan"
        return _SPECIAL.get(value, value)
    return value


def _from_jsonable(value):
    if isinstance(value, list):
        return [_from_jsonable(v) for v in value]
    if isinstance(value, dict) and value.keys() == {"real", "imag"}:
        return complex(_from_jsonable(value["real"]), _from_jsonable(value["imag"]))
    if isinstance(value, str) and value in ("inf", "-inf", "nan"):
        return float(value)
    return value


# The value-vs-gradient plots: the first PLOTTED_TENSORS tensors with a gradient are plotted;
# up to SCATTER_LIMIT elements each point is sent, above it a density of all points.
PLOTTED_TENSORS = 12
SCATTER_LIMIT = 10_000
DENSITY_BINS = 160
_MAX_BINS = 1024  # what a density from the kernel may hold (it is untrusted data)


@dataclass
class PointDensity:
    """How many (value, gradient) points of a large tensor fall in each cell of a grid.

    ``counts[row, column]``: row along the gradient (y), column along the value (x), over
    ``x_range`` and ``y_range``; ``points`` is every finite pair, ``skipped`` the pairs with
    an inf or nan (not drawn)."""

    counts: np.ndarray
    x_range: tuple[float, float]
    y_range: tuple[float, float]
    points: int
    skipped: int = 0

    @classmethod
    def of(cls, values: np.ndarray, grads: np.ndarray, bins: int = DENSITY_BINS) -> PointDensity:
        """The density of all pairs (values[i], grads[i]); float32 arithmetic, no float64 copy."""
        x = np.asarray(values).reshape(-1)
        y = np.asarray(grads).reshape(-1)
        count = min(x.size, y.size)
        x, y = x[:count], y[:count]
        if x.dtype.kind != "f" or x.dtype.itemsize < 4:
            x = x.astype(np.float32)
        if y.dtype.kind != "f" or y.dtype.itemsize < 4:
            y = y.astype(np.float32)
        finite = np.isfinite(x) & np.isfinite(y)
        skipped = int(count - np.count_nonzero(finite))
        if skipped:
            x, y = x[finite], y[finite]
        if not x.size:
            return cls(np.zeros((bins, bins), np.uint32), (0.0, 1.0), (0.0, 1.0), 0, skipped)
        x_range, y_range = _span(x), _span(y)
        columns = _bin(x, x_range, bins)
        rows = _bin(y, y_range, bins)
        rows *= bins
        rows += columns
        counts = np.bincount(rows, minlength=bins * bins).astype(np.uint32)
        return cls(counts.reshape(bins, bins), x_range, y_range, int(x.size), skipped)

    def to_json(self, raw: bool = False) -> dict:
        return {"counts": self.counts if raw else self.counts.tolist(),
                "x_range": list(self.x_range), "y_range": list(self.y_range),
                "points": self.points, "skipped": self.skipped}

    @classmethod
    def from_json(cls, data: dict) -> PointDensity:
        """Checked: a grid of non-negative counts no larger than _MAX_BINS a side."""
        counts = np.asarray(data["counts"])
        if counts.ndim != 2 or counts.dtype.kind not in "iu" or \
                max(counts.shape) > _MAX_BINS or (counts.size and counts.min() < 0):
            raise ValueError("a point density must be a 2-D grid of counts")
        x_range = tuple(float(v) for v in data["x_range"])
        y_range = tuple(float(v) for v in data["y_range"])
        if len(x_range) != 2 or len(y_range) != 2:
            raise ValueError("a point density's ranges are two numbers each")
        return cls(counts.astype(np.uint32), x_range, y_range, int(data["points"]),
                   int(data.get("skipped", 0)))


def _span(values: np.ndarray) -> tuple[float, float]:
    low, high = float(values.min()), float(values.max())
    if high <= low:  # all equal: a band around the value, so the points sit in the middle
        pad = max(abs(low) * 0.05, 0.5)
        return low - pad, high + pad
    return low, high


def _bin(values: np.ndarray, span: tuple[float, float], bins: int) -> np.ndarray:
    """The bin of each value; the last bin holds the maximum."""
    low, high = span
    scale = np.float32(bins / (high - low))
    index = ((values - np.float32(low)) * scale).astype(np.int64)
    np.clip(index, 0, bins - 1, out=index)
    return index
