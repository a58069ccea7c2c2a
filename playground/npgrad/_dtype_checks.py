"""torch's refusals of operands whose dtypes differ where its kernels take one dtype (matrix
products, convolutions, normalizations, recurrent layers), in its words: NumPy would promote
them and answer where torch raises (``nn.Linear`` fed a float64 or an int64 batch); and of a
convolution window larger than its input (NumPy's words were its own); and of a max pool's
input of the wrong rank or empty past its batch."""

from __future__ import annotations

import numpy as np

from ._dtype import bfloat16, float16, float32, scalar_type_name

# torch's C++ type names (float, long int) of the dtypes
_C = {"float32": "float", "float64": "double", "float16": "c10::Half", "int64": "long int",
      "int32": "int", "int16": "short int", "int8": "signed char", "uint8": "unsigned char",
      "bool": "bool", "complex64": "c10::complex<float>", "complex128": "c10::complex<double>"}


def _scalar(tensor) -> str:
    return "BFloat16" if tensor.dtype is bfloat16 else scalar_type_name(tensor._data.dtype)


def c_type_name(numpy_dtype) -> str:
    """torch's C++ name of a dtype in its messages (``float``, ``long int``)."""
    name = np.dtype(numpy_dtype).name
    return _C.get(name, name)


def _c(tensor) -> str:
    return "c10::BFloat16" if tensor.dtype is bfloat16 else c_type_name(tensor._data.dtype)


def _differ(*tensors) -> bool:
    kinds = {tensor.dtype for tensor in tensors if tensor is not None}
    return len(kinds) > 1


def check_mm(a, b) -> None:
    if a.dtype is not b.dtype:
        raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: {_c(a)} != "
                           f"{_c(b)}")


def check_mv(matrix, vector) -> None:
    if matrix.dtype is not vector.dtype:  # (torch lists addmv's result, made as vec)
        raise RuntimeError("addmv input tensors must have the same dtype, but got "
                           f"{_scalar(vector)}, {_scalar(matrix)}, and {_scalar(vector)}")


def check_dot(a, b) -> None:
    if a.dtype is not b.dtype:
        raise RuntimeError("dot : expected both vectors to have same dtype, but found "
                           f"{_scalar(a)} and {_scalar(b)}")


def check_scalar_type(expected, found) -> None:
    """bmm's and the convolutions' words: the first operand's dtype is the one expected."""
    if expected.dtype is not found.dtype:
        raise RuntimeError(f"expected scalar type {_scalar(expected)} but found "
                           f"{_scalar(found)}")


def check_addmm(self, mat1, mat2) -> None:
    if mat1.dtype is not mat2.dtype:
        raise RuntimeError("mat1 and mat2 must have the same dtype, but got "
                           f"{_scalar(mat1)} and {_scalar(mat2)}")
    if self.dtype is not mat2.dtype:
        raise RuntimeError("self and mat2 must have the same dtype, but got "
                           f"{_scalar(self)} and {_scalar(mat2)}")


def check_baddbmm(self, batch1, batch2) -> None:
    if _differ(self, batch1, batch2):
        raise RuntimeError(f"Input dtypes must be the same, got: input {_c(self)}, batch1: "
                           f"{_c(batch1)}, batch2: {_c(batch2)}")


def check_convolution(input, weight, bias) -> None:
    if bias is not None and input.dtype is not bias.dtype:
        raise RuntimeError(f"Input type ({_c(input)}) and bias type ({_c(bias)}) should be "
                           "the same")
    check_scalar_type(input, weight)


def check_kernel_fits(sides, padding, kernel, dilation) -> None:
    """A convolution's window, dilated, no larger than the padded input (torch's words)."""
    padded = [side + 2 * pad for side, pad in zip(sides, padding, strict=True)]
    spans = [(size - 1) * step + 1 for size, step in zip(kernel, dilation, strict=True)]
    if any(span > side for span, side in zip(spans, padded, strict=True)):
        raise RuntimeError(f"Calculated padded input size per channel: "
                           f"({' x '.join(map(str, padded))}). Kernel size: "
                           f"({' x '.join(map(str, spans))}). Kernel size can't be greater "
                           "than actual input size")


def check_normalization(input, *parameters) -> None:
    """layer_norm's and batch_norm's CPU kernels: one dtype for the input and its
    parameters (and running statistics)."""
    if not _differ(input, *parameters):
        return
    if input.dtype in (bfloat16, float16) and {p.dtype for p in parameters if p is not None} \
            == {float32}:  # (torch's mixed types: a half or bfloat16 input, float parameters)
        return
    if input.dtype is float32 and not _differ(*parameters):
        raise RuntimeError("mixed dtype (CPU): expect parameter to have scalar type of Float")
    raise RuntimeError("mixed dtype (CPU): all inputs must share same datatype.")


def check_rnn(input, weight) -> None:
    """torch's checks of a recurrent layer's input: its features, then its dtype."""
    width = weight._data.shape[-1]
    if input._data.ndim and input._data.shape[-1] != width:
        raise RuntimeError(f"input.size(-1) must be equal to input_size. Expected {width}, got "
                           f"{input._data.shape[-1]}")
    if input.dtype is not weight.dtype:
        given, own = (f"torch.{t.dtype.name}" for t in (input, weight))
        raise ValueError(f"RNN input dtype ({given}) does not match weight dtype ({own}). "
                         f"Convert input: input.to({own}), or convert model: "
                         f"model.to({given})")


def check_max_pool_input(shape: tuple, sides: int, indices: bool = False) -> None:
    """torch's words for a max pool's input of the wrong rank or empty past its batch (its
    3-d kernel names dimension 0 whichever it is; its 1-d pool with indices is the 2-d one's
    and leaves emptiness to it)."""
    ranks, got = (sides + 1, sides + 2), list(shape)
    if sides == 1 and indices and len(shape) not in ranks:
        raise RuntimeError(f"Expected 2 to 3 dimensions, but got {len(shape)}-dimensional tensor "
                           f"for argument #1 'self' (while checking arguments for max_pool1d)")
    if sides == 1 and not indices and (len(shape) not in ranks or 0 in shape[-2:]):
        raise RuntimeError(f"max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 "
                           f"dim batch size for input, but got:{got}")
    if sides == 1:
        return
    if len(shape) not in ranks:
        raise RuntimeError(f"non-empty {ranks[0]}D or {ranks[1]}D (batch mode) tensor expected "
                           f"for input")
    if 0 not in shape[-sides - 1:]:
        return
    if sides == 2:
        raise RuntimeError(f"Expected 3D or 4D (batch mode) tensor with optional 0 dim batch "
                           f"size for input, but got:{got}")
    raise RuntimeError(f"max_pool3d_with_indices_out_cpu_template(): Expected input's non-batch "
                       f"dimensions to have positive length, but input has a shape of {got} and "
                       f"non-batch dimension 0 has length zero!")
