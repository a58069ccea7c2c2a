"""``torch.nn``: the functional namespace and the modules small models are built from."""

from . import functional
from .modules import (
    BCELoss,
    BCEWithLogitsLoss,
    CrossEntropyLoss,
    Flatten,
    Identity,
    LeakyReLU,
    Linear,
    LogSoftmax,
    Module,
    MSELoss,
    NLLLoss,
    Parameter,
    ReLU,
    Sequential,
    Sigmoid,
    Softmax,
    Softplus,
    Tanh,
)

__all__ = ["functional", "BCELoss", "BCEWithLogitsLoss", "CrossEntropyLoss", "Flatten",
           "Identity", "LeakyReLU", "Linear", "LogSoftmax", "Module", "MSELoss", "NLLLoss",
           "Parameter", "ReLU", "Sequential", "Sigmoid", "Softmax", "Softplus", "Tanh"]
