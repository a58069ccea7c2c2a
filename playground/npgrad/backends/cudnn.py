"""``torch.backends.cudnn``: its flags as a CPU build of torch has them (no cuDNN here)."""

enabled = True
deterministic = False
benchmark = False
allow_tf32 = True


def is_available() -> bool:
    return False


def version() -> None:
    return None
