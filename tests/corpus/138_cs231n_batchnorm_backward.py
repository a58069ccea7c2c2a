# In the style of: CS231n assignment 2's BatchNormalization notebook (batchnorm forward with
# running averages, the backward pass by hand through the computational graph and in the
# simplified form, a numeric gradient check, layernorm, all compared with autograd and with
# F.batch_norm / F.layer_norm)
# Family: stanford-cs231n-cs224n
import torch
import torch.nn.functional as F

torch.set_default_dtype(torch.float64)


def rel_error(x, y):
    """ returns relative error """
    return torch.max(torch.abs(x - y) / torch.clamp(torch.abs(x) + torch.abs(y), min=1e-8))


def batchnorm_forward(x, gamma, beta, bn_param):
    mode = bn_param["mode"]
    eps = bn_param.get("eps", 1e-5)
    momentum = bn_param.get("momentum", 0.9)
    N, D = x.shape
    running_mean = bn_param.get("running_mean", torch.zeros(D, dtype=x.dtype))
    running_var = bn_param.get("running_var", torch.zeros(D, dtype=x.dtype))
    out, cache = None, None
    if mode == "train":
        sample_mean = x.mean(dim=0)
        xmu = x - sample_mean
        sq = xmu ** 2
        sample_var = sq.mean(dim=0)
        sqrtvar = torch.sqrt(sample_var + eps)
        ivar = 1. / sqrtvar
        xhat = xmu * ivar
        out = gamma * xhat + beta
        running_mean = momentum * running_mean + (1 - momentum) * sample_mean
        running_var = momentum * running_var + (1 - momentum) * sample_var
        cache = (xhat, gamma, xmu, ivar, sqrtvar, sample_var, eps)
    elif mode == "test":
        out = gamma * (x - running_mean) / torch.sqrt(running_var + eps) + beta
    else:
        raise ValueError('Invalid forward batchnorm mode "%s"' % mode)
    bn_param["running_mean"] = running_mean
    bn_param["running_var"] = running_var
    return out, cache


def batchnorm_backward(dout, cache):
    xhat, gamma, xmu, ivar, sqrtvar, var, eps = cache
    N, D = dout.shape
    dbeta = torch.sum(dout, dim=0)
    dgammax = dout
    dgamma = torch.sum(dgammax * xhat, dim=0)
    dxhat = dgammax * gamma
    divar = torch.sum(dxhat * xmu, dim=0)
    dxmu1 = dxhat * ivar
    dsqrtvar = -1. / (sqrtvar ** 2) * divar
    dvar = 0.5 * 1. / torch.sqrt(var + eps) * dsqrtvar
    dsq = 1. / N * torch.ones((N, D)) * dvar
    dxmu2 = 2 * xmu * dsq
    dx1 = dxmu1 + dxmu2
    dmu = -1 * torch.sum(dxmu1 + dxmu2, dim=0)
    dx2 = 1. / N * torch.ones((N, D)) * dmu
    dx = dx1 + dx2
    return dx, dgamma, dbeta


def batchnorm_backward_alt(dout, cache):
    xhat, gamma, xmu, ivar, sqrtvar, var, eps = cache
    N = dout.shape[0]
    dbeta = dout.sum(dim=0)
    dgamma = (dout * xhat).sum(dim=0)
    dxhat = dout * gamma
    dx = ivar / N * (N * dxhat - dxhat.sum(dim=0) - xhat * (dxhat * xhat).sum(dim=0))
    return dx, dgamma, dbeta


def eval_numerical_gradient_array(f, x, df, h=1e-5):
    grad = torch.zeros_like(x)
    flat_x, flat_grad = x.view(-1), grad.view(-1)
    for ix in range(x.numel()):
        oldval = flat_x[ix].item()
        flat_x[ix] = oldval + h
        pos = f(x).clone()
        flat_x[ix] = oldval - h
        neg = f(x).clone()
        flat_x[ix] = oldval
        flat_grad[ix] = torch.sum((pos - neg) * df) / (2 * h)
    return grad


torch.manual_seed(231)
N, D1, D2, D3 = 200, 5, 4, 3
W1 = torch.randn(D1, D2)
W2 = torch.randn(D2, D3)
a = torch.maximum(torch.randn(N, D1) @ W1, torch.tensor(0.0)) @ W2
print("Before batch normalization:")
print("  means: ", a.mean(dim=0))
print("  stds:  ", a.std(dim=0))
gamma = torch.tensor([1.0, 2.0, 3.0])
beta = torch.tensor([11.0, 12.0, 13.0])
a_norm, _ = batchnorm_forward(a, gamma, beta, {"mode": "train"})
print("After batch normalization (gamma=", gamma, ", beta=", beta, ")")
print("  mean:", a_norm.mean(dim=0))
print("  std: ", a_norm.std(dim=0, unbiased=False))

bn_param = {"mode": "train"}
for t in range(50):
    X = torch.randn(N, D1)
    a = torch.relu(X @ W1) @ W2
    batchnorm_forward(a, gamma, beta, bn_param)
bn_param["mode"] = "test"
a_norm, _ = batchnorm_forward(torch.relu(torch.randn(N, D1) @ W1) @ W2, gamma, beta, bn_param)
print("After batch normalization (test-time):")
print("  means: ", a_norm.mean(dim=0))

N, D = 4, 5
x = 5 * torch.randn(N, D) + 12
gamma = torch.randn(D)
beta = torch.randn(D)
dout = torch.randn(N, D)
bn_param = {"mode": "train"}
fx = lambda x: batchnorm_forward(x, gamma, beta, bn_param)[0]
fg = lambda a: batchnorm_forward(x, a, beta, bn_param)[0]
fb = lambda b: batchnorm_forward(x, gamma, b, bn_param)[0]
dx_num = eval_numerical_gradient_array(fx, x.clone(), dout)
da_num = eval_numerical_gradient_array(fg, gamma.clone(), dout)
db_num = eval_numerical_gradient_array(fb, beta.clone(), dout)
_, cache = batchnorm_forward(x, gamma, beta, bn_param)
dx, dgamma, dbeta = batchnorm_backward(dout, cache)
print("dx error: ", rel_error(dx_num, dx) < 1e-6)
print("dgamma error: ", rel_error(da_num, dgamma) < 1e-6)
print("dbeta error: ", rel_error(db_num, dbeta) < 1e-6)
dx2, dgamma2, dbeta2 = batchnorm_backward_alt(dout, cache)
print("dx difference: ", torch.allclose(dx, dx2), torch.norm(dx - dx2) < 1e-10)
print(dgamma)

xa = x.clone().requires_grad_()
ga = gamma.clone().requires_grad_()
ba = beta.clone().requires_grad_()
out, _ = batchnorm_forward(xa, ga, ba, {"mode": "train"})
out.backward(dout)
print(torch.allclose(xa.grad, dx), torch.allclose(ga.grad, dgamma), torch.equal(ba.grad, dbeta))

running_mean, running_var = torch.zeros(D), torch.ones(D)
xt = x.clone().requires_grad_()
out_t = F.batch_norm(xt, running_mean, running_var, weight=gamma, bias=beta, training=True,
                     momentum=0.1, eps=1e-5)
out_t.backward(dout)
print(out_t.grad_fn.name(), torch.allclose(out_t, out), torch.allclose(xt.grad, dx))
print(running_mean)
print(running_var)  # the running variance uses the unbiased estimate


def layernorm_forward(x, gamma, beta, ln_param):
    eps = ln_param.get("eps", 1e-5)
    mu = x.mean(dim=1, keepdim=True)
    xmu = x - mu
    var = (xmu ** 2).mean(dim=1, keepdim=True)
    ivar = 1. / torch.sqrt(var + eps)
    xhat = xmu * ivar
    return gamma * xhat + beta, (xhat, gamma, ivar)


def layernorm_backward(dout, cache):
    xhat, gamma, ivar = cache
    D = dout.shape[1]
    dbeta = dout.sum(dim=0)
    dgamma = (dout * xhat).sum(dim=0)
    dxhat = dout * gamma
    dx = ivar / D * (D * dxhat - dxhat.sum(dim=1, keepdim=True)
                     - xhat * (dxhat * xhat).sum(dim=1, keepdim=True))
    return dx, dgamma, dbeta


out, cache = layernorm_forward(x, gamma, beta, {})
dx, dgamma, dbeta = layernorm_backward(dout, cache)
xl = x.clone().requires_grad_()
gl = gamma.clone().requires_grad_()
ref = F.layer_norm(xl, (D,), weight=gl, bias=beta, eps=1e-5)
ref.backward(dout)
print(ref.grad_fn.name(), torch.allclose(ref, out))
print(torch.allclose(xl.grad, dx), torch.allclose(gl.grad, dgamma))
print(dx[0])
