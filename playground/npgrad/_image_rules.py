"""The derivative table's rows for images: convolutions (grouped too), pooling, resizing,
padding and patches, with what their create_graph backwards record (the table's ``_row`` is
passed in: _rules.py adds these to its own)."""

from __future__ import annotations


def _padding_rows(row) -> tuple:
    """Reflect and replicate padding of 1 to 3 dimensions, and what their create_graph
    backwards record (each pads the incoming gradient again)."""
    rows = []
    for op, node, mode in (("reflection_pad", "ReflectionPad", "reflect"),
                           ("replication_pad", "ReplicationPad", "replicate")):
        for dims in (1, 2, 3):
            rows.append(row(f"{op}{dims}d", f"{node}{dims}DBackward0", "self", "shape sources",
                            f"k.unpad_by_mode(grad, shape, sources, '{mode}', {dims})"))
            rows.append(row(f"{op}{dims}d_backward", f"{node}{dims}DBackwardBackward0",
                            "grad_output", "sources", f"k.repad(grad, sources, '{mode}', {dims})"))
    return tuple(rows)


_CONV3D = "stride padding dilation groups"
# a sequence's resampling ops and their node names
_UPSAMPLED_1D = (("nearest", "Nearest"), ("nearest_exact", "NearestExact"), ("linear", "Linear"))
_ANTIALIASED = (("bilinear", "Bilinear"), ("bicubic", "Bicubic"))  # F.interpolate(antialias=)
_UPSAMPLED_3D = (("nearest", "Nearest"), ("nearest_exact", "NearestExact"),
                 ("trilinear", "Trilinear"))


def _volume_rows(row) -> tuple:
    """nn/volumes.py's: a volume's convolution (differentiable twice, as conv1d's) and
    pooling."""
    return (
        row("conv3d", "ConvolutionBackward0", "input weight bias", f"input weight {_CONV3D}",
            *(f"k.conv3d_grad(grad, input, weight, {_CONV3D.replace(' ', ', ')}, {which})"
              for which in range(3))),
        row("conv3d_input_backward", "ConvolutionBackwardBackward0", "grad_output input weight",
            f"grad_output weight {_CONV3D}",
            "k.conv3d_forward(grad, weight, stride, padding, dilation, groups)", "None",
            "k.conv3d_grad(grad_output, grad, weight, stride, padding, dilation, groups, 1)"),
        row("conv3d_weight_backward", "ConvolutionBackwardBackward0", "grad_output input weight",
            f"grad_output input {_CONV3D}",
            "k.conv3d_forward(input, grad, stride, padding, dilation, groups)",
            "k.conv3d_grad(grad_output, input, grad, stride, padding, dilation, groups, 0)",
            "None"),
        row("max_pool3d", "MaxPool3DWithIndicesBackward0", "self", "self shape indices",
            "k.max_scatter(grad, self, shape, indices, 3, 'max_pool3d_backward')"),
        *(row(op, f"{node}Backward0", "self", "self shape windows",
              f"k.average_spread(grad, self, shape, windows, '{op}')")
          for op, node in (("avg_pool3d", "AvgPool3D"),
                           ("adaptive_avg_pool3d", "AdaptiveAvgPool3D"))),
        *(row(f"{op}_backward", f"{node}BackwardBackward0", "grad_output self",
              "windows shape op", "k.average_pool(grad, windows, shape, op)",
              "k._zeros(grad, grad.shape)")
          for op, node in (("avg_pool3d", "AvgPool3D"),
                           ("adaptive_avg_pool3d", "AdaptiveAvgPool3D"))),
    )


def image_rows(row) -> tuple:
    return _padding_rows(row) + (
        row("conv2d", "ConvolutionBackward0", "input weight bias",
             "input weight stride padding dilation groups",
             "k.conv2d_input(grad, input, weight, stride, padding, dilation, groups)",
             "k.conv2d_weight(grad, input, weight, stride, padding, dilation, groups)",
             "k.conv_bias(grad, input, weight)"),
        row("convolution_bias_backward", "ConvolutionBackwardBackward0",
            "grad_output input weight", "shape", "k.channel_spread(grad, shape)", "None",
            "None"),
        row("conv1d", "ConvolutionBackward0", "input weight bias",
            "input weight stride padding dilation groups",
            *(f"k.conv1d_grad(grad, input, weight, stride, padding, dilation, groups, {which})"
              for which in range(3))),
        # a 1-d convolution's input gradient is bilinear in (grad_output, weight), its weight
        # gradient in (grad_output, input), as the 2-d one's below
        row("conv1d_input_backward", "ConvolutionBackwardBackward0", "grad_output input weight",
            "grad_output weight stride padding dilation groups",
            "k.conv1d_forward(grad, weight, stride, padding, dilation, groups)",
            "k._zeros(grad, grad.shape)",
            "k.conv1d_grad(grad_output, grad, weight, stride, padding, dilation, groups, 1)"),
        row("conv1d_weight_backward", "ConvolutionBackwardBackward0",
            "grad_output input weight", "grad_output input stride padding dilation groups",
            "k.conv1d_forward(input, grad, stride, padding, dilation, groups)",
            "k.conv1d_grad(grad_output, input, grad, stride, padding, dilation, groups, 0)",
            "k._zeros(grad, grad.shape)"),
        # a transposed convolution: its input gradient is a convolution, its weight gradient a
        # convolution's weight gradient with the roles of input and output swapped
        row("conv_transpose2d", "ConvolutionBackward0", "input weight bias",
             "input weight stride padding dilation groups",
             "k.conv_transpose2d_input(grad, input, weight, stride, padding, dilation, groups)",
             "k.conv2d_weight(input, grad, weight, stride, padding, dilation, groups)",
             "k.conv_bias(grad, input, weight)"),
        row("conv_transpose2d_input_backward", "ConvolutionBackwardBackward0",
            "grad_output input weight", "grad_output weight stride padding dilation groups",
            "k.conv2d_input(grad, grad_output, weight, stride, padding, dilation, groups)",
            "None",
            "k.conv2d_weight(grad, grad_output, weight, stride, padding, dilation, groups)"),
        row("conv_transpose1d", "ConvolutionBackward0", "input weight bias",
            "input weight stride padding dilation groups",
            *(f"k.conv_transpose1d_grad(grad, input, weight, stride, padding, dilation, "
              f"groups, {which})" for which in range(3))),
        # its input gradient C(g, w) is a convolution: for g the transposed one T(v, w), for w
        # a convolution's weight gradient; its weight gradient, along V, is <x, C(g, V)>
        row("conv_transpose1d_input_backward", "ConvolutionBackwardBackward0",
            "grad_output input weight", "grad_output weight stride padding dilation groups",
            "k.conv1d_grad(grad, grad_output, weight, stride, padding, dilation, groups, 0)",
            "None",
            "k.conv1d_grad(grad, grad_output, weight, stride, padding, dilation, groups, 1)"),
        row("conv_transpose1d_weight_backward", "ConvolutionBackwardBackward0",
            "grad_output input weight", "grad_output input stride padding dilation groups",
            "k.conv1d_grad(input, grad_output, grad, stride, padding, dilation, groups, 0)",
            "k.conv1d_forward(grad_output, grad, stride, padding, dilation, groups)", "None"),
        row("upsample_nearest2d", "UpsampleNearest2DBackward0", "self", "shape rows columns",
             "k.resample_grad(grad, shape, rows, columns)"),
        row("upsample_bilinear2d", "UpsampleBilinear2DBackward0", "self", "shape rows columns",
             "k.resample_grad(grad, shape, rows, columns)"),
        row("upsample_bicubic2d", "UpsampleBicubic2DBackward0", "self", "shape rows columns",
            "k.resample_grad(grad, shape, rows, columns)"),
        row("upsample_bicubic2d_backward", "UpsampleBicubic2DBackwardBackward0", "grad_output",
            "rows columns", "k.resample(grad, rows, columns)"),
        row("upsample_nearest2d_backward", "UpsampleNearest2DBackwardBackward0", "grad_output",
             "rows columns", "k.resample(grad, rows, columns)"),
        row("upsample_bilinear2d_backward", "UpsampleBilinear2DBackwardBackward0", "grad_output",
             "rows columns", "k.resample(grad, rows, columns)"),
        *(row(f"upsample_{kind}1d", f"Upsample{name}1DBackward0", "self",
              "shape rows columns", "k.resample_grad(grad, shape, rows, columns)")
          for kind, name in _UPSAMPLED_1D),
        *(row(f"upsample_{kind}1d_backward", f"Upsample{name}1DBackwardBackward0",
              "grad_output", "rows columns", "k.resample(grad, rows, columns)")
          for kind, name in _UPSAMPLED_1D),
        # nn/resampling_3d.py's
        *(row(f"upsample_{kind}3d", f"Upsample{name}3DBackward0", "self", "shape sources",
              "k.resample_volume_grad(grad, shape, sources)") for kind, name in _UPSAMPLED_3D),
        *(row(f"upsample_{kind}3d_backward", f"Upsample{name}3DBackwardBackward0",
              "grad_output", "sources", "k.resample_volume(grad, sources)")
          for kind, name in _UPSAMPLED_3D),
        row("upsample_nearest_exact2d", "UpsampleNearestExact2DBackward0", "self",
            "shape rows columns", "k.resample_grad(grad, shape, rows, columns)"),
        row("upsample_nearest_exact2d_backward", "UpsampleNearestExact2DBackwardBackward0",
            "grad_output", "rows columns", "k.resample(grad, rows, columns)"),
        *(row(f"upsample_{kind}2d_aa", f"Upsample{name}2DAaBackward0", "self",
              "shape rows columns mode", "k.antialiased_grad(grad, shape, rows, columns, mode)")
          for kind, name in _ANTIALIASED),
        *(row(f"upsample_{kind}2d_aa_backward", f"Upsample{name}2DAaBackwardBackward0",
              "grad_output", "rows columns mode", "k.antialiased(grad, rows, columns, mode)")
          for kind, name in _ANTIALIASED),
        row("nll_loss2d", "NllLoss2DBackward0", "self", "chosen reduction count",
            "k.nll2d_grad(grad, chosen, reduction, count)"),
        row("group_norm", "NativeGroupNormBackward0", "input weight bias",
            "input mean rstd weight groups eps",
            *(f"k.group_norm_grad(grad, input, mean, rstd, weight, groups, eps, {which})"
              for which in range(3))),
        row("pixel_shuffle", "PixelShuffleBackward0", "self", "r",
            "k.shuffle_grad(grad, r, True)"),
        row("pixel_unshuffle", "PixelUnshuffleBackward0", "self", "r",
            "k.shuffle_grad(grad, r, False)"),
        row("channel_shuffle", "ChannelShuffleBackward0", "self", "groups",
            "k.channel_shuffle_grad(grad, groups)"),
        row("constant_pad", "ConstantPadNdBackward0", "self", "pad", "k.unpad(grad, pad)"),
        row("im2col", "Im2ColBackward0", "self", "size kernel dilation padding stride",
             "k.col2im(grad, size, kernel, dilation, padding, stride)"),
        row("col2im", "Col2ImBackward0", "self", "kernel dilation padding stride",
             "k.im2col(grad, kernel, dilation, padding, stride)"),
        row("max_pool2d", "MaxPool2DWithIndicesBackward0", "self", "self shape indices",
             "k.max_scatter(grad, self, shape, indices, 2, 'max_pool2d_backward')"),
        # what a create_graph backward records for those two: torch's nodes. A convolution's input
        # gradient is bilinear in (grad_output, weight), its weight gradient in (grad_output,
        # input): each derivative is a convolution, a weight gradient or an input gradient again
        row("conv2d_input_backward", "ConvolutionBackwardBackward0", "grad_output input weight",
             "grad_output weight stride padding dilation groups",
             "k.conv2d_forward(grad, weight, stride, padding, dilation, groups)",
             "k._zeros(grad, grad.shape)",
             "k.conv2d_weight(grad_output, grad, weight, stride, padding, dilation, groups)"),
        row("conv2d_weight_backward", "ConvolutionBackwardBackward0", "grad_output input weight",
             "grad_output input stride padding dilation groups",
             "k.conv2d_forward(input, grad, stride, padding, dilation, groups)",
             "k.conv2d_input(grad_output, input, grad, stride, padding, dilation, groups)",
             "k._zeros(grad, grad.shape)"),
        *_volume_rows(row),
        # nn/more_pooling.py's
        row("max_unpool2d", "MaxUnpool2DBackward0", "self", "indices",
            "k.max_gather(grad, indices, 2)"),
        row("adaptive_max_pool2d", "AdaptiveMaxPool2DBackward0", "self", "self shape indices",
            "k.max_scatter(grad, self, shape, indices, 2, 'adaptive_max_pool2d_backward')"),
        # nn/transposed_volumes.py's, as conv_transpose1d's
        row("conv_transpose3d", "ConvolutionBackward0", "input weight bias",
            f"input weight {_CONV3D}",
            *(f"k.conv_transpose3d_grad(grad, input, weight, {_CONV3D.replace(' ', ', ')}, "
              f"{which})" for which in range(3))),
        row("conv_transpose3d_input_backward", "ConvolutionBackwardBackward0",
            "grad_output input weight", f"grad_output weight {_CONV3D}",
            "k.conv3d_grad(grad, grad_output, weight, stride, padding, dilation, groups, 0)",
            "None",
            "k.conv3d_grad(grad, grad_output, weight, stride, padding, dilation, groups, 1)"),
        row("conv_transpose3d_weight_backward", "ConvolutionBackwardBackward0",
            "grad_output input weight", f"grad_output input {_CONV3D}",
            "k.conv3d_grad(input, grad_output, grad, stride, padding, dilation, groups, 0)",
            "k.conv3d_forward(grad_output, grad, stride, padding, dilation, groups)", "None"),
        # nn/volume_pooling.py's
        row("max_unpool3d", "MaxUnpool3DBackward0", "self", "indices",
            "k.max_gather(grad, indices, 3)"),
        row("adaptive_max_pool3d", "AdaptiveMaxPool3DBackward0", "self", "self shape indices",
            "k.max_scatter(grad, self, shape, indices, 3, 'adaptive_max_pool3d_backward')"),
        *(row(f"fractional_max_pool{dims}d", f"FractionalMaxPool{dims}DBackward0", "self",
              "self shape indices dims",
              f"k.max_scatter(grad, self, shape, indices, dims, "
              f"'fractional_max_pool{dims}d_backward')")
          for dims in (2, 3)),
        *(row(f"{pooling}_backward", f"{node}BackwardBackward0", "grad_output self",
              "indices shape dims", "k.max_gather(grad, indices, dims)", "k._zeros(grad, shape)")
          for pooling, node in (("max_pool2d", "MaxPool2DWithIndices"),
                                ("max_pool3d", "MaxPool3DWithIndices"),
                                ("adaptive_max_pool2d", "AdaptiveMaxPool2D"),
                                ("adaptive_max_pool3d", "AdaptiveMaxPool3D"),
                                ("fractional_max_pool2d", "FractionalMaxPool2D"),
                                ("fractional_max_pool3d", "FractionalMaxPool3D"))),
        row("pdist", "PdistBackward0", "self", "self p result",
            "k.pdist_grad(grad, self, p, result)"),
        row("pdist_backward", "PdistBackwardBackward0", "grad self result", "",
            *["k.no_derivative('_pdist_backward')"] * 3),
        row("avg_pool2d", "AvgPool2DBackward0", "self", "self shape windows adaptive",
             "k.avg_pool_input(grad, self, shape, windows, adaptive)"),
        row("adaptive_avg_pool2d", "AdaptiveAvgPool2DBackward0", "self",
            "self shape windows adaptive",
            "k.avg_pool_input(grad, self, shape, windows, adaptive)"),
        # (of grad and, as torch's, the input: a create_graph gradient records it either way)
        row("avg_pool2d_backward", "AvgPool2DBackwardBackward0", "grad_output self", "windows",
             "k.avg_pool_forward(grad, windows, False)", "k._zeros(grad, grad.shape)"),
        row("adaptive_avg_pool2d_backward", "AdaptiveAvgPool2DBackwardBackward0",
            "grad_output self", "windows", "k.avg_pool_forward(grad, windows, True)",
            "k._zeros(grad, grad.shape)"),
    )
