"""KL divergences between discrete distributions of one kind and between kinds (a Uniform
against a Normal, an Exponential against a Gamma...), each computed with torch's formula op
for op, so that values and gradients carry its rounding; and ``register_kl`` for a user's
own pair, found for subclasses as torch finds it (the most specific registered pair)."""

from __future__ import annotations

import math

EULER_GAMMA = 0.57721566490153286060
INFINITY = math.inf


def bernoulli_bernoulli(p, q):
    from ..nn import functional as F

    t1 = p.probs * (F.softplus(-q.logits) - F.softplus(-p.logits))
    t1[q.probs == 0] = INFINITY
    t1[p.probs == 0] = 0
    t2 = (1 - p.probs) * (F.softplus(q.logits) - F.softplus(p.logits))
    t2[q.probs == 1] = INFINITY
    t2[p.probs == 1] = 0
    return t1 + t2


def categorical_categorical(p, q):
    t = p.probs * (p.logits - q.logits)
    t[(q.probs == 0).expand_as(t)] = INFINITY
    t[(p.probs == 0).expand_as(t)] = 0
    return t.sum(-1)


def one_hot_one_hot(p, q):
    return categorical_categorical(p._categorical, q._categorical)


def laplace_laplace(p, q):
    scale_ratio = p.scale / q.scale
    loc_abs_diff = (p.loc - q.loc).abs()
    t1 = -scale_ratio.log()
    t2 = loc_abs_diff / q.scale
    t3 = scale_ratio * (-loc_abs_diff / p.scale).exp()
    return t1 + t2 + t3 - 1


def uniform_normal(p, q):
    width = p.high - p.low
    t1 = (math.sqrt(math.pi * 2) * q.scale / width).log()
    t2 = width.pow(2) / 12
    t3 = ((p.high + p.low - 2 * q.loc) / 2).pow(2)
    return t1 + 0.5 * (t2 + t3) / q.scale.pow(2)


def uniform_exponential(p, q):
    result = q.rate * (p.high + p.low) / 2 - ((p.high - p.low) * q.rate).log()
    result[p.low < 0] = INFINITY
    return result


def uniform_gamma(p, q):
    width = p.high - p.low
    t1 = width.log()
    t2 = q.concentration.lgamma() - q.concentration * q.rate.log()
    t3 = (1 - q.concentration) * (_x_log_x(p.high) - _x_log_x(p.low) - width) / width
    t4 = q.rate * (p.high + p.low) / 2
    result = -t1 + t2 + t3 + t4
    result[p.low < 0] = INFINITY
    return result


def _x_log_x(value):
    return value * value.log()


def exponential_gamma(p, q):
    ratio = q.rate / p.rate
    t1 = -q.concentration * ratio.log()
    return (t1 + ratio + q.concentration.lgamma() + q.concentration * EULER_GAMMA
            - (1 + EULER_GAMMA))


def gamma_exponential(p, q):
    return -p.entropy() - q.rate.log() + q.rate * p.concentration / p.rate


def exponential_normal(p, q):
    var_normal = q.scale.pow(2)
    rate_sqr = p.rate.pow(2)
    t1 = 0.5 * (rate_sqr * var_normal * 2 * math.pi).log()
    t2 = rate_sqr.reciprocal()
    t3 = q.loc / p.rate
    t4 = q.loc.pow(2) * 0.5
    return t1 - 1 + (t2 - t3 + t4) / var_normal


def normal_laplace(p, q):
    loc_diff = p.loc - q.loc
    scale_ratio = p.scale / q.scale
    loc_diff_scale_ratio = loc_diff / p.scale
    t1 = scale_ratio.log()
    t2 = math.sqrt(2 / math.pi) * p.scale * (-0.5 * loc_diff_scale_ratio.pow(2)).exp()
    t3 = loc_diff * (math.sqrt(0.5) * loc_diff_scale_ratio).erf()
    return -t1 + (t2 + t3) / q.scale - (0.5 * (1 + math.log(0.5 * math.pi)))


def laplace_normal(p, q):
    var_normal = q.scale.pow(2)
    scale_sqr_var_ratio = p.scale.pow(2) / var_normal
    t1 = 0.5 * (2 * scale_sqr_var_ratio / math.pi).log()
    t2 = 0.5 * p.loc.pow(2)
    t3 = p.loc * q.loc
    t4 = 0.5 * q.loc.pow(2)
    return -t1 + scale_sqr_var_ratio + (t2 - t3 + t4) / var_normal - 1


# (p's kind, q's kind) -> formula, by class name (the classes live in several modules)
PAIRS = {("Bernoulli", "Bernoulli"): bernoulli_bernoulli,
         ("Categorical", "Categorical"): categorical_categorical,
         ("OneHotCategorical", "OneHotCategorical"): one_hot_one_hot,
         ("Laplace", "Laplace"): laplace_laplace, ("Uniform", "Normal"): uniform_normal,
         ("Uniform", "Exponential"): uniform_exponential, ("Uniform", "Gamma"): uniform_gamma,
         ("Exponential", "Gamma"): exponential_gamma, ("Gamma", "Exponential"): gamma_exponential,
         ("Exponential", "Normal"): exponential_normal, ("Normal", "Laplace"): normal_laplace,
         ("Laplace", "Normal"): laplace_normal}
