"""The transposed convolution of volumes, as 3-D U-Nets and video decoders upsample with it:
F.conv_transpose3d and nn.ConvTranspose3d, torch's ConvolutionBackward0 (and its
ConvolutionBackwardBackward0: each derivative is a convolution or its weight gradient)."""

from __future__ import annotations

import numpy as np

from .. import _convolution, _recording, _volumes
from .._autocast import lower_precision
from .._dtype_checks import check_convolution
from .._formula_kit import Kit
from .._tensor import Tensor
from .convolution import ConvTranspose2d, _check_transposed, transposed_grad
from .volumes import _unbatched

triple = _volumes.triple


@lower_precision
def conv_transpose3d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride=1,
                     padding=0, output_padding=0, groups: int = 1, dilation=1) -> Tensor:
    """The transposed convolution of an (N, C_in, D, H, W) volume by (C_in, C_out / groups,
    KD, KH, KW) filters: each input spreads its filter over the output (conv3d's input
    gradient)."""
    if input.dim() == 4:
        return _unbatched(conv_transpose3d, input, weight, bias, stride, padding,
                          output_padding, groups, dilation)
    check_convolution(input, weight, bias)
    stride, padding = triple(stride), triple(padding)
    output_padding, dilation = triple(output_padding), triple(dilation)
    _check_transposed(input, weight, groups)
    data, filters = input._data, weight._data.astype(input._data.dtype)
    size = _convolution.transposed_size(data.shape, filters.shape, stride, padding,
                                        output_padding, dilation)
    shape = (data.shape[0], filters.shape[1] * groups, *size)
    result = _volumes.conv3d_input_grad(data, shape, filters, stride, padding, dilation, groups)
    if bias is not None:
        result = result + bias._data.reshape(1, -1, 1, 1, 1)
    return _recording.output("conv_transpose3d", np.ascontiguousarray(result, data.dtype),
                             (input, weight, bias),
                             (input, weight, stride, padding, dilation, groups))


def conv_transpose3d_grad(k, grad, input, weight, stride, padding, dilation, groups,
                          which: int):
    """conv_transpose3d's ConvolutionBackward0: transposed_grad with volume kernels."""
    return transposed_grad(k, grad, input, weight, which, 3,
                           (_volumes.conv3d, _volumes.conv3d_weight_grad),
                           (stride, padding, dilation, groups))


class ConvTranspose3d(ConvTranspose2d):
    """The 3-D transposed convolution's layer: (C_in, C_out / groups, KD, KH, KW) filters,
    initialised as torch initialises them."""

    sizes = staticmethod(triple)

    def forward(self, input: Tensor) -> Tensor:
        return conv_transpose3d(input, self.weight, self.bias, self.stride, self.padding,
                                self.output_padding, self.groups, self.dilation)


Kit.conv_transpose3d_grad = conv_transpose3d_grad

FUNCTIONS = ("conv_transpose3d",)
MODULES = ("ConvTranspose3d",)
