# In the style of: the PyTorch port of Raissi's PINNs inverse problem (identify lambda_1 and
# nu = exp(lambda_2) in u_t + lambda_1 u u_x - nu u_xx = 0 from data: an OrderedDict network,
# register_parameter on the unknowns, Adam steps, then L-BFGS with a strong-Wolfe line search
# and a closure)
# Family: scientific-ml
from collections import OrderedDict

import numpy as np
import torch

torch.manual_seed(1234)
device = torch.device("cpu")


class DNN(torch.nn.Module):
    def __init__(self, layers):
        super(DNN, self).__init__()
        self.depth = len(layers) - 1
        self.activation = torch.nn.Tanh
        layer_list = list()
        for i in range(self.depth - 1):
            layer_list.append(("layer_%d" % i, torch.nn.Linear(layers[i], layers[i + 1])))
            layer_list.append(("activation_%d" % i, self.activation()))
        layer_list.append(("layer_%d" % (self.depth - 1),
                           torch.nn.Linear(layers[-2], layers[-1])))
        layerDict = OrderedDict(layer_list)
        self.layers = torch.nn.Sequential(layerDict)

    def forward(self, x):
        return self.layers(x)


class PhysicsInformedNN():
    def __init__(self, X, u, layers, lb, ub):
        self.lb = torch.tensor(lb).float().to(device)
        self.ub = torch.tensor(ub).float().to(device)
        self.x = torch.tensor(X[:, 0:1], requires_grad=True).float().to(device)
        self.t = torch.tensor(X[:, 1:2], requires_grad=True).float().to(device)
        self.u = torch.tensor(u).float().to(device)
        # settings
        self.lambda_1 = torch.tensor([0.0], requires_grad=True).to(device)
        self.lambda_2 = torch.tensor([-6.0], requires_grad=True).to(device)
        self.lambda_1 = torch.nn.Parameter(self.lambda_1)
        self.lambda_2 = torch.nn.Parameter(self.lambda_2)
        self.dnn = DNN(layers).to(device)
        self.dnn.register_parameter('lambda_1', self.lambda_1)
        self.dnn.register_parameter('lambda_2', self.lambda_2)
        self.optimizer = torch.optim.LBFGS(
            self.dnn.parameters(), lr=1.0, max_iter=25, max_eval=40, history_size=50,
            tolerance_grad=1e-5, tolerance_change=1.0 * np.finfo(float).eps,
            line_search_fn="strong_wolfe")
        self.optimizer_Adam = torch.optim.Adam(self.dnn.parameters())
        self.iter = 0

    def net_u(self, x, t):
        X = 2.0 * (torch.cat([x, t], dim=1) - self.lb) / (self.ub - self.lb) - 1.0
        return self.dnn(X)

    def net_f(self, x, t):
        """ The pytorch autograd version of calculating residual """
        lambda_1 = self.lambda_1
        lambda_2 = torch.exp(self.lambda_2)
        u = self.net_u(x, t)
        u_t = torch.autograd.grad(u, t, grad_outputs=torch.ones_like(u), retain_graph=True,
                                  create_graph=True)[0]
        u_x = torch.autograd.grad(u, x, grad_outputs=torch.ones_like(u), retain_graph=True,
                                  create_graph=True)[0]
        u_xx = torch.autograd.grad(u_x, x, grad_outputs=torch.ones_like(u_x),
                                   retain_graph=True, create_graph=True)[0]
        return u_t + lambda_1 * u * u_x - lambda_2 * u_xx

    def loss_func(self):
        u_pred = self.net_u(self.x, self.t)
        f_pred = self.net_f(self.x, self.t)
        loss = torch.mean((self.u - u_pred) ** 2) + torch.mean(f_pred ** 2)
        self.optimizer.zero_grad()
        loss.backward()
        self.iter += 1
        if self.iter % 5 == 0:
            print('Loss: %.5e, l1: %.4f, l2: %.5f' % (
                loss.item(), self.lambda_1.item(), torch.exp(self.lambda_2.detach()).item()))
        return loss

    def train(self, nIter):
        self.dnn.train()
        for epoch in range(nIter):
            u_pred = self.net_u(self.x, self.t)
            f_pred = self.net_f(self.x, self.t)
            loss = torch.mean((self.u - u_pred) ** 2) + torch.mean(f_pred ** 2)
            self.optimizer_Adam.zero_grad()
            loss.backward()
            self.optimizer_Adam.step()
            if epoch % 10 == 0:
                print('It: %d, Loss: %.3e, Lambda_1: %.3f, Lambda_2: %.6f' % (
                    epoch, loss.item(), self.lambda_1.item(),
                    torch.exp(self.lambda_2).item()))
        # Backward and optimize
        self.optimizer.step(self.loss_func)


# Synthetic data from the Cole-Hopf solution of Burgers' equation with nu = 0.05.
nu_true = 0.05
rng = np.random.default_rng(0)
X_u_train = np.stack([rng.uniform(-1, 1, 60), rng.uniform(0, 1, 60)], axis=1)
decay = np.exp(-np.pi ** 2 * nu_true * X_u_train[:, 1:2])
u_train = 2 * nu_true * np.pi * decay * np.sin(np.pi * X_u_train[:, 0:1]) / (
    2 + decay * np.cos(np.pi * X_u_train[:, 0:1]))
lb, ub = np.array([-1.0, 0.0]), np.array([1.0, 1.0])

layers = [2, 12, 12, 1]
model = PhysicsInformedNN(X_u_train, u_train, layers, lb, ub)
print(model.dnn)
print([name for name, _ in model.dnn.named_parameters()])
print(model.x.dtype, model.x.requires_grad, model.x.is_leaf)
model.train(30)
print('iterations run by L-BFGS closures:', model.iter)
state = model.optimizer.state[model.optimizer._params[0]]
print(state['func_evals'], state['n_iter'])

x_star = torch.tensor([[0.5, 0.5]])
print(model.dnn(2.0 * (x_star - model.lb) / (model.ub - model.lb) - 1.0))
lambda_1_value = model.lambda_1.detach().cpu().numpy()
lambda_2_value = np.exp(model.lambda_2.detach().cpu().numpy())
error_lambda_1 = np.abs(lambda_1_value - 1.0) * 100
error_lambda_2 = np.abs(lambda_2_value - nu_true) / nu_true * 100
print('Error l1: %.2f%%' % error_lambda_1.item())
print('Error l2: %.2f%%' % error_lambda_2.item())
