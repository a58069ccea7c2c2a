"""torch's warnings given once a process (its C++ TORCH_WARN_ONCE), in its words, at the
user's line."""

from __future__ import annotations

from ._user_warnings import warn_at_user_code

_TRIGGERED = " (Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/"
WORDS = {
    "Tensor.T not on 2-D":
        "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is "
        "deprecated and it will throw an error in a future release. Consider `x.mT` to "
        "transpose batches of matrices or `x.permute(*torch.arange(x.ndim - 1, -1, -1))` to "
        "reverse the dimensions of a tensor." + _TRIGGERED + "TensorShape.cpp:4314.)",
    "Tensor.T on 0-D":
        "Tensor.T is deprecated on 0-D tensors. This function is the identity in these "
        "cases." + _TRIGGERED + "TensorShape.cpp:4321.)",
}
_GIVEN: set[str] = set()
# (given by torch.meshgrid at each call without indexing: Python's registry shows it once a line)
MESHGRID_INDEXING = ("torch.meshgrid: in an upcoming release, it will be required to pass the "
                     "indexing argument." + _TRIGGERED + "TensorShape.cpp:4215.)")


def warn_once(which: str) -> None:
    """The warning ``WORDS[which]``, unless this process gave it already."""
    if which not in _GIVEN:
        _GIVEN.add(which)
        warn_at_user_code(WORDS[which])
