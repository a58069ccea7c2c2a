# In the style of: Dive into Deep Learning, "Dropout" and "Batch Normalization" from scratch (a
# mask from torch.rand, moving averages, means over (0, 2, 3) with keepdim)
# Family: d2l
import torch


def dropout_layer(X, dropout):
    if dropout == 1:
        return torch.zeros_like(X)
    mask = (torch.rand(X.shape) > dropout).float()
    return mask * X / (1.0 - dropout)


def batch_norm(X, gamma, beta, moving_mean, moving_var, eps, momentum):
    if not torch.is_grad_enabled():
        X_hat = (X - moving_mean) / torch.sqrt(moving_var + eps)
    else:
        if len(X.shape) == 2:
            mean = X.mean(dim=0)
            var = ((X - mean) ** 2).mean(dim=0)
        else:
            mean = X.mean(dim=(0, 2, 3), keepdim=True)
            var = ((X - mean) ** 2).mean(dim=(0, 2, 3), keepdim=True)
        X_hat = (X - mean) / torch.sqrt(var + eps)
        moving_mean = (1.0 - momentum) * moving_mean + momentum * mean
        moving_var = (1.0 - momentum) * moving_var + momentum * var
    Y = gamma * X_hat + beta
    return Y, moving_mean.data, moving_var.data


torch.manual_seed(0)
X = torch.arange(16, dtype=torch.float32).reshape((2, 8))
print(dropout_layer(X, 0.0), dropout_layer(X, 0.5), dropout_layer(X, 1.0), sep="\n")
X = torch.randn(4, 2, 3, 3, requires_grad=True)
shape = (1, 2, 1, 1)
gamma, beta = torch.ones(shape, requires_grad=True), torch.zeros(shape, requires_grad=True)
Y, moving_mean, moving_var = batch_norm(X, gamma, beta, torch.zeros(shape), torch.ones(shape),
                                        eps=1e-5, momentum=0.1)
(Y ** 3).sum().backward()
print(moving_mean.flatten(), moving_var.flatten())
print(gamma.grad.flatten(), beta.grad.flatten(), X.grad[0, 0, 0])
