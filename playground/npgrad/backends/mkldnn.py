"""``torch.backends.mkldnn``: oneDNN's switch, as a CPU build of torch reports it."""

enabled = True


def is_available() -> bool:
    return True
