"""torch.autograd.gradcheck and gradgradcheck: backward (and, with ``check_forward_ad``,
forward-mode AD) checked against finite differences.

The numerical Jacobian takes central differences, one input element at a time (x ± eps,
changed in place and put back); the analytical one is one backward per output element, or one
forward-mode pass per input element. They must agree within ``atol + rtol * |numerical|``, or
torch's GradcheckError says where not.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable

import numpy as np

from .._grad_mode import enable_grad, no_grad
from .._tensor import Tensor

__all__ = ["GradcheckError", "gradcheck", "gradgradcheck"]


class GradcheckError(RuntimeError):
    """The analytical and numerical Jacobians differ."""


def gradcheck(func: Callable, inputs, *, eps: float = 1e-6, atol: float = 1e-5,
              rtol: float = 1e-3, raise_exception: bool = True, nondet_tol: float = 0.0,
              check_undefined_grad: bool = True, check_grad_dtypes: bool = False,
              check_batched_grad: bool = False, check_batched_forward_grad: bool = False,
              check_forward_ad: bool = False, check_backward_ad: bool = True,
              fast_mode: bool = False, masked: bool | None = None) -> bool:
    """True when ``func``'s gradients at ``inputs`` match finite differences."""
    inputs = inputs if isinstance(inputs, tuple) else (inputs,)
    differentiable = [n for n, value in enumerate(inputs)
                      if isinstance(value, Tensor) and value.requires_grad]
    _check_inputs(inputs)
    outputs = _outputs(func, inputs)
    if fast_mode and check_backward_ad and not check_forward_ad and differentiable and \
            _fast(func, inputs, outputs, differentiable, eps, rtol, atol):
        _final_checks(func, inputs, outputs, [inputs[n] for n in differentiable],
                      check_undefined_grad)
        return True
    # torch's order of calls (a script that prints in forward or backward shows it): every
    # finite difference first, then each output's Jacobian twice (the reentrancy check),
    # then a backward of zeros and one of undefined gradients (zeros again)
    numerical = {(out_number, in_number): _numerical(func, inputs, out_number, in_number, eps)
                 for in_number in differentiable for out_number in range(len(outputs))}
    targets = [inputs[n] for n in differentiable]
    for out_number, output in enumerate(outputs):
        if check_backward_ad and output.requires_grad:
            first = _analytical(output, targets)
            _analytical(output, targets)
            for position, in_number in enumerate(differentiable):  # (numbered among them)
                where = f"mismatch for output {out_number} with respect to input {position}"
                if not _agrees(first[position], numerical[out_number, in_number], rtol, atol,
                               raise_exception, f"Jacobian {where}"):
                    return False
        if check_forward_ad:
            for position, in_number in enumerate(differentiable):
                where = f"mismatch for output {out_number} with respect to input {position}"
                if not _agrees(_forward_analytical(func, inputs, out_number, in_number),
                               numerical[out_number, in_number], rtol, atol, raise_exception,
                               f"Jacobian computed with forward mode {where}"):
                    return False
    if check_backward_ad and targets:
        _final_checks(func, inputs, outputs, targets, check_undefined_grad)
    return True


def _final_checks(func, inputs: tuple, outputs: list, targets: list[Tensor],
                  check_undefined_grad: bool) -> None:
    _zero_backward(outputs, targets)
    if check_undefined_grad:
        _zero_backward(_outputs(func, inputs), targets)


def _fast(func, inputs: tuple, outputs: list, differentiable: list, eps: float, rtol: float,
          atol: float) -> bool:
    """torch's fast mode: v·J·u for random unit vectors u (each input) and v (each output),
    from a generator of its own (the user's stream is left alone), by finite differences
    along u and by one backward of v (twice: the reentrancy check). False when they differ:
    the slow mode then says where."""
    from .._random import Generator

    generator = Generator()
    directions = [_unit_vector(inputs[n], generator) for n in differentiable]
    weights = [_unit_vector(output, generator) for output in outputs]
    numerical = [_numerical_along(func, inputs, n, u, eps)
                 for n, u in zip(differentiable, directions, strict=True)]
    targets = [inputs[n] for n in differentiable]
    for out_number, (output, v) in enumerate(zip(outputs, weights, strict=True)):
        if not output.requires_grad:
            continue
        first = _vjp(output, targets, v)
        _vjp(output, targets, v)
        for position, u in enumerate(directions):
            analytical = float(np.dot(first[position], u))
            expected = float(np.dot(v, numerical[position][out_number]))
            if not np.isclose(analytical, expected, rtol=rtol, atol=atol):
                return False
    return True


def _unit_vector(like: Tensor, generator) -> np.ndarray:
    """torch.rand(numel) (float32) in the tensor's real dtype, over its norm."""
    from .._factories import rand

    kind = like._data.real.dtype if like._data.dtype.kind == "c" else like._data.dtype
    drawn = rand(like.numel(), generator=generator)._data.astype(kind)
    return drawn / np.float64(np.linalg.norm(drawn.astype(np.float64))).astype(kind)


def _numerical_along(func, inputs: tuple, in_number: int, u: np.ndarray,
                     eps: float) -> list[np.ndarray]:
    """Each output's derivative along u: (f(x + eps·u) - f(x - eps·u)) / 2 eps."""
    data = inputs[in_number]._data
    original, step = data.copy(), (u * eps).reshape(data.shape)
    with no_grad():
        data[...] = original - step
        below = [o._data.astype(np.float64) for o in _outputs(func, inputs)]
        data[...] = original + step
        above = [o._data.astype(np.float64) for o in _outputs(func, inputs)]
        data[...] = original
    return [((b - a) / (2 * eps)).reshape(-1) for a, b in zip(below, above, strict=True)]


def _vjp(output: Tensor, targets: list[Tensor], v: np.ndarray) -> list[np.ndarray]:
    from . import grad

    found = grad(output, targets, Tensor._make(v.reshape(output._data.shape).astype(
        output._data.dtype)), retain_graph=True, allow_unused=True)
    return [np.zeros(t.numel()) if g is None else g._data.astype(np.float64).reshape(-1)
            for t, g in zip(targets, found, strict=True)]


def _zero_backward(outputs: list[Tensor], targets: list[Tensor]) -> None:
    """torch's checks that a backward takes zero (and undefined) output gradients."""
    from . import grad

    differentiable = [o for o in outputs if o.requires_grad]
    if differentiable:
        grad(differentiable, targets, [Tensor._make(np.zeros_like(o._data))
                                       for o in differentiable], allow_unused=True)


def _agrees(analytical: np.ndarray, numerical: np.ndarray, rtol: float, atol: float,
            raise_exception: bool, what: str) -> bool:
    if np.allclose(analytical, numerical, rtol=rtol, atol=atol):
        return True
    if not raise_exception:
        return False
    raise GradcheckError(f"{what},\nnumerical:{Tensor._make(numerical)}\n"
                         f"analytical:{Tensor._make(analytical)}\n")


def _check_inputs(tupled_inputs: tuple) -> None:
    """torch's checks of the inputs that require grad: a warning for each one that is not
    float64 (from this one line, as torch's: shown once whoever calls), an error for one
    whose elements overlap."""
    for number, value in enumerate(tupled_inputs):
        if not (isinstance(value, Tensor) and value.requires_grad):
            continue
        if value.dtype.numpy not in (np.float64, np.complex128):
            warnings.warn(f"Input #{number} requires gradient and is not a double precision "
                          "floating point or complex. This check will likely fail if all the "
                          "inputs are not of double precision floating point or complex. ",
                          stacklevel=2)
        if not value.is_sparse:
            _refuse_overlapping(value, number)


def _refuse_overlapping(value: Tensor, number: int) -> None:
    """torch's refusal of an input whose elements share memory along a dimension (an
    ``expand``): a finite difference there would move several elements at once."""
    if any(stride == 0 and size > 1 for stride, size in zip(value.stride(), value.shape,
                                                            strict=True)):
        raise RuntimeError(f"The {number}th input has a dimension with stride 0. gradcheck only "
                           "supports inputs that are non-overlapping to be able to compute the "
                           "numerical gradients correctly. You should call .contiguous on the "
                           "input before passing it to gradcheck.")


def _outputs(func: Callable, inputs: tuple) -> list[Tensor]:
    result = func(*inputs)
    results = result if isinstance(result, tuple | list) else (result,)
    return [r for r in results if isinstance(r, Tensor)]


def _numerical(func: Callable, inputs: tuple, out_number: int, in_number: int,
               eps: float) -> np.ndarray:
    """d output / d input by central differences: rows are input elements, as torch lays
    them out (input elements by output elements), each difference divided in the output's
    dtype and the Jacobian in the input's (a float32 input's is float32, as torch's)."""
    target = inputs[in_number]
    values = target._data  # (written in place, a view's elements in its base's memory too)
    columns = []
    with no_grad():
        for index in np.ndindex(values.shape):  # (row-major: the Jacobian's rows)
            original = values[index].copy()
            values[index] = original - eps  # (torch's order: below, then above)
            # (copied: an output may be an input itself, or a view of one)
            minus = _outputs(func, inputs)[out_number]._data.copy()
            values[index] = original + eps
            plus = _outputs(func, inputs)[out_number]._data.copy()
            values[index] = original
            columns.append(((plus - minus) / (2 * eps)).reshape(-1))
    size = _outputs(func, inputs)[out_number].numel() if not columns else len(columns[0])
    return np.array(columns, dtype=_jacobian_dtype(target)).reshape(values.size, size)


def _jacobian_dtype(target: Tensor) -> np.dtype:
    """torch's Jacobians take their input's dtype (float64 for anything but a float one)."""
    dtype = target._data.dtype
    return dtype if dtype.kind in "fc" else np.dtype(np.float64)


def _forward_analytical(func: Callable, inputs: tuple, out_number: int,
                        in_number: int) -> np.ndarray:
    """One forward-mode pass per input element (its tangent one, the rest none): row i is
    d output / d input_i, laid out as the numerical Jacobian."""
    from . import forward_ad

    target = inputs[in_number]
    rows = []
    for index in range(target.numel()):
        tangent = np.zeros(target._data.size, target._data.dtype)
        tangent[index] = 1
        given = list(inputs)
        with forward_ad.dual_level():
            given[in_number] = forward_ad.make_dual(
                target.detach(), Tensor._make(tangent.reshape(target._data.shape)))
            output = _outputs(func, tuple(given))[out_number]
            found = forward_ad.unpack_dual(output).tangent
        rows.append(np.zeros(output.numel()) if found is None else
                    found._data.astype(np.float64).reshape(-1))
    return np.array(rows).reshape(target.numel(), -1)


def _analytical(output: Tensor, targets: list[Tensor]) -> list[np.ndarray]:
    """One backward per output element, its gradient a one-hot tensor of the output's shape
    (as torch's rows): for each target, its Jacobian laid out as the numerical one."""
    from . import grad

    one_hot = np.zeros(output._data.size, output._data.dtype)
    columns: list[list[np.ndarray]] = [[] for _ in targets]
    for index in range(one_hot.size):
        one_hot[:] = 0
        one_hot[index] = 1
        found = grad(output, targets, Tensor._make(one_hot.reshape(output._data.shape).copy()),
                     retain_graph=True, allow_unused=True)
        for column, target, gradient in zip(columns, targets, found, strict=True):
            column.append(np.zeros(target.numel()) if gradient is None else
                          gradient._data.reshape(-1))
    return [np.array(column, dtype=_jacobian_dtype(target)).T.reshape(target.numel(),
                                                                       one_hot.size)
            for column, target in zip(columns, targets, strict=True)]


def gradgradcheck(func: Callable, inputs, grad_outputs=None, *, eps: float = 1e-6,
                  atol: float = 1e-5, rtol: float = 1e-3, gen_non_contig_grad_outputs=False,
                  raise_exception: bool = True, **options) -> bool:
    """True when the gradients of ``func``'s gradients match finite differences: gradcheck
    of the function inputs, grad_outputs -> d(outputs . grad_outputs)/d inputs."""
    from . import grad

    inputs = inputs if isinstance(inputs, tuple) else (inputs,)
    outputs = _outputs(func, inputs)
    if grad_outputs is None:  # drawn as torch draws them (make_tensor: uniform in [-1, 1)),
        grad_outputs = tuple(_random_grad_output(o) for o in outputs)  # the stream goes on
    grad_outputs = grad_outputs if isinstance(grad_outputs, tuple) else (grad_outputs,)
    wanted = [n for n, value in enumerate(inputs)
              if isinstance(value, Tensor) and value.requires_grad]
    count = len(inputs)

    def first_derivatives(*given):
        with enable_grad():  # (the finite differences run this under no_grad)
            found = grad(_outputs(func, given[:count]), [given[n] for n in wanted],
                         given[count:], create_graph=True, allow_unused=True)
        return tuple(g for g in found if g is not None)

    return gradcheck(first_derivatives, (*inputs, *grad_outputs), eps=eps, atol=atol,
                     rtol=rtol, raise_exception=raise_exception)


def _random_grad_output(output: Tensor) -> Tensor:
    """torch.testing.make_tensor(low=-1, high=1) for an output: from torch's random stream,
    in the output's dtype (float64 for an integer one)."""
    from .._factories import uniform_

    kind = output._data.dtype if output._data.dtype.kind in "fc" else np.float64
    return uniform_(Tensor._make(np.empty(output._data.shape, kind)), -1, 1).requires_grad_(True)
