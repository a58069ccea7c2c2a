"""Parameters as one flat vector, and a vector's values put back into parameters."""

from __future__ import annotations

from ... import _shapes
from ..._tensor import Tensor


def parameters_to_vector(parameters) -> Tensor:
    """The parameters flattened and joined, in order (recorded: it has a graph)."""
    return _shapes.cat([parameter.view(-1) for parameter in parameters])


def vector_to_parameters(vec: Tensor, parameters) -> None:
    """Each parameter's ``.data`` replaced by its stretch of ``vec``."""
    if not isinstance(vec, Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {type(vec).__name__}")
    offset = 0
    for parameter in parameters:
        count = parameter.numel()
        parameter.data = vec[offset:offset + count].view_as(parameter).data
        offset += count
