"""``torch.nn``: the functional namespace and the modules small models are built from."""

from . import functional
from .modules import (
    CrossEntropyLoss,
    Flatten,
    Identity,
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
    Tanh,
)

__all__ = ["functional", "CrossEntropyLoss", "Flatten", "Identity", "Linear", "LogSoftmax",
           "Module", "MSELoss", "NLLLoss", "Parameter", "ReLU", "Sequential", "Sigmoid",
           "Softmax", "Tanh"]
