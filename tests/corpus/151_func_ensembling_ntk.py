# In the style of: PyTorch's torch.func tutorials "Model ensembling" (stack_module_state, a
# 'meta' copy of the model, functional_call under vmap with in_dims for same and different
# minibatches) and "Neural Tangent Kernels" (jacrev of functional_call, einsum contractions,
# and the NTK-vector-product form with vjp and jvp)
# Family: pytorch-func-and-recipes
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, jacrev, jvp, stack_module_state, vjp, vmap

torch.manual_seed(0)


class SimpleMLP(nn.Module):
    def __init__(self):
        super(SimpleMLP, self).__init__()
        self.fc1 = nn.Linear(16, 8)
        self.fc2 = nn.Linear(8, 8)
        self.fc3 = nn.Linear(8, 4)

    def forward(self, x):
        x = x.flatten(1)
        x = self.fc1(x)
        x = F.relu(x)
        x = self.fc2(x)
        x = F.relu(x)
        x = self.fc3(x)
        return x


device = 'cpu'
num_models = 3
data = torch.randn(5, 4, 4, device=device)
targets = torch.randint(4, (5,), device=device)
models = [SimpleMLP().to(device) for _ in range(num_models)]

# Option 1: a different minibatch for each model
minibatches = data[:3]
predictions_diff_minibatch_loop = [model(minibatch) for model, minibatch in
                                   zip(models, minibatches.unsqueeze(1))]
# Option 2: the same minibatch for every model
minibatch = data
predictions2 = [model(minibatch) for model in models]

params, buffers = stack_module_state(models)
print({k: tuple(v.shape) for k, v in params.items()}, buffers)
print(params['fc1.bias'].requires_grad, params['fc1.bias'].is_leaf)

# Construct a "stateless" version of one of the models. It is "stateless" in
# the sense that the parameters are meta Tensors and do not have storage.
base_model = copy.deepcopy(models[0])
base_model = base_model.to('meta')
print(base_model.fc1.weight.device, base_model.fc1.weight.shape)


def fmodel(params, buffers, x):
    return functional_call(base_model, (params, buffers), (x,))


minibatches = data[:num_models].unsqueeze(1)
predictions1_vmap = vmap(fmodel)(params, buffers, minibatches)
print(predictions1_vmap.shape)
print(torch.allclose(predictions1_vmap, torch.stack(predictions_diff_minibatch_loop),
                     atol=1e-3, rtol=1e-5))
predictions2_vmap = vmap(fmodel, in_dims=(0, 0, None))(params, buffers, minibatch)
print(torch.allclose(predictions2_vmap, torch.stack(predictions2), atol=1e-3, rtol=1e-5))
print(predictions2_vmap[:, 0])

# The ensemble trains as one: a loss over all models' outputs, gradients on the stacked state.
loss = F.cross_entropy(predictions2_vmap.reshape(-1, 4), targets.repeat(num_models))
loss.backward()
print(f'{loss.item():.4f}', params['fc3.bias'].grad)

# Neural Tangent Kernels
net = SimpleMLP().to(device)
net.eval()
x_train = torch.randn(4, 16, device=device)
x_test = torch.randn(2, 16, device=device)
ntk_params = {k: v.detach() for k, v in net.named_parameters()}


def fnet_single(params, x):
    return functional_call(net, params, (x.unsqueeze(0),)).squeeze(0)


def empirical_ntk_jacobian_contraction(fnet_single, params, x1, x2, compute='full'):
    # Compute J(x1)
    jac1 = vmap(jacrev(fnet_single), (None, 0))(params, x1)
    jac1 = jac1.values()
    jac1 = [j.flatten(2) for j in jac1]

    # Compute J(x2)
    jac2 = vmap(jacrev(fnet_single), (None, 0))(params, x2)
    jac2 = jac2.values()
    jac2 = [j.flatten(2) for j in jac2]

    # Compute J(x1) @ J(x2).T
    einsum_expr = None
    if compute == 'full':
        einsum_expr = 'Naf,Mbf->NMab'
    elif compute == 'trace':
        einsum_expr = 'Naf,Maf->NM'
    elif compute == 'diagonal':
        einsum_expr = 'Naf,Maf->NMa'
    else:
        assert False

    result = torch.stack([torch.einsum(einsum_expr, j1, j2) for j1, j2 in zip(jac1, jac2)])
    result = result.sum(0)
    return result


result = empirical_ntk_jacobian_contraction(fnet_single, ntk_params, x_train, x_test)
print(result.shape)
print(result[0, 0])
trace = empirical_ntk_jacobian_contraction(fnet_single, ntk_params, x_train, x_test, 'trace')
print(trace)
print(torch.allclose(trace, result.diagonal(dim1=-2, dim2=-1).sum(-1), atol=1e-5))
diag = empirical_ntk_jacobian_contraction(fnet_single, ntk_params, x_train, x_test, 'diagonal')
print(diag.shape)


def empirical_ntk_ntk_vps(func, params, x1, x2, compute='full'):
    def get_ntk(x1, x2):
        def func_x1(params):
            return func(params, x1)

        def func_x2(params):
            return func(params, x2)

        output, vjp_fn = vjp(func_x1, params)

        def get_ntk_slice(vec):
            # This computes ``vec @ J(x2).T``
            # `vec` is some unit vector (a single slice of the Identity matrix)
            vjps = vjp_fn(vec)
            # This computes ``J(X1) @ vjps``
            _, jvps = jvp(func_x2, (params,), vjps)
            return jvps

        # Here's our identity matrix
        basis = torch.eye(output.numel(), dtype=output.dtype,
                          device=output.device).view(output.numel(), -1)
        return vmap(get_ntk_slice)(basis)

    result = vmap(vmap(get_ntk, (None, 0)), (0, None))(x1, x2)
    if compute == 'diagonal':
        return torch.diagonal(result, dim1=-1, dim2=-2)
    return result


result_from_ntk_vps = empirical_ntk_ntk_vps(fnet_single, ntk_params, x_train, x_test)
print(torch.allclose(result, result_from_ntk_vps, atol=1e-5))
