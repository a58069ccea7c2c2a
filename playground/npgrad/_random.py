"""torch's CPU random numbers, reproduced: its Mersenne Twister seeded as torch seeds it, and
the way each of its CPU kernels turns the twister's 32-bit words into numbers.

Every draw follows the kernel torch 2.13 runs on an x86 CPU: the same words in the same order
(one word per float32 uniform, two per float64 one, 24 and 53 bits of them), the same
arithmetic (its compiler fused ``x * (to - from) + from`` into one FMA, so do we) and the same
switch of algorithm (normal numbers of 16 or more elements come 16 at a time). A seeded
tutorial therefore prints torch's numbers. Where torch calls the C library's log, sin and cos
in float64 we call Python's ``math`` (the same library) for up to ``EXACT_UP_TO`` numbers and
NumPy's (which can differ in the last bit) beyond."""

from __future__ import annotations

import math
import os
import struct

import numpy as np

from . import _boxmuller
from ._missing import SaysWhatItLacks
from ._numerics import fused_multiply_add, fused_multiply_add_float32

DEFAULT_SEED = 67280421310721  # where torch.Generator() starts
STATE_WORDS = 624
EXACT_UP_TO = 1 << 16  # float64 transcendentals through math, element by element, up to here
# get_rng_state's bytes, as torch lays them out: seed, left, seeded, next, the 624 words (each
# in 8 bytes), the cached float64 normal (x, y, rho, valid), the cached float32 normal.
_STATE_LAYOUT = struct.Struct(f"<QiiQ{STATE_WORDS}QdddixxxxfBxxx")
STATE_BYTES = _STATE_LAYOUT.size  # 5056
_DIGITS = {np.dtype(np.float16): 11, np.dtype(np.float32): 24, np.dtype(np.float64): 53}


class Draws:
    """Whether random draws are refused now, and in which words (vmap's "error" mode)."""

    refusal: str | None = None


class Generator(SaysWhatItLacks):
    """A random stream (``torch.Generator``): torch's mt19937, its seed, and the second
    normal number of the last Box-Muller pair (torch keeps it for the next scalar draw)."""

    def __init__(self, device="cpu") -> None:
        self.device = _device(device)
        self.manual_seed(DEFAULT_SEED)

    def manual_seed(self, seed) -> Generator:
        seed = int(seed)
        if not -(2**63) <= seed < 2**64:
            raise ValueError("Overflow when unpacking long long")
        self._seed = seed % 2**64
        self._twister = None  # made on the first draw: importing numpy.random takes time
        self._fresh = True
        self._next_normal = None
        return self

    def initial_seed(self) -> int:
        return self._seed

    def seed(self) -> int:
        """A seed from the operating system's entropy, taken and returned (``torch.seed``)."""
        value = int.from_bytes(os.urandom(8), "little") % 2**63
        self.manual_seed(value)
        return value

    def words(self, count: int) -> np.ndarray:
        """The next ``count`` 32-bit outputs (torch's ``random()``), as uint64."""
        if Draws.refusal is not None:  # (inside vmap, in its randomness="error" mode)
            raise RuntimeError(Draws.refusal)
        self._fresh = False
        return self._stream().random_raw(count).astype(np.uint64)

    def longs(self, count: int) -> np.ndarray:
        """The next ``count`` 64-bit numbers (torch's ``random64()``): two words each, the
        first one high."""
        pairs = self.words(2 * count)
        return (pairs[0::2] << np.uint64(32)) | pairs[1::2]

    def take_cached_normal(self) -> float | None:
        value, self._next_normal = self._next_normal, None
        return value

    def cache_normal(self, value: float) -> None:
        self._next_normal = value

    def state_bytes(self) -> bytes:
        """torch's 5056 bytes of generator state (``get_rng_state``)."""
        key, position = self._key_and_position()
        # torch counts down ``left`` to its next twist: 1 right after seeding and after the
        # 624th word alike, ``next`` 0 in the first case
        following = 0 if self._fresh else position
        left = 1 if position == STATE_WORDS else STATE_WORDS - position + 1
        cached = self._next_normal
        return _STATE_LAYOUT.pack(self._seed, left, 1, following, *key.tolist(), 0.0,
                                  cached or 0.0, 0.0, int(cached is not None), 0.0, 0)

    def restore(self, state: bytes) -> None:
        """Back to a state taken by ``state_bytes`` (or torch's own)."""
        if len(state) != STATE_BYTES:
            raise RuntimeError(f"Expected a CPUGeneratorImplState of size {STATE_BYTES} but "
                               f"found the input RNG state size to be {len(state)}")
        fields = _STATE_LAYOUT.unpack(state)
        seed, left, _, following = fields[:4]
        key = np.array(fields[4:4 + STATE_WORDS], dtype=np.uint64).astype(np.uint32)
        normal_y, valid = fields[4 + STATE_WORDS + 1], fields[4 + STATE_WORDS + 3]
        self._seed, self._fresh = seed, left == 1 and following == 0
        position = STATE_WORDS if left == 1 else following
        self._twister = _twister(key, position)
        self._next_normal = normal_y if valid else None

    def _stream(self):
        if self._twister is None:
            self._twister = _twister(_seeded_key(self._seed), STATE_WORDS)
        return self._twister

    def _key_and_position(self) -> tuple[np.ndarray, int]:
        if self._twister is None:
            return _seeded_key(self._seed), STATE_WORDS
        state = self._twister.state["state"]
        return np.asarray(state["key"], dtype=np.uint32), int(state["pos"])

    def __repr__(self) -> str:
        return f"<torch._C.Generator object at {hex(id(self))}>"


def _device(spec):
    from ._device import usable
    return usable(spec)


def _seeded_key(seed: int) -> np.ndarray:
    """mt19937's initial words for a seed (its low 32 bits), Knuth's recurrence."""
    key = [seed & 0xFFFFFFFF]
    for index in range(1, STATE_WORDS):
        previous = key[-1]
        key.append((1812433253 * (previous ^ (previous >> 30)) + index) & 0xFFFFFFFF)
    return np.array(key, dtype=np.uint32)


def _twister(key: np.ndarray, position: int):
    """NumPy's MT19937 (the same twister and tempering) set to these words; position 624
    twists before the next word, as torch does right after seeding."""
    twister = np.random.MT19937()
    twister.state = {"bit_generator": "MT19937", "state": {"key": key, "pos": position}}
    return twister


# torch 2.13's default stream starts at a seed of 64 bits from the system's entropy, a new
# one in each process (a new Generator() still starts at DEFAULT_SEED)
default_generator = Generator().manual_seed(int.from_bytes(os.urandom(8), "little"))


def chosen(generator: Generator | None) -> Generator:
    return default_generator if generator is None else generator


# ---- uniform --------------------------------------------------------------------------------

def uniforms(generator: Generator, count: int, dtype: np.dtype, low: float = 0.0,
             high: float = 1.0) -> np.ndarray:
    """torch's uniform_real_distribution: the low 24 (float32) or 53 (float64, from two
    words) bits of each draw over 2**bits, then ``x * (high - low) + low`` fused. A half
    tensor gets float32's numbers rounded to half, as torch 2.13 draws them, where one that
    rounds up to ``high`` becomes ``low`` (the range stays [low, high))."""
    dtype = np.dtype(dtype)
    if dtype == np.float16:
        rounded = uniforms(generator, count, np.dtype(np.float32), low, high).astype(dtype)
        rounded[rounded >= dtype.type(high)] = dtype.type(low)
        return rounded
    digits = _DIGITS[dtype]
    draws = generator.longs(count) if dtype == np.float64 else generator.words(count)
    mask = np.uint64((1 << digits) - 1)
    if dtype == np.float64:
        unit = (draws & mask).astype(np.float64) * 2.0**-digits
        if (low, high) == (0.0, 1.0):
            return unit
        return fused_multiply_add(unit, np.float64(high) - np.float64(low), np.float64(low))
    unit = (draws & mask).astype(np.float32) * np.float32(2.0**-digits)
    if (low, high) != (0.0, 1.0):
        start, stop = np.float32(dtype.type(low)), np.float32(dtype.type(high))
        unit = fused_multiply_add_float32(unit, stop - start, start)
    return unit.astype(dtype)


def check_uniform_bounds(low: float, high: float) -> None:
    if low > high:
        raise RuntimeError(f"uniform_ expects to return a [from, to) range, but found "
                           f"from={_number(low)} > to={_number(high)}")


# ---- normal ---------------------------------------------------------------------------------

def normals(generator: Generator, count: int, dtype: np.dtype, mean: float = 0.0,
            std: float = 1.0, contiguous: bool = True) -> np.ndarray:
    """torch's normal_: below 16 elements (or into a strided view) one Box-Muller pair per two
    numbers in float64, its second number kept for the next draw; from 16 on, uniforms for the
    whole tensor, turned into normals 16 at a time, the last 16 drawn again when the count is
    not a multiple of 16."""
    dtype = np.dtype(dtype)
    if dtype == np.float16:
        return reduced_precision_normals(generator, count, mean, std, contiguous).astype(dtype)
    return _normals(generator, count, dtype, mean, std, contiguous)


def reduced_precision_normals(generator: Generator, count: int, mean: float = 0.0,
                              std: float = 1.0, contiguous: bool = True) -> np.ndarray:
    """A half or bfloat16 tensor's normals, as the float32 values torch rounds to them: a
    float's, except that the first draw is of whole blocks only (a float's draws every number
    first, the tail's included); below 16, float64 ones through float32 (as c10::Half's and
    c10::BFloat16's constructors take a double)."""
    if count < _boxmuller.BLOCK or not contiguous:
        return _normals(generator, count, np.dtype(np.float64), mean, std,
                        contiguous).astype(np.float32)
    return _normals(generator, count, np.dtype(np.float32), mean, std, contiguous,
                    whole_first=True)


def _normals(generator: Generator, count: int, dtype: np.dtype, mean: float, std: float,
             contiguous: bool, whole_first: bool = False) -> np.ndarray:
    if std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {_number(std)}")
    if count < _boxmuller.BLOCK or not contiguous:
        return _scalar_normals(generator, count, mean, std).astype(dtype)
    whole = count - count % _boxmuller.BLOCK
    values = uniforms(generator, whole if whole_first else count, dtype)
    if len(values) < count:
        values = np.concatenate([values, np.zeros(count - whole, dtype)])
    turn = _boxmuller.normals_from_uniforms if dtype == np.float32 else _block_normals_float64
    values[:whole] = turn(values[:whole], mean, std)
    if whole != count:
        tail = uniforms(generator, _boxmuller.BLOCK, dtype)
        values[-_boxmuller.BLOCK:] = turn(tail, mean, std)
    return values.astype(dtype)


def _scalar_normals(generator: Generator, count: int, mean: float, std: float) -> np.ndarray:
    """normal_distribution<double>: u1 for the angle, u2 for the radius (log1p(-u2))."""
    values = []
    while len(values) < count:
        cached = generator.take_cached_normal()
        if cached is not None:
            values.append(cached)
            continue
        angle_unit, radius_unit = uniforms(generator, 2, np.float64).tolist()
        radius = math.sqrt(-2.0 * math.log1p(-radius_unit))
        angle = 2.0 * math.pi * angle_unit
        generator.cache_normal(radius * math.sin(angle))
        values.append(radius * math.cos(angle))
    return _scaled(np.array(values, dtype=np.float64), mean, std)


def _block_normals_float64(uniform: np.ndarray, mean: float, std: float) -> np.ndarray:
    """normal_fill_16 in float64: the C library's log, cos and sin of each pair."""
    blocks = uniform.reshape(-1, _boxmuller.BLOCK)
    half = _boxmuller.BLOCK // 2
    first, second = 1 - blocks[:, :half], blocks[:, half:]
    radius = _libm(lambda u: math.sqrt(-2 * math.log(u)),
                   lambda u: np.sqrt(-2 * np.log(u)), first)
    angle = 2.0 * math.pi * second
    cosine = radius * _libm(math.cos, np.cos, angle)
    sine = radius * _libm(math.sin, np.sin, angle)
    return _scaled(np.concatenate([cosine, sine], axis=1).reshape(-1), mean, std)


def _scaled(normals: np.ndarray, mean: float, std: float) -> np.ndarray:
    """float64 standard normals times std plus mean, fused as torch's kernels fuse it."""
    if (mean, std) == (0.0, 1.0):
        return normals
    return fused_multiply_add(normals, np.float64(std), np.float64(mean))


def _libm(exact, vectorised, values: np.ndarray) -> np.ndarray:
    """``exact`` element by element (the C library, as torch) up to EXACT_UP_TO numbers."""
    if values.size > EXACT_UP_TO:
        return vectorised(values)
    return np.array([exact(v) for v in values.ravel().tolist()],
                    dtype=np.float64).reshape(values.shape)


# ---- integers -------------------------------------------------------------------------------

def integers(generator: Generator, count: int, dtype: np.dtype, low: int,
             high: int) -> np.ndarray:
    """random_(from, to) and randint: ``draw % (to - from) + from``, one word per draw, or
    two when the range reaches 2**32 (for int64 and float results)."""
    if low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got "
                           f"from={low} >= to={high}")
    dtype = np.dtype(dtype)
    span = high - low
    wide = span >= 2**32 and (dtype == np.int64 or dtype.kind == "f")
    draws = generator.longs(count) if wide else generator.words(count)
    offsets = draws % np.uint64(span)
    return (offsets.astype(np.int64) + np.int64(low)).astype(dtype)


def whole_numbers(generator: Generator, count: int, dtype: np.dtype) -> np.ndarray:
    """random_() with no range: any whole number the dtype holds exactly (0 to 2**mantissa
    for floats, 0 to its maximum for integers, 0 or 1 for bool)."""
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return (generator.words(count) & np.uint64(1)).astype(np.bool_)
    wide = dtype in (np.dtype(np.int64), np.dtype(np.float64))
    draws = generator.longs(count) if wide else generator.words(count)
    modulus = (1 << _DIGITS[dtype]) + 1 if dtype.kind == "f" else int(np.iinfo(dtype).max) + 1
    return (draws % np.uint64(modulus)).astype(dtype)


def permutation(generator: Generator, count: int) -> np.ndarray:
    """randperm's CPU shuffle: for each position i, swap it with i + word % (n - i)."""
    order = list(range(count))
    if count > 1:
        picks = generator.words(count - 1) % np.arange(count, 1, -1, dtype=np.uint64)
        for index, pick in enumerate(picks.tolist()):
            other = index + pick
            order[index], order[other] = order[other], order[index]
    return np.array(order, dtype=np.int64)


# ---- bernoulli, exponential, multinomial ----------------------------------------------------

def bernoulli_scalar(generator: Generator, count: int, probability: float) -> np.ndarray:
    """bernoulli_(p): a float64 uniform (two words) per element, 1 where it is below p."""
    if not 0 <= probability <= 1:
        raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got "
                           f"p={_number(probability)}")
    return uniforms(generator, count, np.float64) < probability


def bernoulli_tensor(generator: Generator, probabilities: np.ndarray) -> np.ndarray:
    """bernoulli(p) with a tensor p: a uniform of p's own precision per element."""
    if probabilities.size and not ((probabilities >= 0) & (probabilities <= 1)).all():
        raise RuntimeError("Expected p_in >= 0 && p_in <= 1 to be true, but got false.  "
                           "(Could this error message be improved?  If so, please report an "
                           "enhancement request to PyTorch.)")
    kind = np.float64 if probabilities.dtype == np.float64 else np.float32
    draws = uniforms(generator, probabilities.size, kind).reshape(probabilities.shape)
    return draws < probabilities


def exponentials(generator: Generator, count: int, rate: float = 1.0) -> np.ndarray:
    """exponential_(λ) in float64: ``-1/λ · log1p(-u)``."""
    if not rate > 0:
        raise RuntimeError(f"exponential_ expects lambda > 0.0, but found "
                           f"lambda={_number(rate)}")
    unit = uniforms(generator, count, np.float64)
    return (-1.0 / rate) * _libm(lambda u: math.log1p(-u), lambda u: np.log1p(-u), unit)


def check_positive(op: str, name: str, value: float) -> None:
    if not value > 0:
        raise RuntimeError(f"{op} expects {name} > 0.0, but found {name}={_number(value)}")


def check_probability(op: str, probability: float) -> None:
    if not 0 < probability < 1:
        raise RuntimeError(f"{op} expects p to be in (0, 1), but got p={_number(probability)}")


def cauchys(generator: Generator, count: int, median: float, sigma: float) -> np.ndarray:
    """cauchy_(median, σ) in float64: ``median + σ · tan(π (u - 1/2))``, the last step fused."""
    check_positive("cauchy_", "sigma", sigma)
    unit = uniforms(generator, count, np.float64)
    turned = _libm(lambda u: math.tan(math.pi * (u - 0.5)),
                   lambda u: np.tan(math.pi * (u - 0.5)), unit)
    return fused_multiply_add(turned, np.float64(sigma), np.float64(median))


def log_normals(generator: Generator, count: int, mean: float, std: float) -> np.ndarray:
    """log_normal_(μ, σ): ``exp`` of normal_distribution<double>'s draws, one Box-Muller pair
    per two numbers whatever the count (no blocks of 16), the spare one kept as normal_'s."""
    check_positive("log_normal_", "std", std)
    return _libm(math.exp, np.exp, _scalar_normals(generator, count, mean, std))


def geometrics(generator: Generator, count: int, probability: float) -> np.ndarray:
    """geometric_(p): trials to the first success, ``ceil(log(u) / log1p(-p))``."""
    check_probability("geometric_", probability)
    unit = uniforms(generator, count, np.float64)
    scale = math.log1p(-probability)
    return _libm(lambda u: math.ceil(math.log(u) / scale),
                 lambda u: np.ceil(np.log(u) / scale), unit)


def multinomial(generator: Generator, probabilities: np.ndarray, samples: int,
                replacement: bool) -> np.ndarray:
    """torch.multinomial's CPU draws: without replacement (or one sample) the exponential
    trick (the largest p / Exp(1)); with replacement a float64 uniform per sample looked up
    in each row's normalised cumulative sum."""
    _check_distribution(probabilities, samples, replacement)
    rows = probabilities.reshape(-1, probabilities.shape[-1])
    if not replacement or samples == 1:
        noise = exponentials(generator, rows.size).astype(rows.dtype).reshape(rows.shape)
        ratio = rows / noise
        picked = np.argsort(-ratio, axis=1, kind="stable")[:, :samples]
    else:
        picked = np.empty((rows.shape[0], samples), dtype=np.int64)
        for index, row in enumerate(rows):
            cumulative = np.cumsum(row, dtype=row.dtype)
            cumulative = cumulative / cumulative[-1]
            draws = uniforms(generator, samples, np.float64)
            picked[index] = np.searchsorted(cumulative.astype(np.float64), draws, side="left")
    return picked.reshape(*probabilities.shape[:-1], samples).astype(np.int64)


def _check_distribution(probabilities: np.ndarray, samples: int, replacement: bool) -> None:
    if probabilities.ndim not in (1, 2):
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    if not replacement and samples > probabilities.shape[-1]:
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without "
                           "replacement")
    if not np.isfinite(probabilities).all() or (probabilities < 0).any():
        raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
    if (probabilities.reshape(-1, probabilities.shape[-1]).sum(axis=1) <= 0).any():
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")


def _number(value) -> str:
    """A bound as torch prints it in these messages (3, 0.5, -1)."""
    value = float(value)
    return str(int(value)) if value.is_integer() else repr(value)
