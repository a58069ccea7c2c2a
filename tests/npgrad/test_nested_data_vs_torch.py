"""torch.tensor of nested data, against real torch: the shape read from the first elements,
the dtype by torch's promotion (NumPy scalars keep theirs), a tensor inside a list read as
one number, and torch's errors for ragged lists, stray values and numbers out of range."""

from __future__ import annotations

import numpy as np
import pytest

from playground.npgrad import _nested_data
from tests.oracle import SHOW, assert_playground_prints_as_torch

# Each case: an expression of data, and the dtypes it is made with (None: inferred).
CASES = {
    "[[4, 5], [6]]": (None, "torch.float64", "torch.uint8"),
    "[[4, 5], 6]": (None, "torch.float32"),
    "[7, [8, 9]]": (None, "torch.float32", "torch.bool", "torch.complex64"),
    "[[[1], [2]], [[3], [4, 5]]]": (None,),
    "[[0.5, 1.5], (2.5,)]": (None, "torch.int16"),
    "[[], [3]]": (None, "torch.int32"),
    "[[3], []]": (None,),
    "[[1, 2], None]": (None, "torch.float32", "torch.int64"),
    "[2, None]": (None, "torch.float64"),
    "[[1, 2], [3, 'x']]": (None, "torch.float32", "torch.int8"),
    "['ab']": (None,),
    "[b'ab']": (None,),
    "[{1: 2}]": (None,),
    "[object()]": (None,),
    "[torch.tensor([1, 2]), torch.tensor([3, 4])]": (None, "torch.float32", "torch.bool"),
    "[torch.tensor([1.5, 2.5]), torch.tensor([3.5, 4.5])]": (None, "torch.int64"),
    "[[torch.tensor([0.25])], [torch.tensor([0.75])]]": (None, "torch.float64", "torch.int32"),
    "[torch.ones(1, 1), 2 * torch.ones(1, 1)]": (None,),
    "[torch.tensor(2.5), 3]": (None, "torch.int64", "torch.bool"),
    "[torch.tensor(7), 1.5]": (None, "torch.float16"),
    "[torch.tensor([True]), torch.tensor([False])]": (None, "torch.float32", "torch.int64"),
    "[[1, 2], torch.tensor([3, 4])]": (None,),
    "[1, torch.tensor([2])]": (None,),
    "[torch.tensor(1.0, dtype=torch.float16), 0.5]": (None,),
    "[torch.tensor(3, dtype=torch.int32), 4]": (None,),
    "[torch.tensor(3, dtype=torch.int32), torch.tensor(4, dtype=torch.int8)]": (None,),
    "[torch.tensor(3, dtype=torch.uint8), -4]": (None,),
    "[torch.tensor(1.0, dtype=torch.float64), 2j]": (None,),
    "[2j, torch.tensor(1.0)]": (None,),
    "[np.float64(0.1), 2]": (None,),
    "[np.float32(0.1), 2]": (None, "torch.int64", "torch.bool", "torch.float64"),
    "[np.int32(5), 6]": (None,),
    "[np.float16(0.3), 6]": (None,),
    "[np.int8(5), True]": (None,),
    "[np.array([1, 2], dtype=np.int16), [3, 4]]": (None,),
    "[np.array([1, 2]), np.array([3])]": (None,),
    "[np.array(2), 3]": (None,),
    "[range(3), range(3)]": (None, "torch.float32"),
    "[[1, 2], range(2)]": (None,),
    "[[1, 2], {0: 5, 1: 6}]": (None, "torch.int64"),
    "[300, 2]": ("torch.uint8", "torch.int8", "torch.int16"),
    "[-1, -255]": ("torch.uint8",),
    "[-256]": ("torch.uint8",),
    "[2 ** 63 - 1, 0]": (None,),
    "[2 ** 63]": (None, "torch.float64", "torch.bool"),
    "[-2 ** 63 - 1]": (None,),
    "[float('nan'), 1.0]": (None, "torch.int64"),
    "[float('inf')]": ("torch.int32",),
    "[1e40, -1e40]": (None, "torch.float16", "torch.int64"),
    "[2.75, -2.75]": ("torch.int64", "torch.uint8", "torch.bool"),
    "[True, 2.5]": (None,),
    "[255.5]": ("torch.uint8",),
    "[-0.5, 1]": ("torch.uint8",),
    "[127.9]": ("torch.int8", "torch.int16"),
    "[2.0 ** 63]": ("torch.int64",),
    "[[1.5, 2.5], [3.5, 1e10]]": ("torch.int32",),
    "[np.float64(300.0)]": ("torch.uint8",),
    "[np.int64(300), np.int64(-1)]": ("torch.uint8", "torch.int64"),
    "[np.array([300]), np.array([-3])]": ("torch.uint8",),
    "[np.array([1.5, -1.5])]": ("torch.uint8", "torch.int64"),
    "[np.uint8(200), -1]": (None,),
}


def _script() -> str:
    lines = ["import warnings", "import numpy as np", "import torch", SHOW,
             "warnings.showwarning = lambda message, category, filename, line, *rest: "
             "print('warned', category.__name__, message, filename.endswith('script.py'))"]
    for data, made_with in CASES.items():
        for dtype in made_with:
            call = f"torch.tensor({data})" if dtype is None else \
                f"torch.tensor({data}, dtype={dtype})"
            lines.append(f"show({call!r}, lambda: (lambda t: (t.dtype, t.shape, t.tolist()))"
                         f"({call}))")
    for constructor in ("torch.Tensor", "torch.LongTensor", "torch.DoubleTensor"):
        for data in ("[[4, 5], [6]]", "[7, [8, 9]]", "[2, None]", "[torch.tensor([1, 2])]",
                     "[torch.tensor(2.5)]"):
            lines.append(f"show({constructor + data!r}, lambda: {constructor}({data}))")
    lines.append("show('self', lambda: (lambda a: (a.append(a), torch.tensor(a)))([1]))")
    lines.append("x = torch.tensor([0.5, 1.5], requires_grad=True)")
    lines.append("show('from a tensor that requires grad', lambda: torch.tensor([x[0], 2.0]))")
    return "\n".join(lines) + "\n"


def test_nested_data_is_read_as_torch_reads_it(tmp_path):
    assert_playground_prints_as_torch(_script(), tmp_path)


@pytest.mark.parametrize("data", [[[1.5, 2.5], [3.5, 4.5]], [[1, 2], [3, 4]], [True, False],
                                  [[[0.1]], [[0.2]]], [1 + 2j, 3.0]])
def test_numbers_alone_take_numpys_reading(data):
    """A box of plain numbers is read by NumPy at once (no element by element store), and
    the store reads it the same: the two ways agree."""
    dtype = _nested_data.inferred_dtype(data)
    values: list = []
    sizes = _nested_data.shape_of(data)
    _nested_data._store(data, sizes, 0, _nested_data._converter(dtype), values)
    stored = np.array(values, dtype=dtype.numpy).reshape(sizes)
    read = _nested_data.nested_array(data, dtype)
    assert read.dtype == stored.dtype and np.array_equal(read, stored)
