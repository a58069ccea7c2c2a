"""torch.autograd.functional for tutorial code: vjp, jvp, jacobian, hessian, vhp, hvp.

As torch does it with reverse mode only: inputs are detached copies (or views, with
``create_graph``), a Jacobian is one gradient per output element stacked into
out.shape + in.shape, and jvp and hvp use the double-backward trick. Results are detached
unless ``create_graph``; a tuple in gives a tuple out.
"""

from __future__ import annotations

from collections.abc import Callable

from .._missing import missing_attribute

__all__ = ["hessian", "hvp", "jacobian", "jvp", "vhp", "vjp"]


def _torch():
    from playground import npgrad  # at call time: npgrad imports this module while loading

    return npgrad


def _as_tuple(value, what: str, function: str) -> tuple[bool, tuple]:
    """(whether it was a tuple, the tensors as a tuple), with torch's error for others."""
    is_tuple = isinstance(value, tuple)
    values = value if is_tuple else (value,)
    for index, item in enumerate(values):
        if not isinstance(item, _torch().Tensor):
            which = f"the value at index {index}" if is_tuple else f"the given {what}"
            raise TypeError(f"The {what} given to {function} must be either a Tensor or a tuple "
                            f"of Tensors but {which} has type {type(item)}.")
    return is_tuple, values


def _prepared(inputs: tuple, create_graph: bool, need_graph: bool) -> tuple:
    """Inputs to differentiate: attached views when the graph is to be kept, else copies."""
    return tuple(item.view_as(item) if create_graph and item.requires_grad
                 else item.detach().requires_grad_(need_graph) for item in inputs)


def _released(values: tuple, create_graph: bool) -> tuple:
    if values and isinstance(values[0], tuple):
        return tuple(_released(item, create_graph) for item in values)
    return values if create_graph else tuple(item.detach() for item in values)


def _unpacked(result: tuple, was_tuple):
    """Back to a lone tensor where the user gave one (two flags: outputs then inputs)."""
    if isinstance(was_tuple, tuple):
        outputs_tuple, inputs_tuple = was_tuple
        if not inputs_tuple:
            result = tuple(item[0] for item in result)
        return result if outputs_tuple else result[0]
    return result if was_tuple else result[0]


def _grad(outputs: tuple, inputs: tuple, grad_outputs=None, create_graph: bool = False,
          retain_graph: bool | None = None) -> tuple:
    """autograd.grad of the outputs that require grad; Nones where nothing flows."""
    grad_outputs = (None,) * len(outputs) if grad_outputs is None else grad_outputs
    kept = [(out, given) for out, given in zip(outputs, grad_outputs, strict=True)
            if out is not None and out.requires_grad]
    if not kept:
        return (None,) * len(inputs)
    return _torch().autograd.grad(tuple(o for o, _ in kept), inputs, tuple(g for _, g in kept),
                                  allow_unused=True, create_graph=create_graph,
                                  retain_graph=retain_graph)


def _zeros_for_none(grads: tuple, references: tuple, strict: bool, stage: str) -> tuple:
    filled = []
    for index, (found, reference) in enumerate(zip(grads, references, strict=True)):
        if found is None:
            if strict:
                raise RuntimeError(_STRICT_MESSAGES[stage].format(index=index))
            found = _torch().zeros_like(reference)
        filled.append(found)
    return tuple(filled)


_STRICT_MESSAGES = {
    "back": "The output of the user-provided function is independent of input {index}. This "
            "is not allowed in strict mode.",
    "back_trick": "The gradient with respect to the input is independent of entry {index} in "
                  "the grad_outputs when using the double backward trick to compute forward "
                  "mode gradients. This is not allowed in strict mode.",
    "double_back": "The jacobian of the user-provided function is independent of input "
                   "{index}. This is not allowed in strict mode.",
    "double_back_trick": "The hessian of the user-provided function is independent of entry "
                         "{index} in the grad_jacobian. This is not allowed in strict mode as "
                         "it prevents from using the double backward trick to replace forward "
                         "mode AD.",
}


_INDEPENDENT_OF_INPUT = {
    "hessian": "The hessian of the user-provided function with respect to input {index} is "
               "independent of the input. This is not allowed in strict mode. You should "
               "ensure that your function is thrice differentiable and that the hessian "
               "depends on the inputs.",
    "jacobian": "While computing the hessian, found that the jacobian of the user-provided "
                "function with respect to input {index} is independent of the input. This is "
                "not allowed in strict mode. You should ensure that your function is twice "
                "differentiable and that the jacobian depends on the inputs (this would be "
                "violated by a linear function for example).",
    "grad_inputs": "The gradient with respect to input {index} is independent of the inputs "
                   "of the user-provided function. This is not allowed in strict mode.",
    "outputs": "Output {index} of the user-provided function does not require gradients. The "
               "outputs must be computed in a differentiable manner from the input when "
               "running in strict mode.",
}


def _check_requires_grad(values: tuple, kind: str, strict: bool) -> None:
    """strict mode's refusal of outputs (or first derivatives) that do not depend on the
    inputs, at the point torch checks them and in its words."""
    if not strict:
        return
    for index, value in enumerate(values):
        if value is None:
            raise RuntimeError(_STRICT_MESSAGES["back"].format(index=index))
        if not value.requires_grad:
            raise RuntimeError(_INDEPENDENT_OF_INPUT[kind].format(index=index))


def _checked_v(v: tuple, others: tuple, others_tuple: bool) -> None:
    if len(v) != len(others):
        if others_tuple:
            raise RuntimeError(f"v is a tuple of invalid length: should be {len(others)} but "
                               f"got {len(v)}.")
        raise RuntimeError("The given v should contain a single Tensor.")
    for index, (given, other) in enumerate(zip(v, others, strict=True)):
        if given.size() != other.size():
            where = f"Entry {index} in " if others_tuple else ""
            raise RuntimeError(f"{where}v has invalid size: should be {other.size()} but got "
                               f"{given.size()}.")


def _cotangents(v, outputs: tuple, outputs_tuple: bool) -> tuple:
    """vjp's v, checked against the outputs; None (ones) only for one single-element output."""
    if v is not None:
        _, v = _as_tuple(v, "v", "vjp")
        v = _prepared(v, create_graph=False, need_graph=False)
        _checked_v(v, outputs, outputs_tuple)
        return v
    if len(outputs) != 1 or outputs[0].nelement() != 1:
        raise RuntimeError("The vector v can only be None if the user-provided function "
                           "returns a single Tensor with a single element.")
    return (None,) * len(outputs)


# ----- the functions ------------------------------------------------------------------------------
def vjp(func: Callable, inputs, v=None, create_graph: bool = False, strict: bool = False):
    """(func(inputs), v^T J): the vector-Jacobian product at ``inputs``."""
    torch = _torch()
    with torch.enable_grad():
        inputs_tuple, inputs = _as_tuple(inputs, "inputs", "vjp")
        inputs = _prepared(inputs, create_graph, need_graph=True)
        outputs_tuple, outputs = _as_tuple(func(*inputs),
                                           "outputs of the user-provided function", "vjp")
        _check_requires_grad(outputs, "outputs", strict)
        v = _cotangents(v, outputs, outputs_tuple)
        products = _zeros_for_none(_grad(outputs, inputs, v, create_graph), inputs, strict,
                                   "back")
    return (_unpacked(_released(outputs, create_graph), outputs_tuple),
            _unpacked(_released(products, create_graph), inputs_tuple))


def jvp(func: Callable, inputs, v=None, create_graph: bool = False, strict: bool = False):
    """(func(inputs), J v), by the double-backward trick."""
    torch = _torch()
    with torch.enable_grad():
        inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jvp")
        inputs = _prepared(inputs, create_graph, need_graph=True)
        if v is not None:
            _, v = _as_tuple(v, "v", "jvp")
            v = _prepared(v, create_graph=False, need_graph=False)
            _checked_v(v, inputs, inputs_tuple)
        elif len(inputs) != 1 or inputs[0].nelement() != 1:
            raise RuntimeError("The vector v can only be None if the input to the "
                               "user-provided function is a single Tensor with a single "
                               "element.")
        outputs_tuple, outputs = _as_tuple(func(*inputs),
                                           "outputs of the user-provided function", "jvp")
        _check_requires_grad(outputs, "outputs", strict)
        dummies = tuple(torch.zeros_like(out, requires_grad=True) for out in outputs)
        pulled = _grad(outputs, inputs, dummies, create_graph=True)
        _check_requires_grad(pulled, "grad_inputs", strict)
        products = _zeros_for_none(_grad(pulled, dummies, v, create_graph), outputs, strict,
                                   "back_trick")
    return (_unpacked(_released(outputs, create_graph), outputs_tuple),
            _unpacked(_released(products, create_graph), outputs_tuple))


def jacobian(func: Callable, inputs, create_graph: bool = False, strict: bool = False,
             vectorize: bool = False, strategy: str = "reverse-mode"):
    """The Jacobian of ``func`` at ``inputs``: per output and input, out.shape + in.shape,
    one gradient per output element (the same numbers for either ``strategy``; torch's
    forward mode hands them back in lists)."""
    _checked_strategy(strategy, create_graph, strict, vectorize)
    return _jacobian(func, inputs, create_graph, strict, strategy == "forward-mode")


def _jacobian(func: Callable, inputs, create_graph: bool, strict: bool, forward: bool,
              attached: bool | None = None):
    """jacobian's numbers. Forward mode (``forward``) hands back lists, each block of its
    output's dtype (reverse mode's: its input's), and where its
    inputs require grad (``attached``: the forward-over-reverse hessian's do) a block with a
    graph is a view of the tangents laid out as torch's are (ReshapeAliasBackward0 on top)."""
    torch = _torch()
    with torch.enable_grad():
        inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
        if forward:
            attached = any(item.requires_grad for item in inputs) if attached is None \
                else attached
            create_graph = attached
        inputs = _prepared(inputs, create_graph, need_graph=True)
        outputs_tuple, outputs = _as_tuple(func(*inputs),
                                           "outputs of the user-provided function",
                                           "jacobian")
        _check_requires_grad(outputs, "outputs", strict)
        blocks = tuple(_blocks(output, inputs, create_graph, strict) for output in outputs)
        blocks = _released(blocks, create_graph)
        if forward:
            blocks = [[_as_tangents(block.to(output.dtype), output, given)
                       if block.requires_grad else block.to(output.dtype)
                       for block, given in zip(row, inputs, strict=True)]
                      for row, output in zip(blocks, outputs, strict=True)]
    return _unpacked(blocks, (outputs_tuple, inputs_tuple))


def _as_tangents(block, output, given):
    """A block with a graph as forward mode makes it: one tangent per input element, laid
    out first, then moved to the end and reshaped (a view: ReshapeAlias, or View where that
    is contiguous). (Torch's tangents of a linear function keep a graph too; these do not.)"""
    tangents = block.reshape(*output.shape, given.numel()).movedim(-1, 0).contiguous()
    return tangents.permute(*range(1, tangents.ndim), 0).reshape(
        (*output.shape, *given.shape))


_FORWARD_WITH = ("torch.autograd.functional.jacobian: `{}=True` and `strategy=\"forward-mode\"` "
                 "are not supported together (yet). Please either set `{}=False` or "
                 "`strategy=\"reverse-mode\"`.")


def _checked_strategy(strategy: str, create_graph: bool, strict: bool, vectorize: bool) -> None:
    """torch's refusals of a strategy it lacks, and of what its forward mode cannot do."""
    if strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError(
            'Expected strategy to be either "forward-mode" or "reverse-mode". Hint: If your '
            'function has more outputs than inputs, "forward-mode" tends to be more '
            'performant. Otherwise, prefer to use "reverse-mode".')
    if strategy == "forward-mode":
        if create_graph:
            raise NotImplementedError(_FORWARD_WITH.format("create_graph", "create_graph"))
        if strict:
            raise RuntimeError(_FORWARD_WITH.format("strict", "strict"))
        if not vectorize:
            raise NotImplementedError("Computing Jacobian using forward-AD or forward-over-"
                                      "reverse Hessian isonly implemented for `vectorize=True`.")


def _blocks(output, inputs: tuple, create_graph: bool, strict: bool) -> tuple:
    torch = _torch()
    rows: list[list] = [[] for _ in inputs]
    flat = output.reshape(-1)
    for index in range(output.nelement()):
        found = _grad((flat[index],), inputs, retain_graph=True, create_graph=create_graph)
        for number, (row, gradient, given) in enumerate(zip(rows, found, inputs, strict=True)):
            if gradient is None:
                if strict:
                    raise RuntimeError(f"Output {index} of the user-provided function is "
                                       f"independent of input {number}. This is not allowed "
                                       "in strict mode.")
                gradient = torch.zeros_like(given)
            row.append(gradient)
    return tuple(torch.stack(row, dim=0).view(output.size() + given.size()) if row else
                 torch.zeros(output.size() + given.size(), dtype=given.dtype)
                 for row, given in zip(rows, inputs, strict=True))


def hessian(func: Callable, inputs, create_graph: bool = False, strict: bool = False,
            vectorize: bool = False, outer_jacobian_strategy: str = "reverse-mode"):
    """The Hessian of a function returning one element: the Jacobian of its Jacobian."""
    inputs_tuple, inputs = _as_tuple(inputs, "inputs", "hessian")
    if outer_jacobian_strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode".')

    def single_output(*given):
        output = func(*given)
        _check_requires_grad(_as_tuple(output, "outputs of the user-provided function",
                                       "hessian")[1], "outputs", strict)
        if isinstance(output, tuple) or not isinstance(output, _torch().Tensor):
            raise RuntimeError("The function given to hessian should return a single Tensor")
        if output.nelement() != 1:
            raise RuntimeError("The Tensor returned by the function given to hessian should "
                               "contain a single element")
        return output.squeeze()

    def first_derivatives(*given):
        found = jacobian(single_output, given, create_graph=True)
        _check_requires_grad(_as_tuple(found, "jacobian", "hessian")[1], "jacobian", strict)
        return found

    if outer_jacobian_strategy == "forward-mode":  # (torch's inputs then require grad)
        _checked_strategy("forward-mode", create_graph, strict, vectorize)
        result = _jacobian(first_derivatives, inputs, create_graph, strict, True, True)
    else:
        result = jacobian(first_derivatives, inputs, create_graph=create_graph, strict=strict)
    return _unpacked(result, (inputs_tuple, inputs_tuple))


def _scalar_checked(outputs: tuple, outputs_tuple: bool, function: str) -> None:
    if outputs_tuple or not isinstance(outputs[0], _torch().Tensor):
        raise RuntimeError(f"The function given to {function} should return a single Tensor")
    if outputs[0].nelement() != 1:
        raise RuntimeError(f"The Tensor returned by the function given to {function} should "
                           "contain a single element")


def _first_derivatives(func: Callable, inputs, v, create_graph: bool, strict: bool,
                       function: str):
    """The prepared inputs and v, the outputs and their Jacobian (kept as a graph)."""
    inputs_tuple, inputs = _as_tuple(inputs, "inputs", function)
    inputs = _prepared(inputs, create_graph, need_graph=True)
    if v is not None:
        _, v = _as_tuple(v, "v", function)
        v = _prepared(v, create_graph=False, need_graph=False)
        _checked_v(v, inputs, inputs_tuple)
    elif len(inputs) != 1 or inputs[0].nelement() != 1:
        raise RuntimeError("The vector v can only be None if the input to the user-provided "
                           "function is a single Tensor with a single element.")
    outputs_tuple, outputs = _as_tuple(func(*inputs), "outputs of the user-provided function",
                                       function)
    _check_requires_grad(outputs, "outputs", strict)
    _scalar_checked(outputs, outputs_tuple, function)
    first = _grad(outputs, inputs, create_graph=True)
    _check_requires_grad(first, "jacobian", strict)
    return inputs_tuple, inputs, v, outputs, first


def vhp(func: Callable, inputs, v=None, create_graph: bool = False, strict: bool = False):
    """(func(inputs), v^T H) for a function returning one element."""
    torch = _torch()
    with torch.enable_grad():
        inputs_tuple, inputs, v, outputs, first = _first_derivatives(func, inputs, v,
                                                                     create_graph, strict,
                                                                     "vhp")
    with torch.set_grad_enabled(create_graph or torch.is_grad_enabled()):
        products = _zeros_for_none(_grad(first, inputs, v, create_graph), inputs, strict,
                                   "double_back")
    return (_unpacked(_released(outputs, create_graph), False),
            _unpacked(_released(products, create_graph), inputs_tuple))


def hvp(func: Callable, inputs, v=None, create_graph: bool = False, strict: bool = False):
    """(func(inputs), H v) for a function returning one element, by the double-backward
    trick over the Jacobian."""
    torch = _torch()
    with torch.enable_grad():
        inputs_tuple, inputs, v, outputs, first = _first_derivatives(func, inputs, v,
                                                                     create_graph, strict,
                                                                     "hvp")
        dummies = tuple(torch.zeros_like(item, requires_grad=True) for item in inputs)
        twice = _grad(first, inputs, dummies, create_graph=True)
    with torch.set_grad_enabled(create_graph or torch.is_grad_enabled()):
        products = _zeros_for_none(_grad(twice, dummies, v, create_graph), inputs, strict,
                                   "double_back_trick")
    return (_unpacked(_released(outputs, create_graph), False),
            _unpacked(_released(products, create_graph), inputs_tuple))

# What the engine lacks, said with torch's module name and what to do.
__getattr__ = missing_attribute("torch.autograd.functional")
