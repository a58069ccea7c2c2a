"""torch.func for tutorial code: grad, vjp, jvp, linearize, jacrev, jacfwd, hessian, vmap,
functional_call.

Built on the engine's reverse mode: a transform differentiates fresh copies of its inputs, so
its results carry no graph unless an input already required grad or the function reaches
another tensor that does (then they stay attached, which is what nesting transforms, as
hessian does, and a loss on a closed-over parameter need). ``jvp`` is the double-vjp
trick; ``vmap`` is ``_vmap.py``'s.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ._missing import missing_attribute
from ._vmap import vmap

__all__ = ["functional_call", "grad", "grad_and_value", "hessian", "jacfwd", "jacrev", "jvp",
           "linearize",
           "stack_module_state", "vjp", "vmap"]


def _torch():
    from playground import npgrad  # at call time: npgrad imports this module while loading

    return npgrad


# ----- inputs made differentiable ---------------------------------------------------------------
def _tensors_of(value) -> list:
    """The tensors in a tensor, or in a (nested) tuple, list or dict of them, in order."""
    if isinstance(value, tuple | list):
        return [t for item in value for t in _tensors_of(item)]
    if isinstance(value, dict):
        return [t for item in value.values() for t in _tensors_of(item)]
    return [value] if isinstance(value, _torch().Tensor) else []


def _mapped(value, change: Callable):
    """``value`` with each tensor in it replaced by ``change(tensor)``."""
    if isinstance(value, tuple | list):
        return type(value)(_mapped(item, change) for item in value)
    if isinstance(value, dict):
        return {key: _mapped(item, change) for key, item in value.items()}
    return change(value) if isinstance(value, _torch().Tensor) else value


def _differentiable(value):
    """A copy to differentiate: attached to the input when it already requires grad (a
    transform inside another), else a fresh leaf."""
    return value.view_as(value) if value.requires_grad else value.detach().requires_grad_(True)


def _prepared(args: tuple, argnums: int | tuple[int, ...]) -> tuple[tuple, list, bool]:
    """The arguments with those at ``argnums`` made differentiable; those tensors; and
    whether the results must keep a graph (an input required grad already)."""
    numbers = (argnums,) if isinstance(argnums, int) else tuple(argnums)
    for number in numbers:
        if not -len(args) <= number < len(args):
            raise RuntimeError(f"Got argnums={argnums} but only {len(args)} positional inputs")
    attached = any(t.requires_grad for n in numbers for t in _tensors_of(args[n]))
    args = list(args)
    for number in numbers:
        args[number] = _mapped(args[number], _differentiable)
    inputs = [t for n in numbers for t in _tensors_of(args[n])]
    return tuple(args), inputs, attached


def _shaped_like(argnums, args: tuple, flat: list):
    """Per-input results (one per tensor) back in the shape of the inputs at ``argnums``."""
    values = iter(flat)
    if isinstance(argnums, int):
        return _mapped(args[argnums], lambda _: next(values))
    return tuple(_mapped(args[n], lambda _: next(values)) for n in argnums)


def _gradients(outputs: list, inputs: list, cotangents: list, keep_graph: bool) -> list:
    """Vector-Jacobian products; zeros for inputs the outputs do not depend on."""
    torch = _torch()
    pairs = [(o, c) for o, c in zip(outputs, cotangents, strict=True) if o.requires_grad]
    if not pairs or not inputs:
        return [torch.zeros_like(t) for t in inputs]
    with torch.enable_grad():
        found = torch.autograd.grad([o for o, _ in pairs], inputs, [c for _, c in pairs],
                                    retain_graph=True, create_graph=keep_graph,
                                    allow_unused=True)
    return [torch.zeros_like(t) if g is None else g for g, t in zip(found, inputs, strict=True)]


def _released(value, keep_graph: bool):
    return value if keep_graph else _mapped(value, lambda t: t.detach())


@dataclass
class _Traced:
    """A call of the user's function on differentiable copies of its inputs at ``argnums``."""

    args: tuple    # the arguments it got
    inputs: list   # the tensors differentiated against
    keep: bool     # results stay attached to inputs that already required grad
    output: object
    aux: object = None
    has_aux: bool = False

    @property
    def outputs(self) -> list:
        return _tensors_of(self.output)

    def shaped(self, argnums, flat: list):
        return _shaped_like(argnums, self.args, flat)

    def with_aux(self, result):
        return (result, _released(self.aux, self.keep)) if self.has_aux else result


def _traced(func: Callable, args: tuple, kwargs: dict, argnums, has_aux: bool,
            caller: str) -> _Traced:
    with _torch().enable_grad():
        args, inputs, keep = _prepared(tuple(args), argnums)
        result = func(*args, **kwargs)
    if has_aux and not (isinstance(result, tuple) and len(result) == 2):
        raise RuntimeError(f"{caller}: output of function f should be a tuple: (output, aux) "
                           "if has_aux is True")
    output, aux = result if has_aux else (result, None)
    keep = keep or _reaches_other_leaves(_tensors_of(output), inputs)
    return _Traced(args, inputs, keep, output, aux, has_aux)


def _reaches_other_leaves(outputs: list, inputs: list) -> bool:
    """Whether the outputs' graph reaches a leaf that requires grad besides the transform's
    own inputs (a closed-over parameter): torch's results then stay differentiable in it."""
    own = {id(tensor) for tensor in inputs}
    waiting = [output.grad_fn for output in outputs if output.grad_fn is not None]
    seen = set()
    while waiting:
        node = waiting.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        variable = getattr(node, "variable", None)
        if variable is not None and id(variable) not in own:
            return True
        waiting.extend(next_node for next_node, _ in node.next_functions)
    return False


def _pushed_forward(call: _Traced, tangents_for: Callable) -> list:
    """Jacobian-vector products by the double-vjp trick: u^T J with u a graph leaf, then
    differentiated against u along each tangent (``tangents_for(pulled)`` gives them)."""
    torch = _torch()
    dummies = [torch.zeros_like(o).requires_grad_(True) for o in call.outputs]
    pulled = _gradients(call.outputs, call.inputs, dummies, True)
    return [_gradients(pulled, dummies, tangents, call.keep)
            for tangents in tangents_for(pulled)]


# ----- grad, vjp, jvp ---------------------------------------------------------------------------
def grad_and_value(func: Callable, argnums: int | tuple[int, ...] = 0, has_aux: bool = False):
    """A function returning (the gradient of ``func`` w.r.t. the inputs at ``argnums``, its
    value); ``func`` must return a scalar tensor (and an auxiliary value with ``has_aux``)."""

    @functools.wraps(func)
    def transformed(*args, **kwargs):
        torch = _torch()
        call = _traced(func, args, kwargs, argnums, has_aux, "grad_and_value(f)(*args)")
        output = call.output
        if not isinstance(output, torch.Tensor) or output.dim() != 0:
            dims = output.dim() if isinstance(output, torch.Tensor) else None
            raise RuntimeError(
                f"grad_and_value(f)(*args): Expected f(*args) to return a scalar Tensor, got "
                f"tensor with {dims} dims. Maybe you wanted to use the vjp or jacrev APIs "
                "instead?")
        found = _gradients([output], call.inputs, [torch.ones_like(output)], call.keep)
        value = _released(output, call.keep)
        return call.shaped(argnums, found), call.with_aux(value)

    return transformed


def grad(func: Callable, argnums: int | tuple[int, ...] = 0, has_aux: bool = False):
    """A function returning the gradient of ``func`` (a scalar) w.r.t. its inputs at
    ``argnums``; with ``has_aux``, (gradient, aux)."""
    both = grad_and_value(func, argnums, has_aux)

    @functools.wraps(func)
    def transformed(*args, **kwargs):
        gradient, value = both(*args, **kwargs)
        return (gradient, value[1]) if has_aux else gradient

    return transformed


def vjp(func: Callable, *primals, has_aux: bool = False):
    """``func(*primals)`` and a function from cotangents (shaped as the output) to the
    vector-Jacobian products, one per primal."""
    every = tuple(range(len(primals)))
    call = _traced(func, primals, {}, every, has_aux, "vjp(f, *primals)")

    def vjp_fn(cotangents):
        given = _tensors_of(cotangents)
        if len(given) != len(call.outputs):
            raise RuntimeError("Expected pytree structure of cotangents to be the same as "
                               "pytree structure of outputs to the function")
        attached = call.keep or any(c.requires_grad for c in given)
        return call.shaped(every, _gradients(call.outputs, call.inputs, given, attached))

    released = _released(call.output, call.keep)
    return (released, vjp_fn, _released(call.aux, call.keep)) if has_aux else \
        (released, vjp_fn)


def jvp(func: Callable, primals: Sequence, tangents: Sequence, *, has_aux: bool = False):
    """(``func(*primals)``, the Jacobian-vector product with ``tangents``)."""
    if not isinstance(primals, tuple | list) or not isinstance(tangents, tuple | list):
        raise RuntimeError("jvp(f, primals, tangents): Expected primals and tangents to be tuples")
    if len(primals) != len(tangents):
        raise RuntimeError("jvp(f, primals, tangents): Expected primals and tangents to have the "
                           "same python structure")
    call = _traced(func, primals, {}, tuple(range(len(primals))), has_aux,
                   "jvp(f, primals, tangents)")
    (pushed,) = _pushed_forward(call, lambda _: [_tensors_of(tuple(tangents))])
    flat = iter(pushed)
    # (torch hands the primal output on as an alias of the one its level computed)
    primal = _mapped(call.output, lambda t: t[...]) if call.keep else call.output
    answer = (_released(primal, call.keep),
              _released(_mapped(call.output, lambda _: next(flat)), call.keep))
    return (*answer, _released(call.aux, call.keep)) if has_aux else answer


def linearize(func: Callable, *primals):
    """(``func(*primals)``, a function of tangents giving the Jacobian-vector product there);
    torch traces ``func`` once, the engine runs jvp at each call (the same values)."""
    output = func(*primals)

    def jvp_fn(*tangents):
        if len(tangents) != len(primals):
            raise RuntimeError(f"Expected the tangents {_tuple_spec(len(tangents))} to have the "
                               f"same argspec as the primals {_tuple_spec(len(primals))}")
        for index, (tangent, primal) in enumerate(zip(tangents, primals, strict=True)):
            for what, mine, theirs in (("shape", tangent.shape, primal.shape),
                                       ("dtype", tangent.dtype, primal.dtype)):
                if mine != theirs:
                    raise RuntimeError(f"tangent:{index} with {what} {mine} in flattened pytree "
                                       f"doesn't match the {what} {theirs} of the "
                                       "corresponding primal.")
        return jvp(func, primals, tangents)[1]

    return output, jvp_fn


def _tuple_spec(count: int) -> str:
    """How torch's pytree prints the spec of a tuple of ``count`` tensors."""
    return "TreeSpec(tuple, None, [" + ",\n  ".join("*" * bool(count) for _ in
                                                     range(max(count, 1))) + "])"


# ----- Jacobians --------------------------------------------------------------------------------
def jacrev(func: Callable, argnums: int | tuple[int, ...] = 0, *, has_aux: bool = False,
           chunk_size: int | None = None):
    """A function returning the Jacobian of ``func`` w.r.t. the inputs at ``argnums``, a row
    per output element (one vjp with a one-hot cotangent each), shaped out.shape + in.shape."""

    @functools.wraps(func)
    def transformed(*args, **kwargs):
        call = _traced(func, args, kwargs, argnums, has_aux, "jacrev(f, ...)(*args)")
        per_output = [_rows(o, call.inputs, call.keep) for o in call.outputs]
        return call.with_aux(_nested(call.output, per_output,
                                     lambda flat: call.shaped(argnums, flat)))

    return transformed


def _rows(output, inputs: list, keep: bool) -> list:
    """d output / d input for each input, from one vjp per output element."""
    torch = _torch()
    rows = []
    flat = output.reshape(-1)
    for index in range(flat.numel()):
        one_hot = torch.zeros_like(flat)
        one_hot[index] = 1
        rows.append(_gradients([output], inputs, [one_hot.view_as(output)], keep))
    return [_stack_as([row[k] for row in rows], output.shape + t.shape, t)
            for k, t in enumerate(inputs)]


def _stack_as(parts: list, shape: tuple, like, dim: int = 0):
    """Rows (dim 0) or columns (dim -1) of a Jacobian, shaped out.shape + in.shape."""
    torch = _torch()
    if not parts:
        return torch.zeros(shape, dtype=like.dtype)
    return torch.stack(parts, dim=dim).reshape(shape)


def _nested(output, per_output: list, shape_inputs: Callable):
    """One result per output tensor, in the output's structure (a lone tensor: its own)."""
    results = iter(per_output)
    return _mapped(output, lambda _: shape_inputs(next(results)))


def jacfwd(func: Callable, argnums: int | tuple[int, ...] = 0, has_aux: bool = False, *,
           randomness: str = "error"):
    """A function returning the Jacobian of ``func`` w.r.t. the inputs at ``argnums``, a
    column per input element (one jvp with a one-hot tangent each)."""

    @functools.wraps(func)
    def transformed(*args, **kwargs):
        call = _traced(func, args, kwargs, argnums, has_aux, "jacfwd(f, ...)(*args)")
        columns = _pushed_forward(call, lambda pulled: _one_hot_tangents(pulled, call.inputs))
        outputs, inputs = call.outputs, call.inputs
        per_output = []
        for j, output in enumerate(outputs):
            blocks, start = [], 0
            for given in inputs:
                parts = [column[j] for column in columns[start:start + given.numel()]]
                blocks.append(_stack_as(parts, output.shape + given.shape, output, dim=-1))
                start += given.numel()
            per_output.append(blocks)
        return call.with_aux(_nested(call.output, per_output,
                                     lambda flat: call.shaped(argnums, flat)))

    return transformed


def _one_hot_tangents(pulled: list, inputs: list) -> list[list]:
    """A tangent per element of every input: one-hot there, zeros for the other inputs."""
    torch = _torch()
    every = []
    for position, given in enumerate(inputs):
        for index in range(given.numel()):
            tangent = torch.zeros(given.numel(), dtype=given.dtype)
            tangent[index] = 1
            every.append([tangent.view_as(given) if k == position else torch.zeros_like(p)
                          for k, p in enumerate(pulled)])
    return every


def hessian(func: Callable, argnums: int | tuple[int, ...] = 0):
    """The Hessian of a scalar ``func``: forward over reverse, as torch computes it."""
    return jacfwd(jacrev(func, argnums), argnums)


def stack_module_state(models) -> tuple[dict, dict]:
    """Same-shaped models' parameters and buffers, each stacked along a new first dimension
    (the parameters as new leaves that require grad where the models' did), for vmap."""
    models = list(models)
    if not models:
        raise RuntimeError("stack_module_state: Expected at least one model, got 0.")
    if not (all(m.training for m in models) or not any(m.training for m in models)):
        raise RuntimeError("stack_module_state: Expected all models to have the same training/"
                           "eval mode.")
    torch = _torch()

    def stacked(named: list[dict], leaf: bool) -> dict:
        result = {}
        for name in named[0]:
            values = [table[name] for table in named]
            together = torch.stack([value.detach() for value in values])
            if leaf and values[0].requires_grad:
                together.requires_grad_(True)
            result[name] = together
        return result

    return (stacked([dict(m.named_parameters()) for m in models], True),
            stacked([dict(m.named_buffers()) for m in models], False))


# ----- modules as functions -------------------------------------------------------------------
def functional_call(module, parameter_and_buffer_dicts, args=(), kwargs=None, *,
                    tie_weights: bool = True, strict: bool = False):
    """``module(*args, **kwargs)`` with its parameters and buffers replaced, for the call only,
    by the tensors named in ``parameter_and_buffer_dicts``."""
    dicts = parameter_and_buffer_dicts
    given = {k: v for d in dicts for k, v in d.items()} if isinstance(dicts, tuple | list) \
        else dict(dicts)
    if strict:
        _check_keys(module, given)
    with _swapped(module, given):
        return module(*(args if isinstance(args, tuple) else (args,)), **(kwargs or {}))


def _check_keys(module, given: dict) -> None:
    """strict=True: the names given must be the module's parameters and buffers, all of them
    (torch's words, unexpected names first, each list sorted)."""
    valid = {name for name, _ in module.named_parameters(remove_duplicate=False)} | \
        {name for name, _ in module.named_buffers(remove_duplicate=False)}
    unexpected, missing = sorted(set(given) - valid), sorted(valid - set(given))
    errors = [f"{label} key(s): {', '.join(map(repr, keys))}."
              for label, keys in (("Unexpected", unexpected), ("Missing", missing)) if keys]
    if errors:
        raise RuntimeError(f"Error(s) in reparametrizing for {type(module).__name__}:\n\t"
                           + "\n\t".join(errors))


@contextlib.contextmanager
def _swapped(module, given: dict):
    saved = []
    try:
        for name, value in given.items():
            owner_name, _, leaf = name.rpartition(".")
            owner = module
            for part in owner_name.split(".") if owner_name else ():
                owner = owner._modules[part]
            table = owner._parameters if leaf in owner._parameters else owner.__dict__
            saved.append((table, leaf, table.get(leaf)))
            table[leaf] = value
        yield
    finally:
        for table, leaf, old in reversed(saved):
            table[leaf] = old

# What the engine lacks, said with torch's module name and what to do.
__getattr__ = missing_attribute("torch.func")
