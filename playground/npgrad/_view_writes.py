"""In-place writes through a view (``y[:2].mul_(a)``, ``y.view(2, 2)[0] = b``): torch's
CopySlices on the view's base, and AsStridedBackward0 for the views on the way to it.

torch records such a write as a node of the base (CopySlices) that wraps the op's own node:
its backward hands the op's node the base gradient's part the view covers, puts the op's
gradient for its first input back in that part, and passes its other gradients on. The
written view becomes an as_strided view of the base's new history; the base's other views
become one when next used (their version changed: _recording.rebased_view). Where the view's
memory is not the base's (NumPy copied a broadcast view on write), the write is recorded on
the view alone.
"""

from __future__ import annotations

import numpy as np

from ._bfloat16 import gradient_dtype
from ._nodes import Node, new_sequence_number, release_saved
from ._recording import as_strided_of
from ._tensor import Tensor, shared_counter
from ._versions import note_writer


class CopySlices(Node):
    """The base's node after a write through one of its views (torch's CopySlices)."""

    custom = True
    plain = False
    arity = -1
    __module__ = "torch"
    __slots__ = ("fn", "positions", "view_shape")

    def __init__(self, fn: Node, base: Tensor, positions: np.ndarray) -> None:
        self._nx = fn._next  # the base's old history first, then the op's other inputs
        self._saved = self._versions = ()
        self._shape, self._np_dtype = base._data.shape, gradient_dtype(base._data)
        self._hooks = self._deps = self._pending = None
        self._exact = False
        self._seq = new_sequence_number()
        self.fn, self.positions, self.view_shape = fn, positions, positions.shape

    def name(self) -> str:
        return "torch::autograd::CopySlices"

    def rule_text(self) -> str:
        """What the inspector shows for it: the base's gradient passed on, and the write's
        own node's rule where the view was written."""
        inner = getattr(self.fn, "rule", None)
        written = inner.describe() if inner is not None else self.fn.name()
        return ("CopySlices: grad_self = grad where the view was not written; where it was, "
                f"the write's own node: {written}")

    def run_backward(self, grad, as_tensors: bool) -> tuple:
        from ._engine import _apply_function, _kit  # (the engine imports this module's users)

        kit = _kit(as_tensors)
        flat = self.positions.reshape(-1)
        region = kit.reshape(kit.getitem(kit.reshape(grad, (-1,)), (flat,)), self.view_shape)
        outputs = _apply_function(self.fn, region, as_tensors)
        written = outputs[0] if self._nx[0] is not None else None
        return (self._base_grad(kit, grad, written, as_tensors), *outputs[1:])

    def _base_grad(self, kit, grad, written, as_tensors: bool):
        """The base's gradient with the view's part replaced by the op's first gradient
        (zeros where the op had none: its old values no longer count)."""
        flat = self.positions.reshape(-1)
        if written is not None and tuple(written.shape) != self.view_shape:
            written = kit.sum_to(written, self.view_shape)
        if not as_tensors:
            result = np.array(grad, dtype=self._np_dtype, order="C")
            result.reshape(-1)[flat] = 0 if written is None else \
                np.asarray(written, self._np_dtype).reshape(-1)
            return result
        size = int(np.prod(self._shape))
        result = kit.zero_at(kit.reshape(grad, (-1,)), (flat,))
        if written is not None:
            result = result + kit.index_backward(kit.reshape(written, (-1,)), (size,), (flat,))
        return kit.reshape(result, self._shape)

    def release(self) -> None:
        """What the op's node saved is freed with this node, as torch frees it."""
        release_saved(self.fn)


def record_through_view(view: Tensor, fn: Node, positions: np.ndarray) -> Tensor:
    """After the write: the op's node ``fn`` (of the base's old history and the op's other
    inputs) wrapped in CopySlices as the base's grad_fn; the view an as_strided view of it."""
    base = view._base
    base._fn = CopySlices(fn, base, positions)
    base._rg = True
    note_writer(shared_counter(base), base._fn.name(), base._data.shape)
    base._grad_acc = None
    as_strided_of(view, base, positions)
    return view
