"""ArrayData: a tensor's values as the model keeps them, summarised above a size limit."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

# Above this many elements only a summary (and the first elements) is kept.
FULL_VALUES_LIMIT = 4096
PREVIEW_ELEMENTS = 16


@dataclass
class ArrayData:
    """Shape, dtype name and values of an array; ``values`` is None when summarised."""

    shape: tuple[int, ...]
    dtype: str
    values: np.ndarray | None
    preview: list[float]
    minimum: float | None
    maximum: float | None
    mean: float | None

    @classmethod
    def from_array(cls, array: np.ndarray, dtype: str,
                   limit: int = FULL_VALUES_LIMIT) -> ArrayData:
        array = np.asarray(array)
        flat = array.reshape(-1)
        numeric = bool(flat.size) and flat.dtype.kind in "biuf"
        minimum, maximum, mean = _statistics(flat) if numeric else (None, None, None)
        return cls(
            shape=tuple(int(s) for s in array.shape),
            dtype=dtype,
            values=array.copy() if array.size <= limit else None,
            # Python ints and bools stay what they are: labels show 2, not 2.0
            preview=flat[:PREVIEW_ELEMENTS].tolist() if numeric else [],
            minimum=minimum, maximum=maximum, mean=mean,
        )

    @property
    def summarised(self) -> bool:
        return self.values is None

    def to_json(self, raw: bool = False) -> dict:
        """JSON-ready dict; with ``raw`` the values stay an ndarray (for the kernel's wire)."""
        values = self.values
        if values is not None and not raw:
            values = _jsonable(values.tolist())
        return {
            "shape": list(self.shape),
            "dtype": self.dtype,
            "values": values,
            "preview": _jsonable(self.preview),
            "min": _jsonable(self.minimum),
            "max": _jsonable(self.maximum),
            "mean": _jsonable(self.mean),
        }

    @classmethod
    def from_json(cls, data: dict) -> ArrayData:
        values = data["values"]
        if values is not None and not isinstance(values, np.ndarray):
            values = np.array(_from_jsonable(values)).reshape(tuple(data["shape"]))
        return cls(
            shape=tuple(data["shape"]),
            dtype=data["dtype"],
            values=values,
            preview=_from_jsonable(data["preview"]),
            minimum=_from_jsonable(data["min"]),
            maximum=_from_jsonable(data["max"]),
            mean=_from_jsonable(data["mean"]),
        )


def _statistics(flat: np.ndarray) -> tuple[float | None, float | None, float | None]:
    """Min, max and mean of the finite elements, without a float64 copy of the array (a
    10^7-element tensor of a script that ran out of memory must not need 80 MB more)."""
    if flat.dtype.kind == "b":
        flat = flat.view(np.uint8)  # same bytes, no copy: True is 1
    finite = np.isfinite(flat) if flat.dtype.kind == "f" else None
    if finite is not None and not finite.all():
        if not finite.any():
            return None, None, None
        return (float(np.min(flat, where=finite, initial=np.inf)),
                float(np.max(flat, where=finite, initial=-np.inf)),
                float(np.mean(flat, where=finite, dtype=np.float64)))
    return float(flat.min()), float(flat.max()), float(np.mean(flat, dtype=np.float64))


def format_number(value) -> str:
    """One element for a label: integer-valued floats as ``2.0``, ints as ``2``, else 4 digits."""
    if value is None:
        return "–"
    if isinstance(value, bool | int | np.integer | np.bool_):
        return str(value)
    value = float(value)
    if value != value or value in (float("inf"), float("-inf")):
        return str(value)
    if value == int(value) and abs(value) < 1e6:
        return f"{value:.1f}"
    return f"{value:.4g}"


_SPECIAL = {float("inf"): "inf", float("-inf"): "-inf"}


def _jsonable(value):
    """JSON has no inf/nan: they travel as the strings "inf", "-inf", "nan"."""
    if isinstance(value, list):
        return [_jsonable(v) for v in value]
    if isinstance(value, float):
        if value != value:
            return "nan"
        return _SPECIAL.get(value, value)
    return value


def _from_jsonable(value):
    if isinstance(value, list):
        return [_from_jsonable(v) for v in value]
    if isinstance(value, str) and value in ("inf", "-inf", "nan"):
        return float(value)
    return value
