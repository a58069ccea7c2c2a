"""``torch.backends.cuda``: the matmul, cuFFT and attention-kernel switches (no CUDA here;
the attention switches are torch's global ones, which sdpa_kernel sets too)."""


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
