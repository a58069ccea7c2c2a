"""The cases (tests/npgrad/cases.py's Case) for the complex tensors' rows (_complex_rules.py):
real inputs made complex inside each case, so the table's comparison with torch (values,
node names, gradients of a real upstream gradient) covers them as it covers the others."""

from __future__ import annotations

from tests.npgrad.cases import Case


def _z(m, a, b):
    return m.complex(a, b)


def _second_through(function):
    """The gradient of |function(a)|² summed, kept differentiable (its formula recorded)."""

    def call(m, a, b):
        (grad,) = m.autograd.grad(function(m, a, b).abs().pow(2).sum(), a, create_graph=True)
        return grad

    return call


COMPLEX_CASES = [
    Case("view_as_real", ((3, 2), (3, 2)), lambda m, a, b: m.view_as_real(_z(m, a, b) * 2)),
    Case("view_as_complex", ((4, 2),), lambda m, a: m.view_as_complex(a * 1)),
    Case("complex", ((2, 3), (2, 3)), _z),
    Case("polar", ((5,), (5,)), lambda m, a, b: m.polar(a, b), domain="positive"),
    Case("conj", ((3,), (3,)), lambda m, a, b: _z(m, a, b).conj() * 1),
    Case("conj_physical", ((3,), (3,)), lambda m, a, b: _z(m, a, b).conj_physical()),
    Case("angle", ((4,), (4,)), lambda m, a, b: _z(m, a, b).angle()),
    Case("angle", ((4,),), lambda m, a: a.angle(), label="real"),
    Case("sgn_complex", ((4,), (4,)), lambda m, a, b: _z(m, a, b).sgn()),
    Case("vdot_complex", ((4,), (4,)), lambda m, a, b: m.vdot(_z(m, a, b), _z(m, b, a * 2))),
    Case("mul", ((3,), (3,)), lambda m, a, b: _z(m, a, b) * _z(m, b, a) * (1 - 2j),
         label="complex"),
    Case("exp", ((3,), (3,)), lambda m, a, b: _z(m, a, b).exp(), label="complex"),
    Case("mm", ((2, 3), (2, 3)), lambda m, a, b: _z(m, a, b) @ _z(m, b, a).mH,
         label="complex"),
    Case("abs", ((4,), (4,)), lambda m, a, b: _z(m, a, b).abs(), label="complex"),
    Case("fft_c2c", ((6,), (6,)), lambda m, a, b: m.fft.fft(_z(m, a, b), norm="ortho")),
    Case("fft_c2c", ((2, 3), (2, 3)), lambda m, a, b: m.fft.ifft2(_z(m, a, b)), label="2d"),
    Case("fft_c2c", ((6,), (6,)), _second_through(lambda m, a, b: m.fft.fft(_z(m, a, b))),
         label="second"),
    Case("fft_r2c", ((6,),), lambda m, a: m.fft.rfft(a)),
    Case("fft_r2c", ((5,),), lambda m, a: m.fft.fft(a, n=7), label="two-sided"),
    Case("fft_r2c", ((2, 4),), lambda m, a: m.fft.rfft2(a, norm="forward"), label="2d"),
    Case("fft_c2r", ((4,), (4,)), lambda m, a, b: m.fft.irfft(_z(m, a, b))),
    Case("fft_c2r", ((4,), (4,)), lambda m, a, b: m.fft.irfft(_z(m, a, b), n=7), label="odd"),
    Case("fft_c2r", ((2, 3), (2, 3)), lambda m, a, b: m.fft.irfft2(_z(m, a, b)), label="2d"),
    Case("linalg_eig", ((3, 3),), lambda m, a: m.linalg.eigvals(a), domain="distinct",
         dtypes=("float64",)),
    # _lu.py's (here with torch.linalg's other newcomers)
    Case("linalg_lu_factor", ((3, 3),), lambda m, a: m.linalg.lu_factor(a).LU),
    Case("linalg_lu", ((3, 3),), lambda m, a: m.linalg.lu(a).U),
    Case("linalg_lu", ((4, 4),), lambda m, a: m.linalg.lu(a).L, label="lower"),
    Case("lu_unpack", ((3, 3),), lambda m, a: m.lu_unpack(*m.linalg.lu_factor(a)).U),
    Case("linalg_lu_solve", ((3, 3), (3, 2)), lambda m, a, b: m.linalg.lu_solve(
        *m.linalg.lu_factor(a), b)),
]
