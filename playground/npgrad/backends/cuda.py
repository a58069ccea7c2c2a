"""``torch.backends.cuda``: the matmul and cuFFT switches (no CUDA here)."""


class _MatmulSettings:
    """``torch.backends.cuda.matmul``: TF32 and reduced-precision switches, kept as set."""

    def __init__(self) -> None:
        self.allow_tf32 = False
        self.allow_fp16_reduced_precision_reduction = True
        self.allow_bf16_reduced_precision_reduction = True


matmul = _MatmulSettings()


def is_built() -> bool:
    return False
