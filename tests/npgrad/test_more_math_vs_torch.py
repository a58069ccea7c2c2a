"""torch's further math on npgrad against real torch, run here: cumulative ops (cumprod,
cummax/cummin, logcumsumexp, diff, trapezoid), stacking and splitting (hstack..., atleast_*,
tensor_split, hsplit...), rot90, block_diag and the diagonals, special functions (logaddexp,
erfinv, sinc, logit, heaviside, float_power...), products (inner, ger, vdot, addmv, addbmm,
chain_matmul, multi_dot), matrix_exp, cov/corrcoef/vander and torch.linalg's additions
(matrix_power, solve_triangular, vecdot, matrix_rank, cond, inv_ex/solve_ex/cholesky_ex,
lstsq, pinv, matrix_norm/norm): values, reprs, nodes, gradients (second ones too), errors."""

from __future__ import annotations

from tests.oracle import assert_playground_prints_as_torch

SCRIPT = """
import math
import warnings

import torch

torch.manual_seed(0)
x = torch.randn(3, 4, requires_grad=True)
v = torch.randn(4, requires_grad=True)


def node(t):
    return t.grad_fn.name() if t.grad_fn is not None else None


def show(name, t):
    print(name, t.dtype, tuple(t.shape), node(t))
    print(t)


def grads(*tensors):
    out = []
    for t in tensors:
        out.append(t.grad)
        t.grad = None
    print(*out)


# cumulative ops
show("cumprod", x.cumprod(1))
show("cumprod int", torch.cumprod(torch.tensor([1, 2, 3]), 0))
show("cumprod dtype", torch.cumprod(x, dim=0, dtype=torch.float64))
y = torch.tensor([[2.0, 0.0, 3.0, 1.5], [1.0, -1.0, 0.0, 0.0]], requires_grad=True)
y.cumprod(1).sum().backward()
print("cumprod zeros grad", y.grad)
result = x.cummax(1)
print(result)
show("cummin", torch.cummin(x, dim=0).values)
print(torch.cummax(torch.tensor([1.0, float("nan"), 3.0, float("nan"), 0.0]), 0))
print(torch.cummin(torch.tensor([[2, 1, 1, 3]]), 1))
(result.values.sum() + x.cummin(0)[0].pow(2).sum()).backward()
grads(x)
show("logcumsumexp", x.logcumsumexp(1))
torch.logcumsumexp(x, dim=0).sum().backward()
grads(x)
show("diff", x.diff())
show("diff n2", torch.diff(x, n=2, dim=0))
show("diff prepend", torch.diff(x, dim=0, prepend=v[None], append=x[:1]))
show("diff bool", torch.tensor([True, False, False, True]).diff())
print(x.diff(n=0), x.diff(n=0).grad_fn.name())
show("trapezoid", torch.trapezoid(x))
show("trapezoid dx", torch.trapezoid(x, dx=0.5, dim=0))
show("trapezoid x", torch.trapezoid(x, v))
show("trapz", torch.trapz(x, v))
show("trapezoid int", torch.trapezoid(torch.tensor([1, 2, 4])))
show("cumulative_trapezoid", torch.cumulative_trapezoid(x))
show("cumulative_trapezoid x", torch.cumulative_trapezoid(x, v))
(torch.trapezoid(x, v).sum() + torch.cumulative_trapezoid(x, dx=2.0).sum()).backward()
grads(x, v)

# shapes
show("rot90", x.rot90())
show("rot90 k", torch.rot90(x, 2, [1, 0]))
show("rot90 -1", x.rot90(-1, dims=(0, 1)))
print(x.rot90().is_contiguous(), x.rot90(2).is_contiguous())
(x.rot90(3) * torch.arange(12.0).reshape(4, 3)).sum().backward()
grads(x)
s = torch.tensor(2.0, requires_grad=True)
for f in (torch.atleast_1d, torch.atleast_2d, torch.atleast_3d):
    print(f.__name__, [tuple(t.shape) for t in f(s, v, x)], node(f(s)), node(f(v)),
          f(x) is x)
print(torch.atleast_3d([v, x])[1].grad_fn.name(), torch.atleast_1d())
show("hstack", torch.hstack([x, x[:, :1]]))
show("hstack 1d", torch.hstack((v, v)))
show("vstack", torch.vstack([v, x]))
show("row_stack", torch.row_stack((v, v)))
show("dstack", torch.dstack([x, x]))
show("column_stack", torch.column_stack([v[:3], x, torch.zeros(3)]))
torch.column_stack([v[:3], x]).pow(2).sum().backward()
grads(x, v)
pieces = x.tensor_split(3, dim=1)
print([tuple(p.shape) for p in pieces], pieces[0].grad_fn.name(), pieces[0])
print(torch.tensor_split(x, [1, 10]))
print(torch.tensor_split(x, torch.tensor([1, 2]), dim=1)[2])
print([p.shape for p in x.hsplit(2)], [p.shape for p in torch.vsplit(x, [1])])
print([p.shape for p in torch.randn(2, 3, 4).dsplit(2)], [p.shape for p in v.hsplit([1, 3])])
sum(p.sum() * i for i, p in enumerate(x.tensor_split(3))).backward()
grads(x)
b = torch.block_diag(x, v, s, torch.ones(2, 2, dtype=torch.float64))
show("block_diag", b)
show("block_diag ints", torch.block_diag(torch.tensor([[1, 2]]), torch.tensor(3)))
print(torch.block_diag())
b.pow(2).sum().backward()
grads(x, v, s)
show("diag vec", torch.diag(v))
show("diag vec 1", v.diag(1))
show("diag mat", x.diag())
show("diag mat -1", torch.diag(x, -1))
show("diag_embed", x.diag_embed())
show("diag_embed args", torch.diag_embed(x, offset=-1, dim1=0, dim2=2))
show("diagflat", x.diagflat())
show("diagflat v", torch.diagflat(v, -2))
(x.diag_embed(1).pow(2).sum() + x.diag(1).sum() + v.diagflat().sum()).backward()
grads(x, v)
show("swapaxes", torch.swapaxes(x, 0, 1))
show("swapdims", x.swapdims(1, 0))
show("swapdims f", torch.swapdims(x, 0, -1))
show("narrow_copy", x.narrow_copy(1, 1, 2))
show("narrow_copy f", torch.narrow_copy(x, 0, -2, 2))
print(x.narrow_copy(1, 1, 2).is_contiguous())
x.narrow_copy(1, 1, 2).pow(2).sum().backward()
grads(x)

# special functions
show("logaddexp", torch.logaddexp(x, v))
show("logaddexp2", x.logaddexp2(torch.tensor(1.0)))
ends = torch.tensor([-math.inf, math.inf, 1.0])
print(torch.logaddexp(ends, ends * 2), torch.logaddexp2(ends, -ends))
(torch.logaddexp(x, v).sum() + x.logaddexp2(v * 2).sum()).backward()
grads(x, v)
u = torch.tensor([-0.99, -0.5, 0.0, 0.25, 0.9], requires_grad=True)
show("erfinv", u.erfinv())
show("erfinv f", torch.erfinv(torch.tensor([-1.0, 1.0, 1.5, 0.0])))
show("erfinv int", torch.erfinv(torch.tensor([0, 1])))
show("erfinv double", torch.erfinv(u.double() / 2))
u.erfinv().sum().backward()
grads(u)
show("sinc", x.sinc())
show("sinc int", torch.sinc(torch.tensor([0, 1, 2])))
show("sinc 0", torch.sinc(torch.tensor([0.0, 0.5])))
w = torch.tensor([0.0, 0.5, -1.5, 2.0], requires_grad=True)
w.sinc().sum().backward()
grads(w)
p = torch.tensor([0.0, 0.1, 0.5, 0.95, 1.0, 1.2], requires_grad=True)
show("logit", p.logit())
show("logit eps", torch.logit(p, eps=0.2))
show("logit eps f", torch.logit(p, 1e-6))
p.logit().sum().backward()
grads(p)
torch.logit(p, eps=0.2).sum().backward()
grads(p)
show("heaviside", torch.heaviside(torch.tensor([-1.0, 0.0, 2.0]), torch.tensor(0.5)))
show("heaviside int", torch.tensor([-1, 0, 2]).heaviside(torch.tensor([7, 8, 9])))
h = torch.heaviside(x, v)
print(h.grad_fn.name())
show("float_power", x.float_power(2))
show("float_power t", torch.float_power(x.abs(), v))
show("float_power s", torch.float_power(2, v))
show("float_power int", torch.float_power(torch.tensor([2]), 2))
(x.abs().float_power(v).sum()).backward()
grads(x, v)
show("deg2rad", x.deg2rad())
show("deg2rad int", torch.deg2rad(torch.tensor([180, 90])))
show("rad2deg", torch.rad2deg(v))
show("sgn", x.sgn())
show("sgn int", torch.tensor([-3, 0, 2]).sgn())
show("signbit", torch.signbit(torch.tensor([-0.0, 0.0, -1.0, 2.0])))
show("signbit int", torch.tensor([-3, 0, 2]).signbit())
(x.deg2rad().sum() + v.rad2deg().sum()).backward()
grads(x, v)

# products
y = torch.randn(2, 4, requires_grad=True)
show("inner", torch.inner(x, y))
show("inner vectors", v.inner(v))
show("inner scalar", torch.inner(torch.tensor(2.0), x))
show("inner batched", torch.inner(torch.randn(2, 3, 4), v))
torch.inner(x, y).sum().backward()
grads(x, y)
show("ger", torch.ger(v, v[:3]))
show("vdot", torch.vdot(v, v))
show("vdot m", v.vdot(x[0]))
torch.vdot(v, x[1]).backward()
grads(x, v)
b = torch.randn(3, requires_grad=True)
show("addmv", torch.addmv(b, x, v))
show("addmv s", b.addmv(x, v, beta=2, alpha=0.5))
show("addmv 0", torch.addmv(torch.full((3,), float("nan")), x, v, beta=0))
torch.addmv(b, x, v, alpha=3).sum().backward()
grads(b, x, v)
b1 = torch.randn(2, 3, 4, requires_grad=True)
b2 = torch.randn(2, 4, 5, requires_grad=True)
m = torch.randn(3, 5, requires_grad=True)
show("addbmm", torch.addbmm(m, b1, b2))
show("addbmm s", m.addbmm(b1, b2, beta=0.5, alpha=2))
torch.addbmm(m, b1, b2, alpha=2).sum().backward()
grads(m, b1, b2)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    c = torch.chain_matmul(x.T, x, y.T)
    torch.chain_matmul(x)
    print([str(w.message)[:60] for w in caught])
show("chain_matmul", c)
show("chain_matmul one", torch.chain_matmul(x))
show("multi_dot", torch.linalg.multi_dot([v, x.T, x, v]))
show("multi_dot 2", torch.linalg.multi_dot([x, v]))
show("multi_dot 3", torch.linalg.multi_dot((y.T, y, x.T)))
torch.linalg.multi_dot([x.T, x, y.T]).sum().backward()
grads(x, y)

# linear algebra
A = (torch.randn(3, 3) + 3 * torch.eye(3)).requires_grad_()
show("matrix_exp", A.matrix_exp())
show("matrix_exp f", torch.matrix_exp(torch.zeros(2, 2)))
show("linalg.matrix_exp", torch.linalg.matrix_exp(torch.tensor([[0.0, 1.0], [-1.0, 0.0]])))
show("matrix_exp batched", torch.linalg.matrix_exp(torch.randn(2, 2, 2, dtype=torch.float64)))
(A / 4).matrix_exp().sum().backward()
grads(A)
print(torch.linalg.matrix_power(A, 0))
for n in (1, 2, 3, 5, -1, -2):
    show(f"matrix_power {n}", torch.linalg.matrix_power(A, n))
show("matrix_power int", torch.tensor([[1, 1], [0, 1]]).matrix_power(4))
show("matrix_power t", torch.matrix_power(A, 2))
torch.linalg.matrix_power(A / 2, 5).sum().backward()
grads(A)
U = (torch.randn(3, 3).triu() + 3 * torch.eye(3)).requires_grad_()
B = torch.randn(3, 2, requires_grad=True)
show("solve_triangular", torch.linalg.solve_triangular(U, B, upper=True))
show("solve_triangular lower", torch.linalg.solve_triangular(U.T, B, upper=False))
show("solve_triangular right", torch.linalg.solve_triangular(U, B.T, upper=True, left=False))
show("solve_triangular unit", torch.linalg.solve_triangular(U, B, upper=True, unitriangular=True))
torch.linalg.solve_triangular(U, B, upper=True).sum().backward()
grads(U, B)
torch.linalg.solve_triangular(U, B.T, upper=False, left=False, unitriangular=True).sum().backward()
grads(U, B)
show("vecdot", torch.linalg.vecdot(x, v))
show("vecdot 1d", torch.linalg.vecdot(v, v))
show("vecdot dim", torch.linalg.vecdot(x, x, dim=0))
print(torch.linalg.matrix_rank(x), torch.linalg.matrix_rank(torch.ones(3, 3)),
      torch.linalg.matrix_rank(x, atol=1.0), torch.linalg.matrix_rank(x, 1.0),
      torch.linalg.matrix_rank(torch.ones(2, 3, 3), hermitian=True),
      torch.linalg.matrix_rank(x, rtol=0.5))
show("cond", torch.linalg.cond(A))
show("cond x", torch.linalg.cond(x))
show("cond -2", torch.linalg.cond(A, -2))
for p in (1, -1, math.inf, -math.inf, "fro", "nuc"):
    show(f"cond {p}", torch.linalg.cond(A.detach(), p))
print(torch.linalg.cond(torch.tensor([[1.0, 2.0], [2.0, 4.0]]), 1))
torch.linalg.cond(A).backward()
grads(A)
S = torch.tensor([[1.0, 2.0], [2.0, 4.0]])
print(torch.linalg.inv_ex(A))
print(torch.linalg.inv_ex(S))
print(torch.linalg.inv_ex(torch.stack([S, torch.eye(2)])).info)
print(torch.linalg.solve_ex(A, v[:3]))
print(torch.linalg.solve_ex(S, torch.ones(2)))
print(torch.linalg.cholesky_ex(A @ A.T))
print(torch.linalg.cholesky_ex(S))
print(torch.linalg.cholesky_ex(torch.eye(2), upper=True))
(torch.linalg.inv_ex(A).inverse.sum() + torch.linalg.solve_ex(A, v[:3]).result.sum()
 + torch.linalg.cholesky_ex(A @ A.T).L.sum()).backward()
grads(A, v)
M = torch.randn(5, 3, dtype=torch.float64, requires_grad=True)
r = torch.randn(5, dtype=torch.float64, requires_grad=True)
print(torch.linalg.lstsq(M, r))
print(torch.linalg.lstsq(M, r[:, None], driver="gelsd"))
print(torch.linalg.lstsq(M, r, driver="gels"))
print(torch.linalg.lstsq(M.T, torch.eye(3, dtype=torch.float64), driver="gelss"))
sol = torch.linalg.lstsq(M, r).solution
print(sol.grad_fn.name())
sol.sum().backward()
grads(M, r)
show("pinv", torch.linalg.pinv(x))
show("pinv tall", torch.linalg.pinv(x.T))
show("pinv rcond", torch.linalg.pinv(x, rcond=0.5))
show("pinv atol", torch.linalg.pinv(x, atol=0.5, rtol=0.1))
show("pinv hermitian", torch.linalg.pinv(A.detach() + A.detach().T, hermitian=True))
show("pinverse", x.pinverse())
show("pinverse f", torch.pinverse(x, rcond=0.3))
show("pinv singular", torch.linalg.pinv(torch.ones(2, 2)))
torch.linalg.pinv(x).sum().backward()
grads(x)
(torch.linalg.pinv(x.T) ** 2).sum().backward()
grads(x)
show("matrix_norm", torch.linalg.matrix_norm(x))
for p in ("nuc", 2, -2, 1, -1, math.inf, -math.inf):
    show(f"matrix_norm {p}", torch.linalg.matrix_norm(x, p))
batch = torch.randn(2, 3, 4)
show("matrix_norm dims", torch.linalg.matrix_norm(batch, 1, dim=(2, 0), keepdim=True))
show("matrix_norm nuc keep", torch.linalg.matrix_norm(batch, "nuc", dim=(0, 2), keepdim=True))
show("norm", torch.linalg.norm(x))
show("norm 2", torch.linalg.norm(x, 2))
show("norm fro", torch.linalg.norm(x, "fro"))
show("norm v", torch.linalg.norm(v))
show("norm dim", torch.linalg.norm(x, 1, dim=1))
show("norm dims", torch.linalg.norm(x, -1, dim=(1, 0)))
show("vector_norm", torch.linalg.vector_norm(x, math.inf, dim=(0, 1)))
(torch.linalg.matrix_norm(x, "nuc") + torch.linalg.matrix_norm(x, -1)
 + torch.linalg.norm(x, 2)).backward()
grads(x)
c = torch.cov(x)
show("cov", c)
show("cov 1d", torch.cov(v))
show("cov corr", torch.cov(x, correction=0))
fw = torch.tensor([1, 2, 1, 3])
aw = torch.tensor([0.5, 1.0, 2.0, 0.25])
show("cov weights", torch.cov(x, fweights=fw, aweights=aw))
show("cov int", torch.cov(torch.tensor([[1, 2, 4], [3, 1, 0]])))
show("corrcoef", x.corrcoef())
show("corrcoef 1d", torch.corrcoef(v))
(torch.cov(x).sum() + torch.corrcoef(x).sum()).backward()
grads(x)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print(torch.cov(x, correction=4), [str(w.message) for w in caught])
show("vander", torch.vander(v))
show("vander N", torch.vander(torch.tensor([1, 2, 3]), N=4, increasing=True))
show("vander 0", torch.vander(v, 0))
try:
    torch.vander(v, 3).sum().backward()
except RuntimeError as error:
    print(str(error)[:60])

# errors
S = torch.tensor([[1.0, 2.0], [2.0, 4.0]])
for bad in [
    "torch.cumprod(x)", "torch.cummax(x, 2)", "torch.logcumsumexp(torch.tensor([1, 2]), 0)",
    "torch.diff(x, n=-1)", "torch.diff(torch.tensor(1.0))", "torch.diff(x, prepend=v)",
    "torch.diff(x, dim=0, prepend=x[:, :2])", "torch.trapezoid(x, torch.randn(3))",
    "torch.trapezoid(torch.tensor([True, False]))",
    "torch.rot90(v)", "torch.rot90(x, 1, [0, 0])", "torch.rot90(x, 1, [0])", "x.rot90(1, [0, 2])",
    "torch.hstack([])", "torch.vstack([])", "torch.dstack([])", "torch.column_stack([])",
    "torch.tensor_split(x, 0)", "torch.tensor_split(torch.tensor(1.0), 2)",
    "torch.hsplit(x, 3)", "torch.vsplit(v, 2)", "torch.dsplit(x, 2)", "x.hsplit(0)",
    "torch.block_diag(torch.randn(2, 2, 2))", "torch.diag(torch.randn(2, 2, 2))",
    "torch.diag_embed(x, dim1=0, dim2=0)", "torch.narrow_copy(x, 1, 3, 2)",
    "torch.logit(x, eps='a')", "torch.heaviside(x, v.double())",
    "torch.logaddexp(torch.tensor([1]), torch.tensor([2]))",
    "torch.inner(x, x.T)", "torch.ger(x, v)", "torch.ger(v, x)", "torch.vdot(x, x)",
    "torch.vdot(v, v.double())", "torch.vdot(v, v[:3])", "torch.addmv(v[:3], x, v[:3])",
    "torch.addmv(v[:3], x, x)", "torch.addbmm(x, x, x)", "torch.chain_matmul()",
    "torch.matrix_exp(v)", "torch.linalg.matrix_exp(x)",
    "torch.linalg.multi_dot([x])", "torch.linalg.multi_dot([x, x])",
    "torch.linalg.multi_dot([x, v.double()])", "torch.linalg.multi_dot([torch.randn(2, 2, 2), x])",
    "torch.linalg.multi_dot([x, v, v])", "torch.linalg.multi_dot([x.T, torch.randn(2, 2, 2)])",
    "torch.linalg.matrix_power(x, 2)", "torch.linalg.matrix_power(v, 2)",
    "torch.linalg.matrix_power(torch.tensor([[1, 1], [0, 1]]), -1)",
    "torch.linalg.solve_triangular(x, x)", "torch.linalg.solve_triangular(x, x, upper=True)",
    "torch.linalg.solve_triangular(x[:, :3], x.T, upper=True)",
    "torch.linalg.vecdot(x.long(), x.long())", "torch.linalg.vecdot(x, x.double())",
    "torch.linalg.vecdot(x, v[:3])", "torch.linalg.matrix_rank(v)",
    "torch.linalg.cond(x, 1)", "torch.linalg.cond(x[:, :3], 3)",
    "torch.linalg.cond(x[:, :3], 'abc')",
    "torch.linalg.inv_ex(x)", "torch.linalg.inv_ex(S, check_errors=True)",
    "torch.linalg.solve_ex(x, x)", "torch.linalg.solve_ex(S, v[:2], check_errors=True)",
    "torch.linalg.cholesky_ex(S, check_errors=True)",
    "torch.linalg.lstsq(x, v)", "torch.linalg.lstsq(x, x[:2])",
    "torch.linalg.lstsq(x.T, x.T, driver='abc')",
    "torch.linalg.pinv(v)", "torch.linalg.matrix_norm(v)", "torch.linalg.matrix_norm(x, 3)",
    "torch.linalg.matrix_norm(x, 'abc')", "torch.linalg.matrix_norm(x, dim=(0, 0))",
    "torch.linalg.matrix_norm(x.long())", "torch.linalg.norm(x, 'fro', dim=(0, 1, 2))",
    "torch.linalg.norm(torch.randn(2, 2, 2), 2)", "torch.linalg.norm(torch.randn(2, 2, 2), 'fro')",
    "torch.linalg.vector_norm(x, 'fro')", "torch.cov(torch.randn(2, 2, 2))",
    "torch.cov(torch.tensor([True]))", "torch.cov(x, fweights=torch.tensor([1.0, 2.0, 3.0, 4.0]))",
    "torch.cov(x, aweights=torch.tensor([1, 2, 3, 4]))",
    "torch.cov(x, fweights=torch.tensor([1, 2]))", "torch.cov(x, aweights=-torch.ones(4))",
    "torch.cov(x, fweights=torch.zeros(4, dtype=torch.long))",
    "torch.corrcoef(torch.randn(2, 2, 2))", "torch.vander(x)", "torch.vander(v, N=-1)",
    "torch.heaviside(x, v).sum().backward()",
]:
    try:
        out = eval(bad)
        print(bad, "->", out)
    except Exception as error:
        print(bad, "->", type(error).__name__, error)

# second derivatives (create_graph=True): the first gradient's node, the second gradient
xd = x.detach().double().requires_grad_()
Ad = A.detach().double().requires_grad_()
Bd = torch.randn(3, 2, dtype=torch.float64)
for name, f, t in [
    ("cumprod", lambda a: a.cumprod(1), xd), ("cummax", lambda a: a.cummax(0).values, xd),
    ("logcumsumexp", lambda a: a.logcumsumexp(1), xd), ("rot90", lambda a: a.rot90(), xd),
    ("diag", lambda a: a.diag(1), xd), ("diag_embed", lambda a: a.diag_embed(), xd),
    ("narrow_copy", lambda a: a.narrow_copy(1, 1, 2), xd),
    ("logaddexp", lambda a: a.logaddexp(a.flip(0)), xd),
    ("erfinv", lambda a: (a / 4).erfinv(), xd), ("sinc", torch.sinc, xd),
    ("logit", lambda a: torch.logit(a / 8 + 0.5, eps=0.1), xd),
    ("deg2rad", torch.deg2rad, xd), ("vdot", lambda a: torch.vdot(a[0], a[1]), xd),
    ("addmv", lambda a: torch.addmv(a[:, 0], a, a[0], alpha=2), xd),
    ("matrix_exp", lambda a: (a / 4).matrix_exp(), Ad),
    ("solve_triangular", lambda a: torch.linalg.solve_triangular(a, Bd, upper=True), Ad),
    ("lstsq", lambda a: torch.linalg.lstsq(a, Bd).solution, Ad),
    ("pinv", torch.linalg.pinv, xd), ("pinv tall", lambda a: torch.linalg.pinv(a.T), xd),
    ("trapezoid", lambda a: torch.trapezoid(a * a, a[0]), xd),
    ("cov", lambda a: torch.cov(a), xd),
]:
    (first,) = torch.autograd.grad((f(t) ** 2).sum(), t, create_graph=True)
    (second,) = torch.autograd.grad(first.sum(), t)
    print(name, node(first), second)
"""


def test_more_math_prints_as_torch(tmp_path):
    assert_playground_prints_as_torch(SCRIPT, tmp_path)
