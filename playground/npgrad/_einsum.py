"""torch.einsum made of the ops torch makes it of, so its graph holds torch's nodes (Permute,
Unsqueeze, Sum, Bmm, View...); and the two views einsum uses that torch also offers on their
own: ``diagonal`` (DiagonalBackward0) and ``movedim`` (a permute).

The recipe, read off torch's graphs: each operand is lined up on one list of dimensions (the
output's labels, then the ellipsis' dimensions if the output has none, then the summed labels
in ASCII order), with a diagonal for a repeated label and a size-1 dimension for each label
it lacks. One operand is then summed over the summed labels. Several are combined left to
right: a summed dimension only one side still has is summed on that side (kept as size 1); the
dimensions both sides have and no later operand needs are contracted by one batched matrix
product (or, when there are none, the two are multiplied); at the end the size-1 dimensions
are dropped by a view.
"""

from __future__ import annotations

import numpy as np

from ._bindings import binds
from ._formula_kit import writable_diagonal
from ._recording import output
from ._tensor import Tensor, _wrap_dim, shared_counter

_LABELS = 52  # A-Z then a-z: torch numbers them so, and orders the summed ones that way


def _label_number(character: str) -> int:
    return ord(character) - ord("A") if character <= "Z" else ord(character) - ord("a") + 26


def _label_character(number: int) -> str:
    return chr(number + ord("A")) if number < 26 else chr(number - 26 + ord("a"))


def _is_label(character: str) -> bool:
    return character.isascii() and character.isalpha()


_ELLIPSIS = -1  # in a parsed operand's labels


@binds("diagonal")
def diagonal(self: Tensor, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
    """The diagonal of the (dim1, dim2) planes as the last dimension: a view, writable as
    torch's is (``a.diagonal().add_(1)``)."""
    ndim = self.ndim
    dim1, dim2 = _wrap_dim(dim1, ndim), _wrap_dim(dim2, ndim)
    if dim1 == dim2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    data = self._data
    return output("diagonal", writable_diagonal(data, offset, dim1, dim2), (self,),
                  (data.shape, offset, dim1, dim2), shared_counter(self), self)


@binds("movedim")
@binds("moveaxis")
def movedim(self: Tensor, source, destination) -> Tensor:
    """Dimensions moved to new places, the others in their order: torch records a permute."""
    ndim = self.ndim
    sources = [_wrap_dim(d, ndim) for d in ((source,) if isinstance(source, int) else source)]
    targets = [_wrap_dim(d, ndim) for d in (
        (destination,) if isinstance(destination, int) else destination)]
    if len(sources) != len(targets):
        raise RuntimeError(f"movedim: Invalid source or destination dims: source ({sources} "
                           f"dims) should contain the same number of dims as destination "
                           f"({targets} dims)")
    order = [None] * ndim
    for source_dim, target in zip(sources, targets, strict=True):
        order[target] = source_dim
    rest = iter(d for d in range(ndim) if d not in sources)
    return self.permute(*[d if d is not None else next(rest) for d in order])


@binds("einsum", method=False)
def einsum(*arguments) -> Tensor:
    equation, operands = _equation_and_operands(arguments)
    labels, output_labels = _parse(equation, len(operands))
    lined_up = _Lineup(labels, operands, output_labels)
    tensors = [lined_up.operand(i, tensor) for i, tensor in enumerate(operands)]
    if len(tensors) == 1:
        summed = tuple(range(lined_up.output_size, lined_up.size))
        return tensors[0].sum(summed) if summed else tensors[0]
    return _combined(tensors, lined_up)


def _equation_and_operands(arguments: tuple) -> tuple[str, list]:
    """torch's three ways to call it: (equation, *operands), (equation, [operands]) and
    (operand, sublist, operand, sublist, ..., [output sublist])."""
    if len(arguments) < 2:
        raise ValueError("einsum(): must specify the equation string and at least one operand, "
                         "or at least one operand and its subscripts list")
    if isinstance(arguments[0], str):
        operands = list(arguments[1:])
        if len(operands) == 1 and isinstance(operands[0], list | tuple):
            operands = list(operands[0])  # the old interface: the operands as one list
        return arguments[0], operands
    with_output = len(arguments) % 2 == 1  # an output sublist at the end
    pairs = arguments[:-1] if with_output else arguments
    equation = ",".join(_sublist(sublist) for sublist in pairs[1::2])
    if with_output:
        equation += "->" + _sublist(arguments[-1])
    return equation, list(pairs[0::2])


def _sublist(subscripts) -> str:
    text = []
    for subscript in subscripts:
        if subscript is Ellipsis:
            text.append("...")
        elif isinstance(subscript, int) and 0 <= subscript < _LABELS:
            text.append(_label_character(subscript))
        else:
            raise ValueError("einsum(): subscript in subscript list is not within the valid "
                             "range [0, 52)")
    return "".join(text)


def _parse(equation: str, count: int) -> tuple[list[list[int]], tuple[str, int] | None]:
    """Each operand's labels (numbers, _ELLIPSIS), and the output's text and its offset in
    the equation (None: implicit), parsed once the operands' dimensions are checked, as
    torch's order of errors has it."""
    left, arrow, right = equation.partition("->")
    labels = _subscripts(left, 0, count)
    if len(labels) < count:
        raise RuntimeError("einsum(): more operands were provided than specified in the "
                           "equation")
    return labels, ((right, len(left) + 2) if arrow else None)


def _subscripts(text: str, offset: int, count: int | None) -> list[list[int]]:
    """The label groups of one side: the operands' (split at commas, at most ``count``) or,
    with ``count`` None, the output's one group. torch's errors name the first wrong place."""
    groups: list[list[int]] = [[]]
    characters = iter(enumerate(text))
    for index, character in characters:
        if character == " ":
            continue
        if character == ".":
            _take_ellipsis(groups[-1], characters, None if count is None else len(groups) - 1)
        elif character == "," and count is not None:
            groups.append([])
            if len(groups) > count:
                raise RuntimeError("einsum(): fewer operands were provided than specified in "
                                   "the equation")
        elif _is_label(character):
            groups[-1].append(_label_number(character))
        else:
            raise RuntimeError(f"einsum(): invalid subscript given at index {offset + index} "
                               "in the equation string, subscripts must be in [a-zA-Z]")
    return groups


def _take_ellipsis(labels: list[int], characters, operand: int | None) -> None:
    """The "..." that starts at the '.' just read (``operand`` None: the output's)."""
    whose = "output" if operand is None else f"operand {operand}"
    if _ELLIPSIS in labels:
        found = "for which an ellipsis was already found" if operand is not None else \
            "but an ellipsis (...) was already found"
        raise RuntimeError(f"einsum(): found '.' for {whose} {found}")
    if next(characters, (0, ""))[1] != "." or next(characters, (0, ""))[1] != ".":
        tail = "any ellipsis (...)" if operand is None else "any ellipsis"
        raise RuntimeError(f"einsum(): found '.' for {whose} that is not part of {tail}")
    labels.append(_ELLIPSIS)


class _Lineup:
    """Where each label and ellipsis dimension goes in the one list of dimensions every
    operand is permuted to."""

    def __init__(self, labels: list[list[int]], operands: list, output: tuple[str, int] | None):
        self.labels = labels
        counts = [0] * _LABELS
        self.ellipsis_size = 0
        for index, (own, operand) in enumerate(zip(labels, operands, strict=True)):
            named = len(own) - (_ELLIPSIS in own)
            if _ELLIPSIS in own:
                if operand.ndim < named:
                    raise RuntimeError(f"einsum(): the number of subscripts in the equation "
                                       f"({named}) is more than the number of dimensions "
                                       f"({operand.ndim}) for operand {index}")
                self.ellipsis_size = max(self.ellipsis_size, operand.ndim - named)
            elif operand.ndim != named:
                raise RuntimeError(f"einsum(): the number of subscripts in the equation "
                                   f"({named}) does not match the number of dimensions "
                                   f"({operand.ndim}) for operand {index} and no ellipsis "
                                   "was given")
            for label in own:
                if label != _ELLIPSIS:
                    counts[label] += 1
        self.place = [-1] * _LABELS  # each label's dimension in the lined-up list
        self.ellipsis_at = -1
        size = self._place_output(_subscripts(*output, None)[0], counts) if output else \
            self._place_implicit_output(counts, any(_ELLIPSIS in own for own in labels))
        self.output_size = size
        if self.ellipsis_at < 0:
            self.ellipsis_at, size = size, size + self.ellipsis_size
        for label in range(_LABELS):
            if counts[label] and self.place[label] < 0:
                self.place[label], size = size, size + 1
        self.size = size
        self.sizes: list[int | None] = [None] * size  # each dimension's size, once seen

    def _place_output(self, output: list[int], counts: list[int]) -> int:
        size = 0
        for label in output:
            if label == _ELLIPSIS:
                self.ellipsis_at, size = size, size + self.ellipsis_size
                continue
            if counts[label] == 0 or self.place[label] >= 0:
                why = (" appears more than once in the output" if self.place[label] >= 0 else
                       " does not appear in the equation for any input operand")
                raise RuntimeError(f"einsum(): output subscript {_label_character(label)}{why}")
            self.place[label], size = size, size + 1
        return size

    def _place_implicit_output(self, counts: list[int], ellipsis: bool) -> int:
        """The ellipsis' dimensions, then the labels seen once, in ASCII order."""
        size = 0
        if ellipsis:
            self.ellipsis_at, size = 0, self.ellipsis_size
        for label in range(_LABELS):
            if counts[label] == 1:
                self.place[label], size = size, size + 1
        return size

    def operand(self, index: int, tensor: Tensor) -> Tensor:
        """The operand permuted onto the list (diagonals for repeated labels, size-1
        dimensions for the labels it lacks)."""
        order: list[int] = [-1] * self.size
        own_dim = [-1] * _LABELS
        ellipsis_dims = tensor.ndim - (len(self.labels[index]) - 1)
        dim = 0
        for label in self.labels[index]:
            if label == _ELLIPSIS:
                missing = self.ellipsis_size - ellipsis_dims
                for k in range(missing, self.ellipsis_size):
                    self._check_size(self.ellipsis_at + k, tensor.shape[dim], index,
                                     "ellipsis dimension")
                    order[self.ellipsis_at + k], dim = dim, dim + 1
            elif own_dim[label] >= 0:
                first = own_dim[label]
                if tensor.shape[dim] != tensor.shape[first]:
                    raise RuntimeError(f"einsum(): subscript {_label_character(label)} is "
                                       f"repeated for operand {index} but the sizes don't "
                                       f"match, {tensor.shape[dim]} != {tensor.shape[first]}")
                tensor = movedim(diagonal(tensor, 0, first, dim), -1, first)
            else:
                self._check_size(self.place[label], tensor.shape[dim], index,
                                 f"subscript {_label_character(label)}")
                own_dim[label] = dim
                order[self.place[label]], dim = dim, dim + 1
        for place, taken in enumerate(order):
            if taken < 0:
                tensor = tensor.unsqueeze(-1)
                order[place], dim = dim, dim + 1
        return tensor.permute(*order)

    def _check_size(self, place: int, size: int, index: int, what: str) -> None:
        """Sizes of one dimension must agree across operands, or be 1 (broadcast)."""
        seen = self.sizes[place]
        if seen is not None and size != seen and size != 1 and seen != 1:
            raise RuntimeError(f"einsum(): {what} has size {size} for operand {index} which "
                               f"does not broadcast with previously seen size {seen}")
        if seen is None or seen == 1:
            self.sizes[place] = size


def _combined(tensors: list[Tensor], lined_up: _Lineup) -> Tensor:
    """The operands combined left to right, summed dimensions dropped once no later operand
    has them (torch's order; it takes another only with opt_einsum installed)."""
    last_use = [0] * lined_up.size
    for index, tensor in enumerate(tensors):
        for dim, size in enumerate(tensor.shape):
            if size != 1:
                last_use[dim] = index
    result = tensors[0]
    for index in range(1, len(tensors)):
        other = tensors[index]
        contracted, left_only, right_only = [], [], []
        for dim in range(lined_up.output_size, lined_up.size):
            left, right = result.shape[dim] != 1, other.shape[dim] != 1
            if left and right:
                if last_use[dim] == index:
                    contracted.append(dim)
            elif last_use[dim] <= index:
                if left:
                    left_only.append(dim)
                elif right:
                    right_only.append(dim)
        if left_only:
            result = result.sum(tuple(left_only), keepdim=True)
        if right_only:
            other = other.sum(tuple(right_only), keepdim=True)
        result = _sum_of_products(result, other, contracted) if contracted else result * other
    if lined_up.size > lined_up.output_size:  # the summed dimensions, all size 1 by now
        result = result.view(tuple(result.shape[:lined_up.output_size]))
    return result


def _sum_of_products(left: Tensor, right: Tensor, summed: list[int]) -> Tensor:
    """Σ over ``summed`` of left * right, as one batched matrix product: the dimensions both
    have are its batch, the left's own its rows, the right's (and the size-1 ones) its
    columns, the sides swapped when all the right's come first; the summed ones stay, as
    size 1."""
    if left.dtype != right.dtype:
        raise RuntimeError(f"expected scalar type {_type_name(left)} but found "
                           f"{_type_name(right)}")
    both, left_own, right_own = [], [], []
    for dim in range(left.ndim):
        if dim in summed:
            continue
        if left.shape[dim] != 1 and right.shape[dim] != 1:
            both.append(dim)
        elif left.shape[dim] != 1:
            left_own.append(dim)
        else:
            right_own.append(dim)
    if left_own and right_own and right_own[-1] < left_own[0]:
        # torch swaps the sides then: the product comes out in the output's order
        left, right, left_own, right_own = right, left, right_own, left_own
    shape = ([left.shape[dim] for dim in both + left_own] + [1] * len(summed)
             + [right.shape[dim] for dim in right_own])
    left_order = both + left_own + summed + right_own
    flat_left = left.permute(*left_order).reshape(
        _count(left, both), _count(left, left_own), _count(left, summed))
    flat_right = right.permute(*(both + summed + right_own + left_own)).reshape(
        _count(left, both), _count(left, summed), _count(right, right_own))
    product = flat_left.bmm(flat_right).view(tuple(shape))
    return product.permute(*[int(i) for i in np.argsort(left_order)])


def _count(tensor: Tensor, dims: list[int]) -> int:
    total = 1
    for dim in dims:
        total *= tensor.shape[dim]
    return total


def _type_name(tensor: Tensor) -> str:
    return {"float32": "Float", "float64": "Double", "float16": "Half", "int64": "Long",
            "int32": "Int", "int16": "Short", "int8": "Char", "uint8": "Byte",
            "bool": "Bool"}.get(tensor._data.dtype.name, tensor._data.dtype.name)

