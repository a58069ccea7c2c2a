"""``torch.backends.mps``: Apple's GPU, never available to the NumPy engine."""


def is_available() -> bool:
    return False


def is_built() -> bool:
    return False
