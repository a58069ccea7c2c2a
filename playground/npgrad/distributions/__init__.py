"""``torch.distributions``: Categorical, Normal and Bernoulli here (the others in modules of
their own), made of the engine's ops as torch makes them (so log_prob and rsample
differentiate, with torch's nodes), sampling from torch's random stream, and kl_divergence."""

from __future__ import annotations

import math
import numbers
import warnings

import numpy as np

from .. import _dtype as dtypes
from .. import _factories
from .._grad_mode import enable_grad, no_grad
from .._missing import SaysWhatItLacks, lacking_member, missing_attribute
from .._shapes import Size, broadcast_tensors
from .._tensor import Tensor
from ..nn.functional import binary_cross_entropy_with_logits
from . import constraints

__all__ = ["register_kl", "Distribution", "Categorical", "Normal", "Bernoulli", "Uniform",
           "Exponential", "Laplace", "LogNormal", "MultivariateNormal", "Independent", "Cauchy",
           "Geometric", "Gamma", "Chi2", "StudentT", "Poisson", "Dirichlet", "Beta",
           "TransformedDistribution", "MixtureSameFamily", "OneHotCategorical", "constraints",
           "transforms", "kl_divergence", "RelaxedOneHotCategorical", "Gumbel", "Binomial",
           "Multinomial", "HalfNormal", "HalfCauchy", "Weibull", "Pareto", "InverseGamma",
           "NegativeBinomial", "RelaxedBernoulli", "LogitRelaxedBernoulli", "biject_to",
           "transform_to", "SoftmaxTransform", "StickBreakingTransform",
           "IndependentTransform", "LogisticNormal", "Kumaraswamy",
           "OneHotCategoricalStraightThrough", "ContinuousBernoulli", "FisherSnedecor",
           "VonMises", "LowRankMultivariateNormal"]


def _as_tensor(value) -> Tensor:
    return value if isinstance(value, Tensor) else _factories.tensor(float(value))


def broadcast_all(*values) -> tuple:
    """torch.distributions.utils.broadcast_all: the values broadcast together, each number
    made a tensor of the first tensor's dtype (the default dtype where none is a tensor),
    so that 0.1 beside a float64 scale is float64's 0.1."""
    if not all(isinstance(value, Tensor | numbers.Number) for value in values):
        raise ValueError("Input arguments must all be instances of Number, torch.Tensor or "
                         "objects implementing __torch_function__.")
    like = next((value for value in values if isinstance(value, Tensor)), None)
    dtype = dtypes.get_default_dtype() if like is None else like.dtype
    return broadcast_tensors(*(value if isinstance(value, Tensor) else
                               _factories.tensor(value, dtype=dtype) for value in values))


def _clamped(probs: Tensor) -> Tensor:
    """Probabilities kept a machine epsilon inside (0, 1), so their logs stay finite."""
    eps = float(np.finfo(probs._data.dtype).eps)
    return probs.clamp(min=eps, max=1 - eps)


class lazy_property:  # noqa: N801 (torch.distributions.utils' name)
    """torch's lazy_property: made on first read (recorded, even under no_grad) and kept in
    the instance's __dict__, where later reads (and vars()) find it."""

    def __init__(self, make) -> None:
        self.make, self.__doc__ = make, make.__doc__

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        with enable_grad():
            value = instance.__dict__[self.make.__name__] = self.make(instance)
        return value


class Distribution(SaysWhatItLacks):
    """The shapes and repr every distribution shares; ``_names`` lists its parameters in
    torch's order (the repr shows those already made: a lazily made one appears once read)."""

    _names: tuple[str, ...] = ()
    has_rsample = False

    def __init__(self, batch_shape=(), event_shape=(), validate_args=None) -> None:
        self._batch_shape, self._event_shape = Size(batch_shape), Size(event_shape)
        if validate_args is not None:
            self._validate_args = bool(validate_args)

    @property
    def batch_shape(self) -> Size:
        return self._batch_shape

    @property
    def event_shape(self) -> Size:
        return self._event_shape

    def _extended_shape(self, sample_shape=()) -> Size:
        return Size((*sample_shape, *self._batch_shape, *self._event_shape))

    _validate_args = True  # (torch's default, as under python without -O)

    def _validate_real(self, value) -> None:
        """torch's _validate_sample for a support of all reals (no NaN)."""
        self._validate_sample(value, "Real()", lambda v: ~v.isnan())

    def _validate_sample(self, value, support: str, valid) -> None:
        """torch's check of a value to score: a tensor, its event shape the distribution's,
        the rest broadcastable, and ``valid(value)`` everywhere (the ``support``'s check)."""
        if not self._validate_args:
            return
        if not isinstance(value, Tensor):
            raise ValueError("The value argument to log_prob must be a Tensor")
        start = len(value.size()) - len(self._event_shape)
        if value.size()[start:] != self._event_shape:
            raise ValueError("The right-most size of value must match event_shape: "
                             f"{value.size()} vs {self._event_shape}.")
        expected = Size((*self._batch_shape, *self._event_shape))
        for given, wanted in zip(reversed(value.size()), reversed(expected), strict=False):
            if given != 1 and wanted != 1 and given != wanted:
                raise ValueError("Value is not broadcastable with batch_shape+event_shape: "
                                 f"{value.size()} vs {expected}.")
        if not bool(valid(value).all()):
            raise ValueError(f"Expected value argument (Tensor of shape {tuple(value.shape)}) "
                             f"to be within the support ({support}) of the distribution "
                             f"{self!r}, but found invalid values:\n{value}")

    # what torch's base class says of what a kind does not define
    has_enumerate_support = False

    @property
    def mean(self) -> Tensor:
        raise NotImplementedError

    @property
    def variance(self) -> Tensor:
        raise NotImplementedError

    def rsample(self, sample_shape=()) -> Tensor:
        raise NotImplementedError

    def sample(self, sample_shape=()) -> Tensor:
        with no_grad():
            return self.rsample(sample_shape)

    def log_prob(self, value) -> Tensor:
        raise NotImplementedError

    def entropy(self) -> Tensor:
        raise NotImplementedError

    @property
    def mode(self) -> Tensor:
        raise NotImplementedError(f"{type(self)} does not implement mode")

    @property
    def stddev(self) -> Tensor:
        return self.variance.sqrt()

    def cdf(self, value) -> Tensor:
        raise NotImplementedError

    def icdf(self, value) -> Tensor:
        raise NotImplementedError

    def enumerate_support(self, expand: bool = True) -> Tensor:
        raise NotImplementedError

    def perplexity(self) -> Tensor:
        return self.entropy().exp()

    def sample_n(self, n: int) -> Tensor:
        warnings.warn("`sample_n(n)` will be deprecated. Use `sample((n,))` instead.",
                      FutureWarning, stacklevel=2)
        return self.sample(Size((n,)))

    def expand(self, batch_shape, _instance=None):
        """The same distribution over a larger batch: each parameter expanded (a view)."""
        batch_shape, old = Size(batch_shape), len(self._batch_shape)
        new = type(self).__new__(type(self))
        new.__dict__.update(self.__dict__)
        for name in self._names:
            if name in self.__dict__:
                value = self.__dict__[name]
                new.__dict__[name] = value.expand(*batch_shape, *value.shape[old:])
        new._batch_shape = batch_shape
        return new

    def __repr__(self) -> str:
        values = [(name, self.__dict__[name]) for name in self._names if name in self.__dict__]
        shown = [f"{name}: {value if value.numel() == 1 else value.size()}"
                 for name, value in values]
        return f"{type(self).__name__}({', '.join(shown)})"


class _Discrete(Distribution):
    """What Categorical and Bernoulli share: given by probs or by logits, values to list."""

    _names = ("probs", "logits")
    has_enumerate_support = True

    @property
    def param_shape(self) -> Size:
        return self.__dict__.get("probs", self.__dict__.get("logits")).size()


class Categorical(_Discrete):
    """One of K classes, by probabilities (normalised) or by logits (log-normalised)."""

    def __init__(self, probs=None, logits=None, validate_args=None) -> None:
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        if probs is not None:
            if probs.dim() < 1:
                raise ValueError("`probs` parameter must be at least one-dimensional.")
            self.probs = probs / probs.sum(-1, keepdim=True)
        else:
            if logits.dim() < 1:
                raise ValueError("`logits` parameter must be at least one-dimensional.")
            self.logits = logits - logits.logsumexp(dim=-1, keepdim=True)
        param = self.__dict__.get("probs", self.__dict__.get("logits"))
        self._num_events = param.size()[-1]
        super().__init__(param.size()[:-1] if param.dim() > 1 else Size())

    def __getattr__(self, name: str):
        """logits from probs, or probs from logits, made when first read (as torch's
        lazy_property: from then on the repr shows them)."""
        if name == "logits":
            with enable_grad():  # (torch's lazy_property records, even under no_grad)
                value = self.__dict__["logits"] = _clamped(self.probs).log()
            return value
        if name == "probs":
            with enable_grad():
                value = self.__dict__["probs"] = self.logits.softmax(dim=-1)
            return value
        raise lacking_member(self, name)

    def sample(self, sample_shape=()) -> Tensor:
        sample_shape = Size(sample_shape)
        flat = self.probs.reshape(-1, self._num_events)
        drawn = _factories.multinomial(flat, sample_shape.numel(), True).T
        return drawn.reshape(self._extended_shape(sample_shape))

    def log_prob(self, value: Tensor) -> Tensor:
        value = value.long().unsqueeze(-1)
        value, log_pmf = broadcast_tensors(value, self.logits)
        return log_pmf.gather(-1, value[..., :1]).squeeze(-1)

    def entropy(self) -> Tensor:
        lowest = float(np.finfo(self.logits._data.dtype).min)
        return -(self.logits.clamp(min=lowest) * self.probs).sum(-1)

    @property
    def mean(self) -> Tensor:
        return _factories.full(self._extended_shape(), math.nan, dtype=self.probs.dtype)

    variance = mean

    @property
    def mode(self) -> Tensor:
        return self.probs.argmax(-1)

    def enumerate_support(self, expand: bool = True) -> Tensor:
        return _support(self, _factories.arange(self._num_events), expand)


class Normal(Distribution):
    """N(loc, scale²); ``rsample`` is loc + eps * scale, differentiable in both."""

    _names = ("loc", "scale")
    has_rsample = True
    support = constraints.real

    def __init__(self, loc, scale, validate_args=None) -> None:
        numbers = not isinstance(loc, Tensor) and not isinstance(scale, Tensor)
        self.loc, self.scale = broadcast_all(loc, scale)
        self._validate_args = validate_args is not False
        if validate_args is not False and bool((self.scale <= 0).any()):
            raise ValueError(
                f"Expected parameter scale (Tensor of shape {tuple(self.scale.shape)}) of "
                f"distribution {self!r} to satisfy the constraint "
                f"GreaterThan(lower_bound=0.0), but found invalid values:\n{self.scale}")
        super().__init__(Size() if numbers else self.loc.size())

    @property
    def mean(self) -> Tensor:
        return self.loc

    @property
    def mode(self) -> Tensor:
        return self.loc

    @property
    def stddev(self) -> Tensor:
        return self.scale

    @property
    def variance(self) -> Tensor:
        return self.stddev.pow(2)

    def cdf(self, value) -> Tensor:
        self._validate_real(value)
        return 0.5 * (1 + ((value - self.loc) * self.scale.reciprocal() / math.sqrt(2)).erf())

    def icdf(self, value) -> Tensor:
        return self.loc + self.scale * (2 * value - 1).erfinv() * math.sqrt(2)

    def sample(self, sample_shape=()) -> Tensor:
        shape = self._extended_shape(Size(sample_shape))
        with no_grad():
            return _factories.normal(self.loc.expand(shape), self.scale.expand(shape))

    def rsample(self, sample_shape=()) -> Tensor:
        shape = self._extended_shape(Size(sample_shape))
        eps = _factories.empty(*shape, dtype=self.loc.dtype).normal_()
        return self.loc + eps * self.scale

    def log_prob(self, value) -> Tensor:
        self._validate_real(value)
        variance = self.scale ** 2
        return -((value - self.loc) ** 2) / (2 * variance) - self.scale.log() - \
            math.log(math.sqrt(2 * math.pi))

    def entropy(self) -> Tensor:
        return 0.5 + 0.5 * math.log(2 * math.pi) + self.scale.log()


class _Binary(_Discrete):
    """Given by the probability of one outcome or its log-odds: each made from the other
    when first read (torch's lazy_property: from then on the repr shows both)."""

    def __getattr__(self, name: str):
        if name == "logits":
            with enable_grad():  # (torch's lazy_property records, even under no_grad)
                probs = _clamped(self.probs)
                value = self.__dict__["logits"] = probs.log() - (-probs).log1p()
            return value
        if name == "probs":
            with enable_grad():
                value = self.__dict__["probs"] = self._probs_from_logits(self.logits)
            return value
        raise lacking_member(self, name)

    def _probs_from_logits(self, logits: Tensor) -> Tensor:
        return logits.sigmoid()


class Bernoulli(_Binary):
    """1 with probability p, else 0; by probs or by logits."""
    support = constraints.boolean

    def __init__(self, probs=None, logits=None, validate_args=None) -> None:
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        given = _as_tensor(probs if probs is not None else logits)
        self.__dict__["probs" if probs is not None else "logits"] = given
        super().__init__(given.size())


    def sample(self, sample_shape=()) -> Tensor:
        shape = self._extended_shape(Size(sample_shape))
        with no_grad():
            return _factories.bernoulli(self.probs.expand(shape))

    def log_prob(self, value: Tensor) -> Tensor:
        logits, value = broadcast_tensors(self.logits, value)
        return -binary_cross_entropy_with_logits(logits, value, reduction="none")

    def entropy(self) -> Tensor:
        return binary_cross_entropy_with_logits(self.logits, self.probs, reduction="none")

    @property
    def mean(self) -> Tensor:
        return self.probs

    @property
    def mode(self) -> Tensor:
        mode = (self.probs >= 0.5).to(self.probs)
        mode[self.probs == 0.5] = math.nan
        return mode

    @property
    def variance(self) -> Tensor:
        return self.probs * (1 - self.probs)

    def enumerate_support(self, expand: bool = True) -> Tensor:
        dtype = self.__dict__.get("probs", self.__dict__.get("logits")).dtype
        return _support(self, _factories.arange(2, dtype=dtype), expand)


def _support(discrete: Distribution, values: Tensor, expand: bool) -> Tensor:
    """A discrete distribution's values down the first dimension, one per batch element."""
    batch = discrete.batch_shape
    values = values.view(-1, *([1] * len(batch)))
    return values.expand(-1, *batch) if expand else values


# torch's submodules (torch.distributions.normal.Normal...), each naming its class from here
from . import bernoulli, categorical, distribution, kl, normal  # noqa: E402, F401, I001
from . import exponential, independent, laplace, log_normal  # noqa: E402, F401
from . import multivariate_normal, uniform  # noqa: E402, F401
from . import cauchy, geometric  # noqa: E402, F401
from .cauchy import Cauchy  # noqa: E402
from .geometric import Geometric  # noqa: E402
from . import beta, chi2, dirichlet, gamma, poisson, studentT  # noqa: E402, F401
from .beta import Beta  # noqa: E402
from .dirichlet import Dirichlet  # noqa: E402
from .gamma import Chi2, Gamma  # noqa: E402
from .poisson import Poisson  # noqa: E402
from .studentT import StudentT  # noqa: E402
from . import constraints, transforms  # noqa: E402, F401
from . import mixture_same_family, one_hot_categorical  # noqa: E402, F401
from . import relaxed_categorical  # noqa: E402, F401
from . import transformed_distribution  # noqa: E402, F401
from .mixture_same_family import MixtureSameFamily  # noqa: E402
from .one_hot_categorical import (  # noqa: E402
    OneHotCategorical,
    OneHotCategoricalStraightThrough,
)
from .relaxed_categorical import RelaxedOneHotCategorical  # noqa: E402
from .transformed_distribution import TransformedDistribution  # noqa: E402
from .transforms import (  # noqa: E402, F401
    AbsTransform,
    AffineTransform,
    ComposeTransform,
    ExpTransform,
    PowerTransform,
    SigmoidTransform,
    SoftplusTransform,
    TanhTransform,
    Transform,
)
from .continuous import (  # noqa: E402
    Exponential,
    Independent,
    Laplace,
    LogNormal,
    MultivariateNormal,
    Uniform,
)

from . import binomial, gumbel, multinomial  # noqa: E402, F401
from .binomial import Binomial, NegativeBinomial  # noqa: E402
from . import relaxed_bernoulli  # noqa: E402, F401
from .relaxed_bernoulli import LogitRelaxedBernoulli, RelaxedBernoulli  # noqa: E402
from .gumbel import Gumbel  # noqa: E402
from .multinomial import Multinomial  # noqa: E402
from . import transformed_families  # noqa: E402, F401
from .transformed_families import (  # noqa: E402
    HalfCauchy,
    HalfNormal,
    InverseGamma,
    Kumaraswamy,
    LogisticNormal,
    Pareto,
    Weibull,
)
from . import continuous_bernoulli  # noqa: E402, F401
from .continuous_bernoulli import ContinuousBernoulli  # noqa: E402
from . import constraint_registry  # noqa: E402, F401
from .constraint_registry import biject_to, transform_to  # noqa: E402
from .vector_transforms import (  # noqa: E402
    IndependentTransform,
    SoftmaxTransform,
    StickBreakingTransform,
)
from . import fishersnedecor, lowrank_multivariate_normal, von_mises  # noqa: E402, F401
from .fishersnedecor import FisherSnedecor  # noqa: E402
from .lowrank_multivariate_normal import LowRankMultivariateNormal  # noqa: E402
from .von_mises import VonMises  # noqa: E402
from .kl import kl_divergence, register_kl  # noqa: E402

# What the engine lacks, said with torch's module name and what to do.
__getattr__ = missing_attribute("torch.distributions")
