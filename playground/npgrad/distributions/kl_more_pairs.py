"""More of torch's KL divergences: the pairs with Beta, Binomial, ContinuousBernoulli,
Gumbel, HalfNormal, Pareto and two TransformedDistributions, and the pairs whose supports
make the divergence infinite; each with torch's formula op for op, so that values and
gradients carry its rounding."""

from __future__ import annotations

import math

from .. import _factories
from .._selection import where
from .kl_pairs import EULER_GAMMA, INFINITY, _x_log_x


def _infinite_like(value):
    return _factories.full_like(value, INFINITY)


def _infinite_by(parameter: str):
    """KL(p || q) = inf everywhere: q has no mass where p has some."""
    return lambda p, q: _infinite_like(getattr(p, parameter))


def bernoulli_poisson(p, q):
    return -p.entropy() - (p.probs * q.rate.log() - q.rate)


def beta_continuous_bernoulli(p, q):
    return -p.entropy() - p.mean * q.logits - (-q.probs).log1p() - q._cont_bern_log_norm()


def beta_exponential(p, q):
    return -p.entropy() - q.rate.log() + \
        q.rate * (p.concentration1 / (p.concentration1 + p.concentration0))


def beta_gamma(p, q):
    t1 = -p.entropy()
    t2 = q.concentration.lgamma() - q.concentration * q.rate.log()
    t3 = (q.concentration - 1) * (p.concentration1.digamma()
                                  - (p.concentration1 + p.concentration0).digamma())
    t4 = q.rate * p.concentration1 / (p.concentration1 + p.concentration0)
    return t1 + t2 - t3 + t4


def beta_normal(p, q):
    mean = p.concentration1 / (p.concentration1 + p.concentration0)
    var_normal = q.scale.pow(2)
    t1 = -p.entropy()
    t2 = 0.5 * (var_normal * 2 * math.pi).log()
    t3 = (mean * (1 - mean) / (p.concentration1 + p.concentration0 + 1) + mean.pow(2)) * 0.5
    t4 = q.loc * mean
    t5 = q.loc.pow(2) * 0.5
    return t1 + t2 + (t3 - t4 + t5) / var_normal


def beta_uniform(p, q):
    result = -p.entropy() + (q.high - q.low).log()
    result[(q.low > 0.0) | (q.high < 1.0)] = INFINITY  # (Beta's support: the unit interval)
    return result


def binomial_binomial(p, q):
    if (p.total_count < q.total_count).any():
        raise NotImplementedError("KL between Binomials where q.total_count > p.total_count is "
                                  "not implemented")
    kl = p.total_count * (p.probs * (p.logits - q.logits) + (-p.probs).log1p()
                          - (-q.probs).log1p())
    beyond = p.total_count > q.total_count
    kl[beyond] = _infinite_like(kl[beyond])
    return kl


def continuous_bernoulli_continuous_bernoulli(p, q):
    t1 = p.mean * (p.logits - q.logits)
    t2 = p._cont_bern_log_norm() + (-p.probs).log1p()
    t3 = -q._cont_bern_log_norm() - (-q.probs).log1p()
    return t1 + t2 + t3


def continuous_bernoulli_exponential(p, q):
    return -p.entropy() - q.rate.log() + q.rate * p.mean


def continuous_bernoulli_normal(p, q):
    t1 = -p.entropy()
    t2 = 0.5 * (math.log(2.0 * math.pi) + (q.loc / q.scale).square()) + q.scale.log()
    t3 = (p.variance + p.mean.square() - 2.0 * q.loc * p.mean) / (2.0 * q.scale.square())
    return t1 + t2 + t3


def continuous_bernoulli_uniform(p, q):
    result = -p.entropy() + (q.high - q.low).log()
    outside = q.low.ge(0.0) | q.high.le(1.0)  # (torch's test, as written)
    return where(outside, _factories.ones_like(result) * INFINITY, result)


def exponential_gumbel(p, q):
    scale_rate_prod = p.rate * q.scale
    loc_scale_ratio = q.loc / q.scale
    t1 = scale_rate_prod.log() - 1
    t2 = loc_scale_ratio.exp() * scale_rate_prod / (scale_rate_prod + 1)
    t3 = scale_rate_prod.reciprocal()
    return t1 - loc_scale_ratio + t2 + t3


def gamma_gumbel(p, q):
    beta_scale_prod = p.rate * q.scale
    loc_scale_ratio = q.loc / q.scale
    t1 = (p.concentration - 1) * p.concentration.digamma() - p.concentration.lgamma() - \
        p.concentration
    t2 = beta_scale_prod.log() + p.concentration / beta_scale_prod
    t3 = loc_scale_ratio.exp() * (1 + beta_scale_prod.reciprocal()).pow(-p.concentration) - \
        loc_scale_ratio
    return t1 + t2 + t3


def gamma_normal(p, q):
    var_normal = q.scale.pow(2)
    beta_sqr = p.rate.pow(2)
    t1 = 0.5 * (beta_sqr * var_normal * 2 * math.pi).log() - p.concentration - \
        p.concentration.lgamma()
    t2 = 0.5 * (p.concentration.pow(2) + p.concentration) / beta_sqr
    t3 = q.loc * p.concentration / p.rate
    t4 = 0.5 * q.loc.pow(2)
    return t1 + (p.concentration - 1) * p.concentration.digamma() + (t2 - t3 + t4) / var_normal


def gumbel_gumbel(p, q):
    ct1 = p.scale / q.scale
    ct2 = q.loc / q.scale
    ct3 = p.loc / q.scale
    t1 = -ct1.log() - ct2 + ct3
    t2 = ct1 * EULER_GAMMA
    t3 = (ct2 + (1 + ct1).lgamma() - ct3).exp()
    return t1 + t2 + t3 - (1 + EULER_GAMMA)


def gumbel_normal(p, q):
    param_ratio = p.scale / q.scale
    t1 = (param_ratio / math.sqrt(2 * math.pi)).log()
    t2 = (math.pi * param_ratio * 0.5).pow(2) / 3
    t3 = ((p.loc + p.scale * EULER_GAMMA - q.loc) / q.scale).pow(2) * 0.5
    return -t1 + t2 + t3 - (EULER_GAMMA + 1)


def half_normal_half_normal(p, q):
    from .kl import _kl_normal

    return _kl_normal(p.base_dist, q.base_dist)


def normal_gumbel(p, q):
    mean_scale_ratio = p.loc / q.scale
    var_scale_sqr_ratio = (p.scale / q.scale).pow(2)
    loc_scale_ratio = q.loc / q.scale
    t1 = var_scale_sqr_ratio.log() * 0.5
    t2 = mean_scale_ratio - loc_scale_ratio
    t3 = (-mean_scale_ratio + 0.5 * var_scale_sqr_ratio + loc_scale_ratio).exp()
    return -t1 + t2 + t3 - (0.5 * (1 + math.log(2 * math.pi)))


def pareto_pareto(p, q):
    scale_ratio = p.scale / q.scale
    alpha_ratio = q.alpha / p.alpha
    result = q.alpha * scale_ratio.log() - alpha_ratio.log() + alpha_ratio - 1
    result[p.scale < q.scale] = INFINITY  # (their supports' lower bounds)
    return result


def pareto_exponential(p, q):
    scale_rate_prod = p.scale * q.rate
    t1 = (p.alpha / scale_rate_prod).log()
    t2 = p.alpha.reciprocal()
    t3 = p.alpha * scale_rate_prod / (p.alpha - 1)
    result = t1 - t2 + t3 - 1
    result[p.alpha <= 1] = INFINITY
    return result


def pareto_gamma(p, q):
    common_term = p.scale.log() + p.alpha.reciprocal()
    t1 = p.alpha.log() - common_term
    t2 = q.concentration.lgamma() - q.concentration * q.rate.log()
    t3 = (1 - q.concentration) * common_term
    t4 = q.rate * p.alpha * p.scale / (p.alpha - 1)
    result = t1 + t2 + t3 + t4 - 1
    result[p.alpha <= 1] = INFINITY
    return result


def pareto_normal(p, q):
    var_normal = 2 * q.scale.pow(2)
    common_term = p.scale / (p.alpha - 1)
    t1 = (math.sqrt(2 * math.pi) * q.scale * p.alpha / p.scale).log()
    t2 = p.alpha.reciprocal()
    t3 = p.alpha * common_term.pow(2) / (p.alpha - 2)
    t4 = (p.alpha * common_term - q.loc).pow(2)
    result = t1 - t2 + (t3 + t4) / var_normal - 1
    result[p.alpha <= 2] = INFINITY
    return result


def transformed_transformed(p, q):
    from .kl import kl_divergence

    if p.transforms != q.transforms or p.event_shape != q.event_shape:
        raise NotImplementedError
    return kl_divergence(p.base_dist, q.base_dist)


def uniform_beta(p, q):
    width = p.high - p.low
    t1 = width.log()
    t2 = (q.concentration1 - 1) * (_x_log_x(p.high) - _x_log_x(p.low) - width) / width
    t3 = (q.concentration0 - 1) * (_x_log_x(1 - p.high) - _x_log_x(1 - p.low) + width) / width
    t4 = q.concentration1.lgamma() + q.concentration0.lgamma() - \
        (q.concentration1 + q.concentration0).lgamma()
    result = t3 + t4 - t1 - t2
    result[(p.high > 1.0) | (p.low < 0.0)] = INFINITY
    return result


def uniform_continuous_bernoulli(p, q):
    result = -p.entropy() - p.mean * q.logits - (-q.probs).log1p() - q._cont_bern_log_norm()
    outside = p.high.ge(1.0) | p.low.le(0.0)  # (torch's test, as written)
    return where(outside, _factories.ones_like(result) * INFINITY, result)


def uniform_gumbel(p, q):
    common_term = q.scale / (p.high - p.low)
    high_loc_diff = (p.high - q.loc) / q.scale
    low_loc_diff = (p.low - q.loc) / q.scale
    t1 = common_term.log() + 0.5 * (high_loc_diff + low_loc_diff)
    t2 = common_term * ((-high_loc_diff).exp() - (-low_loc_diff).exp())
    return t1 - t2


def uniform_pareto(p, q):
    width = p.high - p.low
    t1 = (q.alpha * q.scale.pow(q.alpha) * width).log()
    t2 = (_x_log_x(p.high) - _x_log_x(p.low) - width) / width
    result = t2 * (q.alpha + 1) - t1
    result[p.low < q.scale] = INFINITY
    return result


_INFINITE = {
    "concentration1": (("Beta", "Pareto"),),
    "probs": (("ContinuousBernoulli", "Pareto"),),
    "rate": (("Exponential", "Beta"), ("Exponential", "ContinuousBernoulli"),
             ("Exponential", "Pareto"), ("Exponential", "Uniform"), ("Poisson", "Bernoulli"),
             ("Poisson", "Binomial")),
    "concentration": (("Gamma", "Beta"), ("Gamma", "ContinuousBernoulli"), ("Gamma", "Pareto"),
                      ("Gamma", "Uniform")),
    "loc": tuple((first, second) for first, seconds in (
        ("Gumbel", ("Beta", "ContinuousBernoulli", "Exponential", "Gamma", "Pareto",
                    "Uniform")),
        ("Laplace", ("Beta", "ContinuousBernoulli", "Exponential", "Gamma", "Pareto",
                     "Uniform")),
        ("Normal", ("Beta", "ContinuousBernoulli", "Exponential", "Gamma", "Pareto",
                    "Uniform"))) for second in seconds),
    "scale": (("Pareto", "Beta"), ("Pareto", "ContinuousBernoulli"), ("Pareto", "Uniform")),
}

PAIRS = {("Bernoulli", "Poisson"): bernoulli_poisson,
         ("Beta", "ContinuousBernoulli"): beta_continuous_bernoulli,
         ("Beta", "Exponential"): beta_exponential, ("Beta", "Gamma"): beta_gamma,
         ("Beta", "Normal"): beta_normal, ("Beta", "Uniform"): beta_uniform,
         ("Binomial", "Binomial"): binomial_binomial,
         ("ContinuousBernoulli", "ContinuousBernoulli"):
             continuous_bernoulli_continuous_bernoulli,
         ("ContinuousBernoulli", "Exponential"): continuous_bernoulli_exponential,
         ("ContinuousBernoulli", "Normal"): continuous_bernoulli_normal,
         ("ContinuousBernoulli", "Uniform"): continuous_bernoulli_uniform,
         ("Exponential", "Gumbel"): exponential_gumbel, ("Gamma", "Gumbel"): gamma_gumbel,
         ("Gamma", "Normal"): gamma_normal, ("Gumbel", "Gumbel"): gumbel_gumbel,
         ("Gumbel", "Normal"): gumbel_normal, ("HalfNormal", "HalfNormal"): half_normal_half_normal,
         ("Normal", "Gumbel"): normal_gumbel, ("Pareto", "Pareto"): pareto_pareto,
         ("Pareto", "Exponential"): pareto_exponential, ("Pareto", "Gamma"): pareto_gamma,
         ("Pareto", "Normal"): pareto_normal,
         ("TransformedDistribution", "TransformedDistribution"): transformed_transformed,
         ("Uniform", "Beta"): uniform_beta,
         ("Uniform", "ContinuousBernoulli"): uniform_continuous_bernoulli,
         ("Uniform", "Gumbel"): uniform_gumbel, ("Uniform", "Pareto"): uniform_pareto,
         **{pair: _infinite_by(parameter) for parameter, pairs in _INFINITE.items()
            for pair in pairs}}
