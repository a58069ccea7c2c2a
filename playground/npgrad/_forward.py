"""Forward-mode AD: the dual level, the tangents of dual tensors, and each op's tangent rule.

While a level is open, ``_recording.output`` hands every op's result here; when an input has
a tangent, the result gets one by the op's forward rule (torch's: ``auto_element_wise`` ops
take their backward formula with the tangent in place of the gradient, ``auto_linear`` ops
apply themselves to the tangent, products take the product rule). Tangents are computed on
NumPy arrays, so they carry no graph of their own, unless autograd records them
(_forward_graphed.py). The fast paths stand aside while a level is open, so that every op
passes through ``output``.
"""

from __future__ import annotations

import weakref

import numpy as np

from . import (
    _forward_factorizations,
    _forward_generic,
    _forward_graphed,
    _forward_reductions,
    _recording,
)
from ._formula_numpy import NUMPY_KIT
from ._missing import MISSING_HINT
from ._recording import RESULT
from ._rules import ELEMENT_WISE, RULES
from ._summation_order import running_sums
from ._tensor import Tensor
from ._view_places import positions_in

_k = NUMPY_KIT


class DualLevel:
    """The one level torch allows at a time: its number and its tangents, by tensor id."""

    current = -1
    # id(tensor) -> (a weak reference to the tensor, its tangent)
    tangents: dict[int, tuple[weakref.ref, Tensor]] = {}


def enter() -> int:
    if DualLevel.current >= 0:
        raise RuntimeError("Nested forward mode AD is not supported at the moment")
    DualLevel.current = 0
    DualLevel.tangents = {}
    _recording.open_dual_level(propagate, propagate_pieces)
    return 0


def exit_level(level: int) -> None:
    """Close ``level``: every tangent made in it goes, as in torch."""
    if level != DualLevel.current:
        raise RuntimeError("Trying to exit a forward AD level that was not the last one that "
                           "was created. This is not supported.")
    if level < 0:
        raise RuntimeError("Dual level must be a positive number.")
    DualLevel.current = -1
    DualLevel.tangents = {}
    _recording.close_dual_level()


def tangent_of(tensor) -> Tensor | None:
    """The tangent of ``tensor`` at the open level, or None."""
    known = DualLevel.tangents.get(id(tensor))
    if known is None or known[0]() is not tensor:
        return None
    return known[1]


def set_tangent(tensor: Tensor, tangent: Tensor) -> None:
    key = id(tensor)
    tangents = DualLevel.tangents
    tangents[key] = (weakref.ref(tensor, lambda _: tangents.pop(key, None)), tangent)


def drop_tangent(tensor: Tensor) -> None:
    DualLevel.tangents.pop(id(tensor), None)


# ----- propagation -------------------------------------------------------------------------------
def propagate(out: Tensor, op: str, inputs: tuple, saved: tuple) -> None:
    """Give ``out`` (the result of ``op``) its tangent, when an input has one."""
    tangents = [None if t is None else tangent_of(t) for t in inputs]
    if all(t is None for t in tangents):
        return
    if out._data.dtype.kind not in "fc":  # an integer or bool result has no tangent
        return
    if _forward_graphed.wanted(tangents, inputs):
        made = _forward_graphed.tangent(op, tangents, inputs, saved, out, _ELEMENT_WISE)
        if made is not None:
            set_tangent(out, made)
            return
    rule = _RULES.get(op)
    if rule is None:
        made = None if op in _TORCH_HAS_NONE or op in _TORCH_HAS_NONE_YET else \
            _forward_generic.tangent(
            op, tangents, inputs, saved, out)
        if made is None:
            raise _no_rule(op)
        set_tangent(out, Tensor._make(np.array(made, copy=True)))
        return
    values = tuple(out._data if item is RESULT else item._data if isinstance(item, Tensor)
                   else item for item in saved)
    arrays = [None if t is None else t._data for t in tangents]
    primals = [None if t is None else t._data for t in inputs]
    result = rule(arrays, primals, values, out._data)
    # the result's dtype, unless a tangent is wider (torch keeps a float64 tangent of a float32
    # primal); a copy, as a rule may hand back an input's tangent itself or a broadcast
    dtype = np.result_type(out._data.dtype, *[t.dtype for t in arrays if t is not None])
    set_tangent(out, Tensor._make(np.array(result, dtype=dtype, copy=True)))


def propagate_pieces(pieces: list, inputs: tuple, op: str, saved: tuple) -> None:
    """The tangents of the outputs of one ``op`` node: views of the first input's values
    (split, chunk and unbind, torch's auto_linear ops) get the same views of its tangent;
    others (a QR's, an SVD's...) theirs from the op's backward formulas."""
    tangents = [tangent_of(t) if isinstance(t, Tensor) else None for t in inputs]
    if all(t is None for t in tangents) or pieces[0]._data.dtype.kind not in "fc":
        return
    if op in _TORCH_HAS_NONE or op in _TORCH_HAS_NONE_YET:
        raise _no_rule(op)
    if tangents[0] is not None and not any(tangents[1:]) and \
            all(np.shares_memory(piece._data, inputs[0]._data) for piece in pieces):
        _tangents_of_views(pieces, inputs[0], tangents[0], op)
        return
    if op in _forward_factorizations.SEVERAL:
        made = _forward_factorizations.SEVERAL[op](
            _arrays(tangents), _arrays(inputs), _arrays(saved), _arrays(pieces))
    else:
        made = _forward_generic.tangents_of_outputs(op, tangents, inputs, saved, pieces) if \
            all(piece._data.dtype.kind != "c" for piece in pieces) else None
    if made is None:
        raise _no_rule(op)
    for piece, tangent in zip(pieces, made, strict=True):
        if tangent is not None:
            set_tangent(piece, Tensor._make(tangent))


def _arrays(items) -> list:
    """Tensors' values, other items as they are."""
    return [item._data if isinstance(item, Tensor) else item for item in items]


def _tangents_of_views(pieces: list, whole: Tensor, given: Tensor, op: str) -> None:
    """Each piece (a view of ``whole``'s values) the same view of ``whole``'s tangent."""
    values = whole._data
    laid_out = np.empty_like(values, dtype=given._data.dtype, order="K")
    laid_out[...] = given._data
    low = _byte_bounds(values)[0]
    if laid_out.strides != values.strides or laid_out.itemsize != values.itemsize:
        raise NotImplementedError(f"forward-mode AD through {op} {MISSING_HINT}")
    for piece in pieces:
        data = piece._data
        offset = data.__array_interface__["data"][0] - low
        view = np.ndarray(data.shape, laid_out.dtype, buffer=laid_out, offset=offset,
                          strides=data.strides)
        set_tangent(piece, Tensor._make(view.copy()))


# (NumPy 2 moved it; the project takes NumPy 1.26 too)
_byte_bounds = getattr(getattr(np.lib, "array_utils", np), "byte_bounds", None) or \
    np.byte_bounds


def _no_rule(op: str) -> Exception:
    if op in _TORCH_HAS_NONE_YET:
        return NotImplementedError(
            f"Trying to use forward AD with {_TORCH_HAS_NONE_YET[op]} that does not support it "
            "because it has not been implemented yet.\nPlease file an issue to PyTorch at "
            "https://github.com/pytorch/pytorch/issues/new?template=feature-request.yml so that "
            "we can prioritize its implementation or submit a PR adding the implementation to "
            "derivatives.yaml")
    if op in _TORCH_HAS_NONE:
        return NotImplementedError(f"Trying to use forward AD with aten::{op} that does not "
                                   "support it.")
    return NotImplementedError(f"forward-mode AD through {op} {MISSING_HINT}")


def tangent_of_write(op: str, self: Tensor, result: np.ndarray, inputs: tuple,
                     saved: tuple) -> Tensor | None:
    """The tangent ``self`` has once the in-place ``op`` writes ``result`` into it (taken
    before the write, from its old values, as the op's own rule gives it), or None where no
    input has one. A view's goes into its base's tangent too, at the view's places (other
    views of that base keep theirs)."""
    if DualLevel.current < 0 or not any(isinstance(t, Tensor) and tangent_of(t) is not None
                                        for t in inputs):
        return None
    base = _tangent_owner(self)
    places = None if base is None else positions_in(self._data, base._data)
    if base is not None and places is None:
        refuse_inplace(*inputs)
    staged = Tensor._make(np.asarray(result, dtype=self._data.dtype))
    propagate(staged, op, inputs, saved)
    written = tangent_of(staged)
    if base is not None and written is not None:
        known = tangent_of(base)
        whole = np.zeros(base._data.shape, written._data.dtype) if known is None else \
            known._data.astype(np.result_type(known._data, written._data), copy=True)
        whole.reshape(-1)[places.reshape(-1)] = np.broadcast_to(written._data,
                                                                 self._data.shape).reshape(-1)
        set_tangent(base, Tensor._make(whole))
    return written


def note_dual_view(primal: Tensor, dual: Tensor) -> None:
    """make_dual's view of ``primal``: the tensor whose tangent a write through a view of
    ``primal`` changes (torch gives the primal itself none)."""
    primal.__dict__["_dual_view"] = weakref.ref(dual)
    dual.__dict__["_made_dual"] = True


def _tangent_owner(view: Tensor) -> Tensor | None:
    """Whose tangent a write into ``view`` changes besides its own: its base's, or the dual
    view made of that base (make_dual's); none for make_dual's view itself."""
    base = view._base
    if base is None or view.__dict__.get("_made_dual"):
        return None
    noted = base.__dict__.get("_dual_view")
    dual = None if noted is None else noted()
    if dual is not None and tangent_of(dual) is not None and dual._data.shape == \
            base._data.shape and dual._data.strides == base._data.strides:
        return dual
    return base


def refuse_inplace(*tensors) -> None:
    """In-place writes keep no tangent here: refuse them on dual tensors."""
    if DualLevel.current >= 0 and any(t is not None and isinstance(t, Tensor)
                                      and tangent_of(t) is not None for t in tensors):
        raise NotImplementedError(f"forward-mode AD through an in-place operation {MISSING_HINT}")


# ----- the rules ---------------------------------------------------------------------------------
# Each rule is f(tangents, primals, saved, result) -> the result's tangent, where tangents and
# primals are per input (None where absent) and saved is what the op saved for backward.
# torch's own forward AD lacks these: its words
_TORCH_HAS_NONE = {"floor_divide", "histogram", "_histogramdd_from_bin_cts",
                   "_histogramdd_from_bin_tensors"}
# ... and these, "not implemented yet" in its words, by its names for them
_TORCH_HAS_NONE_YET = {"cdist": "_cdist_forward", "pdist": "_pdist_forward",
                       "embedding_bag": "_embedding_bag", "ctc_loss": "_ctc_loss",
                       "multi_margin_loss": "multi_margin_loss",
                       "multilabel_margin_loss": "multilabel_margin_loss_forward",
                       "grid_sampler_2d": "grid_sampler_2d", "grid_sampler_3d": "grid_sampler_3d",
                       "lstm_layer": "mkldnn_rnn_layer", "igamma": "igamma",
                       "igammac": "igammac"}

# torch's auto_element_wise: the backward formula, the tangent in place of the gradient, for
# the ops whose row says so (``forward=ELEMENT_WISE`` in _rules.py)
_ELEMENT_WISE = frozenset(op for op, rule in RULES.items() if rule.forward == ELEMENT_WISE)


def _element_wise(op: str):
    formulas = RULES[op].formulas

    def rule(tangents, primals, saved, result):
        total = None
        for formula, tangent in zip(formulas, tangents, strict=False):
            if tangent is not None:
                term = formula(_k, tangent, saved)
                total = term if total is None else total + term
        return np.broadcast_to(total, result.shape)

    return rule


def _linear(apply):
    """torch's auto_linear: the op itself applied to the (one) input's tangent."""

    def rule(tangents, primals, saved, result):
        return apply(tangents[0], saved, result)

    return rule


def _product(multiply):
    """A bilinear op (mm, dot...): the product rule, ``a_t b + a b_t``."""

    def rule(tangents, primals, saved, result):
        (a_t, b_t), (a, b) = tangents[:2], primals[:2]
        terms = [multiply(a_t, b) if a_t is not None else None,
                 multiply(a, b_t) if b_t is not None else None]
        return _sum_terms(terms)

    return rule


def _sum_terms(terms: list):
    present = [t for t in terms if t is not None]
    total = present[0]
    for term in present[1:]:
        total = total + term
    return total


def _mean(t, saved, result):
    shape, count = saved
    return _k.sum(t, None, False) / result.dtype.type(count)


def _addmm(tangents, primals, saved, result):
    self_t, mat1_t, mat2_t = tangents
    _, mat1, mat2 = primals
    beta, alpha = saved[-2:]
    terms = [None if self_t is None else np.broadcast_to(self_t * beta, result.shape),
             None if mat1_t is None else (mat1_t @ mat2) * alpha,
             None if mat2_t is None else (mat1 @ mat2_t) * alpha]
    return _sum_terms(terms)


def _concatenated(join):
    """cat and stack: the inputs' tangents joined, zeros for the inputs without one."""

    def rule(tangents, primals, saved, result):
        parts = [np.zeros_like(p, dtype=result.dtype) if t is None else t
                 for t, p in zip(tangents, primals, strict=True)]
        return join(parts, saved[0])

    return rule


def _log_softmax(tangents, primals, saved, result):
    t = tangents[0]
    _, dim = saved
    return t - _k.sum(np.exp(result) * t, (dim,), True)


_RULES = {op: _element_wise(op) for op in _ELEMENT_WISE}
_RULES.update({
    "sum": _linear(lambda t, saved, result: _k.sum(t, None, False)),
    "sum_dim": _linear(lambda t, saved, result: _k.sum(t, saved[1], saved[2])),
    "mean": _linear(_mean),
    "mean_dim": _linear(lambda t, saved, result: np.mean(t, axis=saved[1], keepdims=saved[2],
                                                         dtype=result.dtype)),
    "cumsum": _linear(lambda t, saved, result: running_sums(t, saved[0])),
    "view": _linear(lambda t, saved, result: t.reshape(result.shape)),
    "unpack_dual": _linear(lambda t, saved, result: t),  # (unpack_dual drops it at once)
    "unsafe_view": _linear(lambda t, saved, result: t.reshape(result.shape)),
    "squeeze": _linear(lambda t, saved, result: t.reshape(result.shape)),
    "squeeze_dim": _linear(lambda t, saved, result: t.reshape(result.shape)),
    "squeeze_dims": _linear(lambda t, saved, result: t.reshape(result.shape)),
    "unsqueeze": _linear(lambda t, saved, result: t.reshape(result.shape)),
    "expand": _linear(lambda t, saved, result: np.broadcast_to(t, result.shape)),
    "t": _linear(lambda t, saved, result: t.T),
    "transpose": _linear(lambda t, saved, result: np.swapaxes(t, *saved)),
    "permute": _linear(lambda t, saved, result: np.transpose(t, saved[0])),
    "select": _linear(lambda t, saved, result: _k.select(t, *saved[1:])),
    "slice": _linear(lambda t, saved, result: _k.slice(t, *saved[1:])),
    "index": _linear(lambda t, saved, result: _k.getitem(t, saved[1])),
    "gather": _linear(lambda t, saved, result: _k.gather(t, *saved[1:])),
    "index_select": _linear(lambda t, saved, result: np.take(t, saved[2], axis=saved[1])),
    "flip": _linear(lambda t, saved, result: np.flip(t, saved[0])),
    "repeat": _linear(lambda t, saved, result: np.tile(t, saved[1])),
    "tril": _linear(lambda t, saved, result: np.tril(t, saved[0])),
    "triu": _linear(lambda t, saved, result: np.triu(t, saved[0])),
    "mm": _product(np.matmul),
    "bmm": _product(np.matmul),
    "mv": _product(np.matmul),
    "dot": _product(lambda a, b: np.asarray(np.dot(a, b))),
    "addmm": _addmm,
    "cat": _concatenated(lambda parts, dim: np.concatenate(parts, axis=dim)),
    "stack": _concatenated(lambda parts, dim: np.stack(parts, axis=dim)),
    "log_softmax": _log_softmax,
})
_RULES.update(_forward_reductions.RULES)
_RULES.update(_forward_factorizations.SINGLE)
