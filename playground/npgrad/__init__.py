"""playground.npgrad: a NumPy autograd engine that stands in for ``torch`` in tutorial code.

``import playground.npgrad as torch`` and tutorial scripts run unchanged: same node names, same
gradients, same printed text, same backward order. NumPy and the standard library only.
"""


# _tensor first: it completes the _tensor <-> _nodes import cycle in the right order.
from ._tensor import Size, Tensor, device  # isort: skip
# The op families: each declares its forwards' names into the binding table (_bindings.py).
from . import _arithmetic, _einsum, _indexing, _inplace, _linalg, _products  # isort: skip
from . import _pointwise, _reductions, _shapes, _slicing  # isort: skip
from . import _more_math, _scatter_reduce, _selection, _sparse, _sparse_ops  # isort: skip
from . import _sparse_arithmetic, _sparse_csr  # isort: skip
from . import _gamma_ops, _incomplete_gamma, _random_fills, _strided  # isort: skip
from . import _triangular_solve  # isort: skip
from . import _array_factories  # isort: skip
from . import _histogram, _memory_questions, _numeric_gradient, _weight_norm  # isort: skip
from . import _inplace_twins, _leaves, _quiet_warnings, _removed  # isort: skip
from . import _grad_dtype  # isort: skip
from . import _bindings  # isort: skip
from ._compile import compile
from ._dtype import (
    bfloat16,
    bool,
    cdouble,
    cfloat,
    complex64,
    complex128,
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
    BFloat16Tensor,
    BoolTensor,
    ByteTensor,
    CharTensor,
    DoubleTensor,
    FloatTensor,
    Generator,
    HalfTensor,
    IntTensor,
    LongTensor,
    ShortTensor,
    arange,
    as_tensor,
    bernoulli,
    default_generator,
    empty,
    empty_like,
    eye,
    from_numpy,
    full,
    full_like,
    get_rng_state,
    initial_seed,
    linspace,
    manual_seed,
    multinomial,
    normal,
    ones,
    ones_like,
    rand,
    rand_like,
    randint,
    randint_like,
    randn,
    randn_like,
    randperm,
    seed,
    set_rng_state,
    tensor,
    zeros,
    zeros_like,
)
from ._grad_mode import (
    enable_grad,
    inference_mode,
    is_grad_enabled,
    is_inference_mode_enabled,
    no_grad,
    set_grad_enabled,
)
from ._missing import MISSING_HINT, missing_attribute
from ._nodes import AccumulateGrad, Node
from ._out_argument import accepting_out
from ._printing import get_printoptions, set_printoptions
from ._serialization import load, save
from ._sparse import layout, sparse_coo, strided
from ._sparse_csr import sparse_bsc, sparse_bsr, sparse_csc, sparse_csr
from ._type_info import (
    channels_last,
    channels_last_3d,
    contiguous_format,
    finfo,
    iinfo,
    memory_format,
    preserve_format,
)

from . import autograd, backends, distributions, func, linalg, nn  # isort: skip
from . import optim, sparse, special, testing, utils  # isort: skip
from . import amp, cpu, cuda, distributed, jit, random, xpu  # isort: skip
from . import _torch_homes  # isort: skip
from .amp import autocast, get_autocast_cpu_dtype, get_autocast_dtype  # isort: skip
from .amp import get_autocast_gpu_dtype, is_autocast_cpu_enabled, is_autocast_enabled  # isort: skip
from .amp import autocast_decrement_nesting, autocast_increment_nesting  # isort: skip
from .amp import clear_autocast_cache, is_autocast_cache_enabled  # isort: skip
from .amp import set_autocast_cache_enabled, set_autocast_dtype, set_autocast_enabled  # isort: skip
from .autograd.anomaly_mode import is_anomaly_check_nan_enabled, is_anomaly_enabled  # isort: skip
from .func import vmap  # isort: skip  (torch.vmap is torch.func.vmap)
from .linalg import det  # isort: skip  (torch.det, torch.inverse: torch.linalg's)
from .linalg import inv as inverse  # isort: skip
from .linalg import logdet  # isort: skip
from .linalg import top_level_slogdet as slogdet  # isort: skip

__version__ = "2.13.0+cpu"  # the torch the engine answers as: code that checks it branches so
is_inference = Tensor.is_inference  # torch.is_inference(t)
newaxis = None  # (x[:, torch.newaxis], as NumPy's)

# The binding table (every op family and _factories have declared theirs by now): the Tensor
# methods, and the functions torch.exp, torch.add, ... that this module exports.
_bindings.bind_tensor_methods()
_inplace_twins.bind_twins()  # (in-place twins of what has no write of its own)
_removed.bind()  # (torch 1.x's linear algebra: torch.solve... refused, torch.qr)
globals().update(_bindings.exported_functions())
_sparse_arithmetic.install(globals())  # (sparse tensors' methods: of Tensor's final ones)
# the factories, too, take torch's size= (torch.zeros(size=(2, 3))) and out=
for _factory in (arange, empty, eye, full, linspace, multinomial, normal, ones, rand, randint,
                 randn, randperm, zeros):
    _keyed = _bindings.torch_keywords(_factory, as_function=True)
    globals()[_factory.__name__] = _keyed if _keyed is not _factory else \
        accepting_out(_factory.__name__, _factory)


def is_tensor(obj) -> bool:
    return isinstance(obj, Tensor)


def numel(input: Tensor) -> int:
    return input.numel()


def detach(input: Tensor) -> Tensor:
    return input.detach()


class _Namespace(type):
    """A class standing for a torch submodule: what it lacks is said as the module's."""

    def __getattr__(cls, name: str):
        if name.startswith("__"):
            raise AttributeError(name)
        raise AttributeError(f"module 'torch.{cls.__name__}' has no attribute '{name}' "
                             f"{MISSING_HINT}")


class accelerator(metaclass=_Namespace):
    """``torch.accelerator`` for code that picks a device: there is none here."""

    @staticmethod
    def is_available() -> bool:
        return False

    @staticmethod
    def current_accelerator(check_available: bool = False):
        return None

    @staticmethod
    def device_count() -> int:
        return 0


def set_default_device(spec) -> None:
    """The CPU or the meta device: another says what to do, as tensors made on it would."""
    from ._device import set_default

    set_default(spec)


def get_default_device():
    from ._device import default

    return default()


def get_device_module(device=None):  # noqa: F811 - torch's keyword, not the class
    """The module of a device's type (torch.cuda for 'cuda'); without one the current
    accelerator's, which here, with none, is torch.cpu."""
    import sys

    from ._device import device as device_type

    if isinstance(device, device_type | str):
        name = device_type(device).type
    elif device is None:
        name = "cpu"
    else:
        raise RuntimeError(f"Invalid value of device '{device}', expect torch.device, str, or "
                           "None")
    module = getattr(sys.modules[__name__], name, None)
    if not isinstance(module, type(sys)):
        raise RuntimeError(f"Device '{name}' does not have a corresponding module registered "
                           f"as 'torch.{name}'.")
    return module


# torch's constants (Python floats, as torch's are; ``float`` here is torch.float)
from math import e, inf, nan, pi  # noqa: E402  # isort: skip

__all__ = [name for name in dir() if not name.startswith("_")]

# NumPy warns where torch says nothing (0/0, log(0), an overflow to inf): not from the engine's
# own arithmetic, whatever filters a script sets. A script's own NumPy calls warn as usual.
_quiet_warnings.install()

# torch's functions whose code is loaded on first use (start-up stays small): name -> module
# and the function's name there
_LAZY = {**{name: ("nn.noisy", name) for name in ("alpha_dropout", "feature_alpha_dropout",
                                                  "rrelu", "rrelu_")},
         "pdist": ("nn.more_pooling", "pdist"),
         "adaptive_max_pool1d": ("nn.more_pooling", "adaptive_max_pool1d_and_indices"),
         # torch.conv2d, torch.dropout...: functional's ops under their ATen names
         **{name: ("nn.aten_calls", name) for name in (
             "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
             "conv_transpose3d", "adaptive_avg_pool1d", "bilinear", "celu", "selu",
             "hardshrink", "threshold", "prelu", "pixel_shuffle", "cosine_similarity",
             "pairwise_distance", "dropout",
             "embedding", "layer_norm", "group_norm", "batch_norm", "instance_norm",
             "max_pool1d", "max_pool2d", "max_pool3d", "avg_pool1d",
             "binary_cross_entropy_with_logits", "cosine_embedding_loss",
             "hinge_embedding_loss", "kl_div", "margin_ranking_loss", "poisson_nll_loss",
             "triplet_margin_loss", "ctc_loss", "selu_", "celu_", "threshold_", "dropout_",
             "constant_pad_nd", "pixel_unshuffle", "rms_norm")}}
_LAZY_MODULES = ("fft", "library", "ops", "profiler", "version", "compiler", "_dynamo",
                 "futures", "overrides", "_C")
_lacking = missing_attribute("torch")


def __getattr__(name: str):
    """A lazily loaded function; what this engine lacks (code written for torch may call it)
    is said, with what to do."""
    if name in _LAZY_MODULES:
        import importlib

        return importlib.import_module(f"{__name__}.{name}")
    if name in _LAZY:
        import importlib

        module, attribute = _LAZY[name]
        return getattr(importlib.import_module(f"{__name__}.{module}"), attribute)
    if name.startswith("_foreach_"):
        from ._foreach import FOREACH

        if name in FOREACH:
            return FOREACH[name]
    return _lacking(name)


_torch_homes.give_every_loaded_module_its_homes()  # type(model) prints torch's class path
