"""``torch.backends.cuda``: the matmul, cuFFT and attention-kernel switches (no CUDA here;
the attention switches are torch's global ones, which sdpa_kernel sets too)."""

import contextlib
import warnings


class _MatmulSettings:
    """``torch.backends.cuda.matmul``: TF32 and reduced-precision switches, kept as set."""

    def __init__(self) -> None:
        self.allow_tf32 = False
        self.allow_fp16_reduced_precision_reduction = True
        self.allow_bf16_reduced_precision_reduction = True


matmul = _MatmulSettings()


def is_built() -> bool:
    return False


def _switches(backend_name: str):
    """The pair ``x_sdp_enabled()`` / ``enable_x_sdp(on)`` of one attention kernel."""

    def is_enabled() -> bool:
        from ..nn import attention

        return attention.enabled(attention.SDPBackend[backend_name])

    def enable(enabled: bool) -> None:
        from ..nn import attention

        attention.enable(attention.SDPBackend[backend_name], bool(enabled))

    return is_enabled, enable


flash_sdp_enabled, enable_flash_sdp = _switches("FLASH_ATTENTION")
mem_efficient_sdp_enabled, enable_mem_efficient_sdp = _switches("EFFICIENT_ATTENTION")
math_sdp_enabled, enable_math_sdp = _switches("MATH")
cudnn_sdp_enabled, enable_cudnn_sdp = _switches("CUDNN_ATTENTION")


_SDP_KERNEL_DEPRECATED = (
    "`torch.backends.cuda.sdp_kernel()` is deprecated. In the future, this context manager "
    "will be removed. Please see `torch.nn.attention.sdpa_kernel()` for the new context "
    "manager, with updated signature.")


def _sdp_kernel_blocks(enable_flash: bool = True, enable_math: bool = True,
                       enable_mem_efficient: bool = True, enable_cudnn: bool = True):
    """The older context manager's block: sdpa_kernel of the backends left enabled."""
    from ..nn import attention

    backends = attention.SDPBackend
    chosen = [backend for backend, on in ((backends.FLASH_ATTENTION, enable_flash),
                                          (backends.EFFICIENT_ATTENTION, enable_mem_efficient),
                                          (backends.MATH, enable_math),
                                          (backends.CUDNN_ATTENTION, enable_cudnn)) if on]
    with attention.sdpa_kernel(chosen) as context:
        yield context


@contextlib.contextmanager
def sdp_kernel(*args, **kwargs):
    """torch's deprecated ``sdp_kernel(enable_flash=..., enable_math=...,
    enable_mem_efficient=..., enable_cudnn=...)``: its FutureWarning, which names the line
    of contextlib that calls it, as torch's does."""
    warnings.warn(_SDP_KERNEL_DEPRECATED, FutureWarning, stacklevel=2)
    return _sdp_kernel_blocks(*args, **kwargs)
