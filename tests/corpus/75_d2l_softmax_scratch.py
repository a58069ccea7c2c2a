# In the style of: Dive into Deep Learning, "Softmax Regression Implementation from Scratch" (cross-
# entropy by fancy indexing, SGD updates in no_grad)
# Family: d2l
import torch


def softmax(X):
    X_exp = torch.exp(X)
    partition = X_exp.sum(1, keepdims=True)
    return X_exp / partition


def cross_entropy(y_hat, y):
    return -torch.log(y_hat[list(range(len(y_hat))), y])


torch.manual_seed(0)
num_inputs, num_outputs = 6, 3
W = torch.normal(0, 0.01, size=(num_inputs, num_outputs), requires_grad=True)
b = torch.zeros(num_outputs, requires_grad=True)
X = torch.randn(12, num_inputs)
y = torch.tensor([0, 2, 1, 1, 0, 2, 2, 1, 0, 0, 1, 2])
lr = 0.5
for epoch in range(5):
    y_hat = softmax(X.reshape((-1, W.shape[0])) @ W + b)
    l = cross_entropy(y_hat, y)
    l.mean().backward()
    with torch.no_grad():
        for param in (W, b):
            param -= lr * param.grad
            param.grad.zero_()
    accuracy = (y_hat.argmax(axis=1) == y).float().mean()
    print(f"epoch {epoch + 1}, loss {l.mean():f}, accuracy {accuracy:.3f}")
print(y_hat[:2])
