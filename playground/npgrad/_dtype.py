"""Torch-style dtypes over NumPy dtypes, and torch's type-promotion rules."""

from __future__ import annotations

import numpy as np

from ._bfloat16 import BFloat16Array, as_bfloat16

# Captured before this module rebinds float/int/bool to torch-style dtypes, as torch does.
builtins_float, builtins_int, builtins_bool = float, int, bool

_BOOL, _INT, _FLOAT, _COMPLEX = 0, 1, 2, 3


class dtype:
    """A tensor element type that prints and promotes like ``torch.dtype``."""

    __slots__ = ("name", "numpy", "category", "is_floating_point", "itemsize", "legacy_name")

    def __init__(self, name: str, numpy_dtype, category: int, legacy_name: str) -> None:
        self.name = name
        self.numpy = np.dtype(numpy_dtype)
        self.category = category
        self.is_floating_point = category == _FLOAT
        self.itemsize = self.numpy.itemsize
        self.legacy_name = legacy_name

    @property
    def is_complex(self) -> bool:
        return self.category == _COMPLEX

    def to_real(self) -> dtype:
        """The real dtype of a complex one's parts (itself for the others), as torch's."""
        return _REAL_OF.get(self, self)

    def to_complex(self) -> dtype:
        """The complex dtype whose parts are this floating dtype, as torch's."""
        if self.category == _COMPLEX:
            return self
        if self not in _COMPLEX_OF:
            raise RuntimeError(f"Unsupported dtype {self.name.capitalize()}")
        return _COMPLEX_OF[self]

    @property
    def is_signed(self) -> bool:
        return self.category != _BOOL

    def __repr__(self) -> str:
        return f"torch.{self.name}"

    def __reduce__(self):  # (by this module's function: the class prints as torch's)
        return _named, (self.name,)


def _named(name: str) -> dtype:
    return globals()[name]


class _Unbacked(dtype):
    """A dtype NumPy has no type for: this engine names, compares, promotes and describes it
    (``torch.finfo``); its tensors hold float32 arrays of its values (``_bfloat16``), which
    the factories, conversions and ops make. Asking for its NumPy type, where some other
    code would make an array of it, says that use is missing, with the way on (torch)."""

    __slots__ = ()

    def __init__(self, name: str, category: int, legacy_name: str, itemsize: int) -> None:
        self.name, self.category, self.legacy_name = name, category, legacy_name
        self.is_floating_point = category == _FLOAT
        self.itemsize = itemsize

    @property
    def numpy(self):
        raise NotImplementedError(
            f"this use of {self.name} tensors is not in the built-in NumPy engine (it makes them "
            f"with torch.tensor, the factories, .to and .{self.name}(), and computes with them "
            "through the ops); switch the engine to torch")


float16 = half = dtype("float16", np.float16, _FLOAT, "HalfTensor")
bfloat16 = _Unbacked("bfloat16", _FLOAT, "BFloat16Tensor", 2)
float32 = float = dtype("float32", np.float32, _FLOAT, "FloatTensor")
float64 = double = dtype("float64", np.float64, _FLOAT, "DoubleTensor")
uint8 = dtype("uint8", np.uint8, _INT, "ByteTensor")
int8 = dtype("int8", np.int8, _INT, "CharTensor")
int16 = short = dtype("int16", np.int16, _INT, "ShortTensor")
int32 = int = dtype("int32", np.int32, _INT, "IntTensor")
int64 = long = dtype("int64", np.int64, _INT, "LongTensor")
bool = dtype("bool", np.bool_, _BOOL, "BoolTensor")  # noqa: A001 - torch.bool
complex64 = cfloat = dtype("complex64", np.complex64, _COMPLEX, "ComplexFloatTensor")
complex128 = cdouble = dtype("complex128", np.complex128, _COMPLEX, "ComplexDoubleTensor")

ALL_DTYPES = (float16, float32, float64, uint8, int8, int16, int32, int64, bool, complex64,
              complex128)
_REAL_OF = {complex64: float32, complex128: float64}
_COMPLEX_OF = {float32: complex64, float64: complex128, bfloat16: complex64}
_BY_NUMPY = {d.numpy: d for d in ALL_DTYPES}


def holds_floats(storage) -> bool:
    """Whether a tensor's storage holds floating or complex values (bfloat16's are float32
    values): what may require grad, and what ``mean`` takes without a ``dtype``."""
    return storage.dtype.kind in "fc"


def bit_view(data: np.ndarray, target) -> np.ndarray:
    """``x.view(dtype)``: the same bits as ``target`` (a torch dtype). A bfloat16 tensor's
    bits are its float32 values' upper halves, so a view into or out of bfloat16 is a copy
    of them here (torch's shares the memory)."""
    if target is bfloat16:
        if data.__class__ is BFloat16Array:
            return data.view(BFloat16Array)
        halves = np.ascontiguousarray(data).view(np.uint16).astype(np.uint32)
        return (halves << np.uint32(16)).view(np.float32).view(BFloat16Array)
    if data.__class__ is BFloat16Array:
        halves = (data.view(np.ndarray).view(np.uint32) >> np.uint32(16)).astype(np.uint16)
        return np.ascontiguousarray(halves).view(target.numpy)
    return data.view(target.numpy)


def by_legacy_name(name: str) -> dtype:
    """The dtype of a legacy type's name (``DoubleTensor``, ``BFloat16Tensor``)."""
    return next(d for d in (*ALL_DTYPES, bfloat16) if d.legacy_name == name)


def storage_of(target: dtype) -> np.dtype:
    """The NumPy dtype a tensor of ``target`` holds its values in (bfloat16's: float32)."""
    return np.dtype(np.float32) if target is bfloat16 else np.dtype(target.numpy)


def values_as(data: np.ndarray, target: dtype, copy: bool = True) -> np.ndarray:
    """A tensor's values in ``target`` dtype, as torch converts them (into bfloat16: to
    float32, then rounded)."""
    if target is bfloat16:
        return as_bfloat16(data)
    return data.astype(target.numpy, copy=copy)


class _DefaultDtype:
    """Holds torch.get_default_dtype(); a class so no module global is rebound."""

    value = float32


def get_default_dtype() -> dtype:
    return _DefaultDtype.value


def set_default_dtype(d: dtype) -> None:
    if not isinstance(d, dtype) or not d.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    _DefaultDtype.value = d


# torch's ScalarType names of the dtypes, as its error messages give them
_SCALAR_TYPE_NAMES = {"float32": "Float", "float64": "Double", "float16": "Half",
                      "bfloat16": "BFloat16",
                      "int64": "Long", "int32": "Int", "int16": "Short", "int8": "Char",
                      "uint8": "Byte", "bool": "Bool", "complex64": "ComplexFloat",
                      "complex128": "ComplexDouble"}


def scalar_type_name(numpy_dtype) -> str:
    """torch's C++ ScalarType name of a dtype (``Float``, ``Long``; a float16's is Half)."""
    name = np.dtype(numpy_dtype).name
    return _SCALAR_TYPE_NAMES.get(name, name)


def from_numpy_dtype(numpy_dtype) -> dtype:
    """The torch dtype for a NumPy dtype (float64 arrays stay float64, as torch.from_numpy)."""
    try:
        return _BY_NUMPY[np.dtype(numpy_dtype)]
    except KeyError:
        raise TypeError(_unconvertible(numpy_dtype)) from None


def castable(source, target) -> bool:
    """Whether values of NumPy dtype ``source`` may be written into ``target`` (in place, out=):
    torch's rule, never to a lower kind (float to integer, complex to float, to bool); signed
    and unsigned integers are one kind (NumPy's same_kind refuses int16 into uint8)."""
    return from_numpy_dtype(source).category <= from_numpy_dtype(target).category


def _unconvertible(numpy_dtype) -> str:
    """torch's words for an array whose dtype it has no tensors of."""
    return (f"can't convert np.ndarray of type numpy.{np.dtype(numpy_dtype).type.__name__}. "
            "The only supported "
            "types are: float64, float32, float16, complex64, complex128, int64, int32, int16, "
            "int8, uint64, uint32, uint16, uint8, and bool.")


def to_dtype(d) -> dtype:
    """Accept a torch-style dtype, a NumPy dtype or a Python type."""
    if isinstance(d, dtype):
        return d
    if d is builtins_float:
        return get_default_dtype()
    if d is builtins_int:
        return int64
    if d is builtins_bool:
        return bool
    return from_numpy_dtype(d)


def promote_types(a: dtype, b: dtype) -> dtype:
    """torch.promote_types: the smallest dtype both fit in, floats winning over integers."""
    if a is b:
        return a
    if a.category != b.category:
        if _COMPLEX in (a.category, b.category):
            return _complex_promotion(a, b)
        return a if a.category > b.category else b
    if a.category == _COMPLEX:
        return a if a.itemsize >= b.itemsize else b
    if a.category == _FLOAT:
        if {a, b} == {float16, bfloat16}:  # (neither holds the other: float32 holds both)
            return float32
        return a if a.itemsize >= b.itemsize else b
    if a is uint8 or b is uint8:
        other = b if a is uint8 else a
        return int16 if other is int8 else other
    return a if a.itemsize >= b.itemsize else b


def _complex_promotion(a: dtype, b: dtype) -> dtype:
    """A complex dtype and a real one: complex, with parts as wide as the wider of the two
    (``float64`` and ``complex64`` make ``complex128``)."""
    complex_one, other = (a, b) if a.category == _COMPLEX else (b, a)
    if other.category == _FLOAT and other.itemsize > complex_one.to_real().itemsize:
        return other.to_complex()
    return complex_one


def scalar_category(value) -> int:
    if isinstance(value, builtins_bool | np.bool_):
        return _BOOL
    if isinstance(value, builtins_int | np.integer):
        return _INT
    if isinstance(value, complex | np.complexfloating):
        return _COMPLEX
    return _FLOAT


def default_for_category(category: int) -> dtype:
    if category == _COMPLEX:
        return get_default_dtype().to_complex()
    return (bool, int64, get_default_dtype())[category]


def result_type_scalar(tensor_dtype: dtype, value) -> dtype:
    """Dtype of ``tensor op python_scalar``: the scalar only matters when of a higher kind (a
    complex number makes a floating tensor's own complex dtype)."""
    category = scalar_category(value)
    if category > tensor_dtype.category:
        if category == _COMPLEX and tensor_dtype in _COMPLEX_OF:
            return tensor_dtype.to_complex()
        return default_for_category(category)
    return tensor_dtype


def result_type(a_dtype: dtype, a_ndim: int, b_dtype: dtype, b_ndim: int) -> dtype:
    """Dtype of ``a op b`` for two tensors: dimensioned tensors outrank 0-d ones of a kind."""
    if a_dtype is b_dtype:
        return a_dtype
    if (a_ndim == 0) == (b_ndim == 0):
        return promote_types(a_dtype, b_dtype)
    dimensioned, zero_dim = (a_dtype, b_dtype) if b_ndim == 0 else (b_dtype, a_dtype)
    if zero_dim.category > dimensioned.category:
        if zero_dim.category == _COMPLEX and dimensioned in _COMPLEX_OF:
            return dimensioned.to_complex()
        return zero_dim
    return dimensioned
