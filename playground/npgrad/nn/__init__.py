"""``torch.nn``: the functional namespace and the modules small models are built from."""

from .._missing import missing_attribute
from . import functional, init, modules, parallel, parameter, utils
from .activation import (
    ELU,
    GELU,
    LeakyReLU,
    LogSigmoid,
    LogSoftmax,
    ReLU,
    Sigmoid,
    SiLU,
    Softmax,
    Softplus,
    Tanh,
)
from .bilinear import Bilinear
from .containers import ModuleDict, ModuleList, ParameterDict, ParameterList, Sequential
from .convolution import (
    Conv1d,
    Conv2d,
    ConvTranspose1d,
    ConvTranspose2d,
    MaxPool1d,
    MaxPool2d,
)
from .distances import CosineSimilarity, KLDivLoss
from .embedding_bag import EmbeddingBag
from .loss import (
    BCELoss,
    BCEWithLogitsLoss,
    CrossEntropyLoss,
    HuberLoss,
    L1Loss,
    MSELoss,
    NLLLoss,
    SmoothL1Loss,
)
from .modules import (
    Dropout,
    Embedding,
    Flatten,
    Identity,
    Linear,
    Module,
    Parameter,
    Unflatten,
)
from .modules import module as _module  # noqa: F401 - loads torch.nn.modules.module
from .normalization import BatchNorm1d, BatchNorm2d, BatchNorm3d, LayerNorm, SyncBatchNorm
from .parallel import DataParallel
from .parameter import Buffer
from .pooling import AdaptiveAvgPool1d, AdaptiveAvgPool2d, AvgPool1d, AvgPool2d
from .recurrent import GRU, LSTM, RNN, GRUCell, LSTMCell, RNNBase, RNNCell, RNNCellBase
from .resampling import Fold, Unfold, Upsample, UpsamplingBilinear2d, UpsamplingNearest2d
from .transformer import (
    MultiheadAttention,
    Transformer,
    TransformerDecoder,
    TransformerDecoderLayer,
    TransformerEncoder,
    TransformerEncoderLayer,
)

__all__ = ["functional", "init", "modules", "parameter", "parallel", "utils", "BatchNorm1d",
           "Conv1d", "DataParallel",
           "Conv2d", "Conv3d", "MaxPool1d", "Unflatten",
           "MaxPool2d", "BCELoss",
           "BCEWithLogitsLoss", "CrossEntropyLoss", "Dropout", "ELU", "Embedding", "Flatten",
           "GELU", "Identity", "LayerNorm", "LeakyReLU", "Linear", "LogSoftmax", "Module",
           "ModuleDict", "ModuleList", "MSELoss", "NLLLoss", "Parameter", "ParameterDict",
           "ParameterList", "LogSigmoid", "ReLU", "Sequential", "Sigmoid", "SiLU", "Softmax",
           "Softplus", "CosineSimilarity", "KLDivLoss", "Upsample",
           "Tanh", "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AvgPool1d", "AvgPool2d",
           "HuberLoss", "L1Loss", "SmoothL1Loss", "BatchNorm2d", "BatchNorm3d", "SyncBatchNorm",
           "LSTM", "LSTMCell",
           "ConvTranspose1d", "ConvTranspose2d", "Bilinear", "EmbeddingBag",
           "GRU", "GRUCell", "RNN", "RNNCell", "RNNBase", "RNNCellBase", "MultiheadAttention",
           "TransformerEncoder",
           "TransformerEncoderLayer", "TransformerDecoder", "TransformerDecoderLayer",
           "Transformer", "Buffer", "Fold", "Unfold", "UpsamplingBilinear2d",
           "UpsamplingNearest2d"]

_lacking = missing_attribute("torch.nn")
# modules loaded on first use (start-up stays small), by the file that holds them
_LAZY = {"more_activations": ("ReLU6", "Hardtanh", "SELU", "CELU", "Mish", "Hardswish",
                              "Hardsigmoid", "GLU", "Threshold", "Softshrink", "Hardshrink",
                              "Softsign", "Tanhshrink", "Softmin", "Softmax2d", "PReLU",
                              "Dropout1d", "Dropout2d", "Dropout3d"),
         "padding": ("ConstantPad1d", "ConstantPad2d", "ZeroPad1d", "ZeroPad2d",
                     "ReflectionPad1d", "ReflectionPad2d", "ReplicationPad1d",
                     "ReplicationPad2d", "CircularPad1d", "CircularPad2d", "ConstantPad3d",
                     "ZeroPad3d", "ReflectionPad3d", "ReplicationPad3d", "CircularPad3d",
                     "PixelShuffle", "PixelUnshuffle", "ChannelShuffle"),
         "older_names": ("NLLLoss2d",),
         "more_normalization": ("InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d",
                                "GroupNorm", "RMSNorm", "LocalResponseNorm"),
         "more_losses": ("PairwiseDistance", "TripletMarginLoss", "TripletMarginWithDistanceLoss",
                         "CosineEmbeddingLoss", "MarginRankingLoss", "HingeEmbeddingLoss",
                         "MultiLabelSoftMarginLoss", "PoissonNLLLoss", "GaussianNLLLoss"),
         "margin_losses": ("SoftMarginLoss", "MultiMarginLoss", "MultiLabelMarginLoss"),
         "ctc": ("CTCLoss",),
         "noisy": ("AlphaDropout", "FeatureAlphaDropout", "RReLU"),
         "more_pooling": ("AdaptiveMaxPool1d", "AdaptiveMaxPool2d", "LPPool1d", "LPPool2d",
                          "LPPool3d", "MaxUnpool1d", "MaxUnpool2d"),
         "volumes": ("Conv3d", "MaxPool3d", "AvgPool3d", "AdaptiveAvgPool3d"),
         "fractional_pooling": ("FractionalMaxPool2d", "FractionalMaxPool3d"),
         "volume_pooling": ("AdaptiveMaxPool3d", "MaxUnpool3d"),
         "transposed_volumes": ("ConvTranspose3d",),
         "adaptive": ("AdaptiveLogSoftmaxWithLoss",),
         "lazy": ("LazyLinear", "LazyConv1d", "LazyConv2d", "LazyBatchNorm1d",
                  "LazyBatchNorm2d", "LazyBatchNorm3d", "UninitializedParameter",
                  "UninitializedBuffer")}


def __getattr__(name: str):
    """A module of a lazily loaded file; anything else the engine lacks is said with torch's
    module name and what to do."""
    for file, names in _LAZY.items():
        if name in names:
            return getattr(functional._sibling(file), name)
    return _lacking(name)
