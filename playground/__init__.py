"""Autograd Playground: write PyTorch-style code, see the graph, the gradients and backward."""

__version__ = "0.1.0"
