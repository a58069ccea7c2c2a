"""playground.npgrad: a NumPy autograd engine that stands in for ``torch`` in tutorial code.

``import playground.npgrad as torch`` and tutorial scripts run unchanged: same node names, same
gradients, same printed text, same backward order. NumPy and the standard library only.
"""

# _tensor first: it completes the _tensor <-> _autograd import cycle in the right order.
from ._tensor import Size, Tensor, device  # isort: skip
from . import _ops  # isort: skip
from ._autograd import AccumulateGrad, Node
from ._dtype import (
    bool,
    double,
    dtype,
    float,
    float16,
    float32,
    float64,
    get_default_dtype,
    half,
    int,
    int8,
    int16,
    int32,
    int64,
    long,
    promote_types,
    set_default_dtype,
    short,
    uint8,
)
from ._factories import (
    BoolTensor,
    DoubleTensor,
    FloatTensor,
    IntTensor,
    LongTensor,
    arange,
    as_tensor,
    empty,
    empty_like,
    eye,
    from_numpy,
    full,
    full_like,
    initial_seed,
    linspace,
    manual_seed,
    ones,
    ones_like,
    rand,
    rand_like,
    randint,
    randn,
    randn_like,
    seed,
    tensor,
    zeros,
    zeros_like,
)
from ._grad_mode import enable_grad, is_grad_enabled, no_grad, set_grad_enabled
from ._printing import get_printoptions, set_printoptions

from . import autograd, nn, optim  # isort: skip

__version__ = "0.1.0"

# Functions that mirror tensor methods: torch.exp(x) is x.exp().
add = _ops.add
sub = subtract = _ops.sub
mul = multiply = _ops.mul
div = divide = true_divide = _ops.div
floor_divide = _ops.floor_divide
remainder = _ops.remainder
neg = negative = _ops.neg
pow = _ops.pow
square = _ops.square
eq, ne, lt, le, gt, ge = _ops.eq, _ops.ne, _ops.lt, _ops.le, _ops.gt, _ops.ge
equal, allclose, isclose = _ops.equal, _ops.allclose, _ops.isclose
maximum, minimum, where = _ops.maximum, _ops.minimum, _ops.where
logical_not = _ops.logical_not
exp, log, log1p, sqrt, rsqrt = _ops.exp, _ops.log, _ops.log1p, _ops.sqrt, _ops.rsqrt
reciprocal, sin, cos, tanh, sigmoid = _ops.reciprocal, _ops.sin, _ops.cos, _ops.tanh, _ops.sigmoid
relu, abs, absolute, sign = _ops.relu, _ops.abs, _ops.abs, _ops.sign
clamp = clip = _ops.clamp
fmod = _ops.fmod
tan, sinh, cosh, log2, log10 = _ops.tan, _ops.sinh, _ops.cosh, _ops.log2, _ops.log10
asin = arcsin = _ops.asin
acos = arccos = _ops.acos
atan = arctan = _ops.atan
exp2, expm1 = _ops.exp2, _ops.expm1
floor, ceil, frac, round = _ops.floor, _ops.ceil, _ops.frac, _ops.round
trunc = fix = _ops.trunc
clamp_min, clamp_max, masked_fill = _ops.clamp_min, _ops.clamp_max, _ops.masked_fill
amax, amin, logsumexp, cumsum = _ops.amax, _ops.amin, _ops.logsumexp, _ops.cumsum
tril, triu = _ops.tril, _ops.triu
addmm = _ops.addmm
erf, erfc, isnan, isinf, isfinite = _ops.erf, _ops.erfc, _ops.isnan, _ops.isinf, _ops.isfinite
atan2 = arctan2 = _ops.atan2
hypot, lerp, addcmul, addcdiv = _ops.hypot, _ops.lerp, _ops.addcmul, _ops.addcdiv
sort, argsort, topk, roll, scatter = _ops.sort, _ops.argsort, _ops.topk, _ops.roll, _ops.scatter
gather, scatter_add, index_select, index_add = (_ops.gather, _ops.scatter_add, _ops.index_select,
                                                _ops.index_add)


def flip(input: Tensor, dims) -> Tensor:
    return input.flip(dims)


clone = _ops.clone
sum, mean, prod = _ops.sum, _ops.mean, _ops.prod
max, min, argmax, argmin = _ops.max, _ops.min, _ops.argmax, _ops.argmin
norm, var, std = _ops.norm, _ops.var, _ops.std
softmax, log_softmax = _ops.softmax, _ops.log_softmax
all, any = _ops.all, _ops.any
mm, mv, dot, bmm, matmul, outer = _ops.mm, _ops.mv, _ops.dot, _ops.bmm, _ops.matmul, _ops.outer
reshape, flatten, t, transpose = _ops.reshape, _ops.flatten, _ops.t, _ops.transpose
permute, squeeze, unsqueeze = _ops.permute, _ops.squeeze, _ops.unsqueeze
select, narrow = _ops.select, _ops.narrow
cat, concat, stack = _ops.cat, _ops.cat, _ops.stack


def is_tensor(obj) -> bool:
    return isinstance(obj, Tensor)


def numel(input: Tensor) -> int:
    return input.numel()


def detach(input: Tensor) -> Tensor:
    return input.detach()


class cuda:
    """``torch.cuda`` for code that asks: the NumPy engine never has a GPU."""

    @staticmethod
    def is_available() -> bool:
        return False

    @staticmethod
    def device_count() -> int:
        return 0


__all__ = [name for name in dir() if not name.startswith("_")]

MISSING_HINT = "in the built-in NumPy engine; if real torch has it, switch the engine to torch"


def __getattr__(name: str):
    """Code written for torch may call what this engine lacks: say so, and what to do."""
    if name.startswith("__"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    raise AttributeError(f"module 'torch' has no attribute {name!r} {MISSING_HINT}")
