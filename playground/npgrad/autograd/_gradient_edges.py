"""``torch.autograd.graph.GradientEdge``: where a tensor's gradient is computed (its grad_fn,
or a leaf's AccumulateGrad, and which of its outputs), usable in ``autograd.grad`` in place of
the tensor, as an input or an output."""

from __future__ import annotations

import weakref
from typing import NamedTuple

from .. import _dtype
from .._meta import NoValues
from .._nodes import Node, NodeOutput
from .._tensor import Size, Tensor

# owner node -> {output number: the engine's edge for it}: an output of a node with several
# is a NodeOutput of its own in the engine, which the edge's (node, number) must find again
_OUTPUT_EDGES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


class GradientEdge(NamedTuple):
    """A node of the graph and the number of one of its outputs."""

    node: Node
    output_nr: int
    ownership_token: Node | None = None


def get_gradient_edge(tensor: Tensor) -> GradientEdge:
    """The edge ``tensor``'s gradient flows through: grad(loss, edge) is grad(loss, tensor)."""
    if not tensor.requires_grad:
        raise RuntimeError("It is not possible to get the gradient edge for a Tensor that does "
                           "not require gradients")
    edge = tensor._grad_edge()[0]
    node = tensor.grad_fn if tensor.grad_fn is not None else edge
    number = edge.index if type(edge) is NodeOutput else 0
    if edge is not node:
        _OUTPUT_EDGES.setdefault(node, {})[number] = edge
    return GradientEdge(node, number)


def engine_edge(item) -> Node | None:
    """The node the engine starts from or captures at for a tensor or a GradientEdge."""
    if isinstance(item, GradientEdge):
        return _OUTPUT_EDGES.get(item.node, {}).get(item.output_nr, item.node)
    return item._grad_edge()[0]


class EdgeAsOutput:
    """A GradientEdge given to grad() as an output: what it reads of an output tensor."""

    _rg = True

    def __init__(self, edge: GradientEdge) -> None:
        self._edge = engine_edge(edge)
        self._data = NoValues(getattr(self._edge, "_shape", ()),
                              getattr(self._edge, "_np_dtype", None) or "float32")

    def _grad_edge(self) -> tuple:
        return (self._edge, 0)

    @property
    def shape(self) -> Size:
        return Size(self._data.shape)

    @property
    def dtype(self):
        return _dtype.from_numpy_dtype(self._data.dtype)


def as_outputs(outputs: tuple) -> tuple:
    return tuple(EdgeAsOutput(item) if isinstance(item, GradientEdge) else item
                 for item in outputs)
