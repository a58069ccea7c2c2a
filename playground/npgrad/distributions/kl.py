"""``torch.distributions.kl``: kl_divergence and register_kl, and the formulas of the
pairs of one kind (those between kinds and of discrete ones are in kl_pairs.py): each found
for a pair of distributions as torch finds it, the registered pair nearest both kinds."""

from __future__ import annotations

import math

import numpy as np

from .._tensor import Tensor
from . import Distribution, kl_more_pairs, kl_pairs, lowrank_multivariate_normal

__all__ = ["kl_divergence", "register_kl"]

_PACKAGE = __name__.rpartition(".")[0]  # (the engine's distributions, whatever alias runs it)


def kl_divergence(p: Distribution, q: Distribution) -> Tensor:
    """KL(p || q) by torch's formula for the most specific pair of kinds registered for
    them (Chi2 takes Gamma's, a user's subclass its parent's or its own registered one)."""
    formula = _kl_formula(type(p), type(q))
    if formula is not None:
        return formula(p, q)
    if _exponential_family(p) and _exponential_family(q) and type(p) is not type(q):
        # (torch's pair for any two exponential families; its message keeps the spaces of
        # its source's continued line)
        raise NotImplementedError("The cross KL-divergence between different exponential "
                                  "families cannot" + " " * 29 + "be computed using Bregman "
                                  "divergences")
    # (the engine has every pair torch registers for the kinds it has: where it finds none,
    # torch has none either)
    raise NotImplementedError(f"No KL(p || q) is implemented for p type {type(p).__name__} and "
                              f"q type {type(q).__name__}")


_EXPONENTIAL_FAMILIES = ("Bernoulli", "Beta", "Chi2", "ContinuousBernoulli", "Dirichlet",
                         "Exponential", "Gamma", "Normal", "Poisson")


def _exponential_family(distribution) -> bool:
    return any(_ours(kind) and kind.__name__ in _EXPONENTIAL_FAMILIES
               for kind in type(distribution).__mro__)


def _ours(kind: type) -> bool:
    return kind.__dict__.get("_engine_home", kind.__module__).startswith(_PACKAGE)


def _kl_formula(kind_p: type, kind_q: type):
    """The formula of the registered pair nearest both kinds in their method orders."""
    found = [(first, second, formula)
             for first, mine in enumerate(_lineage(kind_p))
             for second, theirs in enumerate(_lineage(kind_q))
             for formula in [_REGISTERED.get((mine, theirs))
                             or (_ours(mine) and _ours(theirs)
                                 and _KL.get((mine.__name__, theirs.__name__)))]
             if formula]
    return min(found, key=lambda match: match[:2])[2] if found else None


def _lineage(kind: type) -> tuple:
    """The kinds a distribution is, most specific first, as torch's classes are: the engine's
    LogNormal is written apart, where torch's is a TransformedDistribution."""
    from .continuous import LogNormal
    from .transformed_distribution import TransformedDistribution

    lineage = kind.__mro__
    if issubclass(kind, LogNormal):
        place = lineage.index(LogNormal) + 1
        lineage = (*lineage[:place], TransformedDistribution, *lineage[place:])
    return lineage


_REGISTERED: dict = {}


def register_kl(type_p, type_q):
    """Decorate a function of (p, q) as KL(p || q) for those kinds and their subclasses."""
    for name, kind in (("type_p", type_p), ("type_q", type_q)):
        # (torch's test, as written: only a non-class is refused, by issubclass itself)
        if not isinstance(kind, type) and issubclass(kind, Distribution):
            raise TypeError(f"Expected {name} to be a Distribution subclass but got {kind}")

    def decorator(formula):
        _REGISTERED[type_p, type_q] = formula
        return formula

    return decorator


def _kl_gamma(p, q) -> Tensor:
    t1 = q.concentration * (p.rate / q.rate).log()
    t2 = q.concentration.lgamma() - p.concentration.lgamma()
    t3 = (p.concentration - q.concentration) * p.concentration.digamma()
    return t1 + t2 + t3 + (q.rate - p.rate) * (p.concentration / p.rate)


def _kl_beta(p, q) -> Tensor:
    total_p = p.concentration1 + p.concentration0
    total_q = q.concentration1 + q.concentration0
    t1 = q.concentration1.lgamma() + q.concentration0.lgamma() + total_p.lgamma()
    t2 = p.concentration1.lgamma() + p.concentration0.lgamma() + total_q.lgamma()
    t3 = (p.concentration1 - q.concentration1) * p.concentration1.digamma()
    t4 = (p.concentration0 - q.concentration0) * p.concentration0.digamma()
    return t1 - t2 + t3 + t4 + (total_q - total_p) * total_p.digamma()


def _kl_dirichlet(p, q) -> Tensor:
    total_p, total_q = p.concentration.sum(-1), q.concentration.sum(-1)
    t1 = total_p.lgamma() - total_q.lgamma()
    t2 = (p.concentration.lgamma() - q.concentration.lgamma()).sum(-1)
    t3 = p.concentration - q.concentration
    t4 = p.concentration.digamma() - total_p.digamma().unsqueeze(-1)
    return t1 - t2 + (t3 * t4).sum(-1)


def _kl_poisson(p, q) -> Tensor:
    return p.rate * (p.rate.log() - q.rate.log()) - (p.rate - q.rate)


def _kl_cauchy(p, q) -> Tensor:
    spread = ((p.scale + q.scale).pow(2) + (p.loc - q.loc).pow(2)).log()
    return spread - (4 * p.scale * q.scale).log()


def _kl_geometric(p, q) -> Tensor:
    return -p.entropy() - (-q.probs).log1p() / p.probs - q.logits


def _kl_normal(p, q) -> Tensor:
    var_ratio = (p.scale / q.scale).pow(2)
    t1 = ((p.loc - q.loc) / q.scale).pow(2)
    return 0.5 * (var_ratio + t1 - 1 - var_ratio.log())


def _kl_uniform(p, q) -> Tensor:
    result = ((q.high - q.low) / (p.high - p.low)).log()
    result[(q.low > p.low) | (q.high < p.high)] = math.inf
    return result


def _kl_exponential(p, q) -> Tensor:
    rate_ratio = q.rate / p.rate
    return -rate_ratio.log() + rate_ratio - 1


def _kl_independent(p, q) -> Tensor:
    if p.reinterpreted_batch_ndims != q.reinterpreted_batch_ndims:
        raise NotImplementedError
    return p._summed(kl_divergence(p.base_dist, q.base_dist))


def _kl_multivariate_normal(p, q) -> Tensor:
    from .. import linalg
    from .continuous import _mahalanobis

    if p.event_shape != q.event_shape:
        raise ValueError("KL-divergence between two Multivariate Normals with different event "
                         "shapes cannot be computed")
    p_lower, q_lower = p._unbroadcasted_scale_tril, q._unbroadcasted_scale_tril
    half_term1 = q_lower.diagonal(dim1=-2, dim2=-1).log().sum(-1) - \
        p_lower.diagonal(dim1=-2, dim2=-1).log().sum(-1)
    n = p.event_shape[0]
    batch = np.broadcast_shapes(tuple(q_lower.shape[:-2]), tuple(p_lower.shape[:-2]))
    solved = linalg.solve_triangular(q_lower.expand(*batch, n, n), p_lower.expand(*batch, n, n),
                                     upper=False)
    term2 = solved.reshape(-1, n * n).pow(2).sum(-1).reshape(batch)
    term3 = _mahalanobis(q_lower, q.loc - p.loc)
    return half_term1 + 0.5 * (term2 + term3 - n)


_KL = {("Normal", "Normal"): _kl_normal, ("Uniform", "Uniform"): _kl_uniform,
       ("Exponential", "Exponential"): _kl_exponential,
       ("Independent", "Independent"): _kl_independent,
       ("MultivariateNormal", "MultivariateNormal"): _kl_multivariate_normal,
       ("Gamma", "Gamma"): _kl_gamma, ("Beta", "Beta"): _kl_beta,
       ("Dirichlet", "Dirichlet"): _kl_dirichlet, ("Poisson", "Poisson"): _kl_poisson,
       ("Cauchy", "Cauchy"): _kl_cauchy, ("Geometric", "Geometric"): _kl_geometric}
_KL.update(kl_pairs.PAIRS)
_KL.update(kl_more_pairs.PAIRS)
_KL.update(lowrank_multivariate_normal.KL_PAIRS)
