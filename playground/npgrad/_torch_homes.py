"""Where torch keeps each class the engine mirrors, so that ``type(model)`` prints
``<class 'torch.nn.modules.linear.Linear'>`` as under torch, not the engine's own path.

The engine's module path stays on the class (``_engine_home``): torch.save pickles the class
by it (_serialization.py), and the app's own tools can still find it."""

from __future__ import annotations

import importlib
import sys

# engine module (under playground.npgrad) -> torch module -> the classes it holds, by name
HOMES: dict[str, dict[str, str]] = {
    "_device": {
        "torch": "device",
    },
    "_dtype": {
        "torch": "dtype",
    },
    "_grad_mode": {
        "torch.autograd.grad_mode": "enable_grad inference_mode no_grad set_grad_enabled",
    },
    "_hook_lists": {
        "torch.utils.hooks": "RemovableHandle",
    },
    "_nodes": {
        "torch.autograd.graph": "Node",
    },
    "_random": {
        "torch._C": "Generator",
    },
    "_saved_hooks": {
        "torch.autograd.graph": "save_on_cpu saved_tensors_hooks",
    },
    "_scripted": {
        "torch.jit._script": "RecursiveScriptModule ScriptModule",
        "torch.jit._trace": "TopLevelTracedModule TracedModule",
    },
    "_tensor": {
        "torch": "Size",
    },
    "autograd": {
        "torch.autograd.variable": "Variable",
    },
    "autograd._multi_grad_hook": {
        "torch.autograd.graph": "_MultiHandle",
    },
    "autograd.anomaly_mode": {
        "torch.autograd.anomaly_mode": "detect_anomaly set_detect_anomaly",
    },
    "autograd.function": {
        "torch.autograd.function": "Function FunctionCtx InplaceFunction NestedIOFunction",
    },
    "distributions": {
        "torch.distributions.bernoulli": "Bernoulli",
        "torch.distributions.categorical": "Categorical",
        "torch.distributions.distribution": "Distribution",
        "torch.distributions.normal": "Normal",
    },
    "distributions.beta": {
        "torch.distributions.beta": "Beta",
    },
    "distributions.binomial": {
        "torch.distributions.binomial": "Binomial",
        "torch.distributions.negative_binomial": "NegativeBinomial",
    },
    "distributions.cauchy": {
        "torch.distributions.cauchy": "Cauchy",
    },
    "distributions.constraint_registry": {
        "torch.distributions.constraint_registry": "ConstraintRegistry",
    },
    "distributions.constraints": {
        "torch.distributions.constraints": (
            "Constraint _Boolean _Dependent _DependentProperty _GreaterThan _GreaterThanEq "
            "_HalfOpenInterval _IndependentConstraint _IntegerGreaterThan _IntegerInterval "
            "_Interval _LessThan _LowerTriangular _Multinomial _OneHot _Real _Simplex _Square"),
    },
    "distributions.continuous_bernoulli": {
        "torch.distributions.continuous_bernoulli": "ContinuousBernoulli",
    },
    "distributions.continuous": {
        "torch.distributions.exponential": "Exponential",
        "torch.distributions.independent": "Independent",
        "torch.distributions.laplace": "Laplace",
        "torch.distributions.log_normal": "LogNormal",
        "torch.distributions.multivariate_normal": "MultivariateNormal",
        "torch.distributions.uniform": "Uniform",
    },
    "distributions.dirichlet": {
        "torch.distributions.dirichlet": "Dirichlet",
    },
    "distributions.gamma": {
        "torch.distributions.chi2": "Chi2",
        "torch.distributions.gamma": "Gamma",
    },
    "distributions.geometric": {
        "torch.distributions.geometric": "Geometric",
    },
    "distributions.gumbel": {
        "torch.distributions.gumbel": "Gumbel",
    },
    "distributions.fishersnedecor": {
        "torch.distributions.fishersnedecor": "FisherSnedecor",
    },
    "distributions.lowrank_multivariate_normal": {
        "torch.distributions.lowrank_multivariate_normal": "LowRankMultivariateNormal",
    },
    "distributions.von_mises": {
        "torch.distributions.von_mises": "VonMises",
    },
    "distributions.multinomial": {
        "torch.distributions.multinomial": "Multinomial",
    },
    "distributions.mixture_same_family": {
        "torch.distributions.mixture_same_family": "MixtureSameFamily",
    },
    "distributions.one_hot_categorical": {
        "torch.distributions.one_hot_categorical": (
            "OneHotCategorical OneHotCategoricalStraightThrough"),
    },
    "distributions.poisson": {
        "torch.distributions.poisson": "Poisson",
    },
    "distributions.relaxed_categorical": {
        "torch.distributions.relaxed_categorical": (
            "ExpRelaxedCategorical RelaxedOneHotCategorical"),
    },
    "distributions.relaxed_bernoulli": {
        "torch.distributions.relaxed_bernoulli": "LogitRelaxedBernoulli RelaxedBernoulli",
    },
    "distributions.studentT": {
        "torch.distributions.studentT": "StudentT",
    },
    "distributions.transformed_distribution": {
        "torch.distributions.transformed_distribution": "TransformedDistribution",
    },
    "distributions.transformed_families": {
        "torch.distributions.half_cauchy": "HalfCauchy",
        "torch.distributions.half_normal": "HalfNormal",
        "torch.distributions.inverse_gamma": "InverseGamma",
        "torch.distributions.kumaraswamy": "Kumaraswamy",
        "torch.distributions.logistic_normal": "LogisticNormal",
        "torch.distributions.pareto": "Pareto",
        "torch.distributions.weibull": "Weibull",
    },
    "distributions.transforms": {
        "torch.distributions.transforms": (
            "AbsTransform AffineTransform ComposeTransform ExpTransform PowerTransform "
            "SigmoidTransform SoftplusTransform TanhTransform Transform _InverseTransform"),
    },
    "distributions.vector_transforms": {
        "torch.distributions.transforms": (
            "IndependentTransform SoftmaxTransform StickBreakingTransform"),
    },
    "nn.activation": {
        "torch.nn.modules.activation": (
            "ELU GELU LeakyReLU LogSigmoid LogSoftmax ReLU SiLU Sigmoid Softmax Softplus Tanh"),
    },
    "nn.bilinear": {
        "torch.nn.modules.linear": "Bilinear",
    },
    "nn.containers": {
        "torch.nn.modules.container": (
            "ModuleDict ModuleList ParameterDict ParameterList Sequential"),
    },
    "nn.convolution": {
        "torch.nn.modules.conv": "Conv1d Conv2d ConvTranspose1d ConvTranspose2d",
        "torch.nn.modules.pooling": "MaxPool1d MaxPool2d",
    },
    "nn.fractional_pooling": {
        "torch.nn.modules.pooling": "FractionalMaxPool2d FractionalMaxPool3d",
    },
    "nn.distances": {
        "torch.nn.modules.distance": "CosineSimilarity",
        "torch.nn.modules.loss": "KLDivLoss",
    },
    "nn.embedding_bag": {
        "torch.nn.modules.sparse": "EmbeddingBag",
    },
    "nn.lazy": {
        "torch.nn.modules.batchnorm": "LazyBatchNorm1d LazyBatchNorm2d LazyBatchNorm3d",
        "torch.nn.modules.conv": "LazyConv1d LazyConv2d",
        "torch.nn.modules.linear": "LazyLinear",
        "torch.nn.parameter": "UninitializedBuffer UninitializedParameter",
    },
    "nn.loss": {
        "torch.nn.modules.loss": (
            "BCELoss BCEWithLogitsLoss CrossEntropyLoss HuberLoss L1Loss MSELoss NLLLoss "
            "SmoothL1Loss _Loss"),
    },
    "nn.ctc": {
        "torch.nn.modules.loss": "CTCLoss",
    },
    "nn.margin_losses": {
        "torch.nn.modules.loss": "MultiLabelMarginLoss MultiMarginLoss SoftMarginLoss",
    },
    "nn.modules": {
        "torch.nn.modules.dropout": "Dropout",
        "torch.nn.modules.flatten": "Flatten Unflatten",
        "torch.nn.modules.linear": "Identity Linear",
        "torch.nn.modules.module": "Module",
        "torch.nn.modules.sparse": "Embedding",
    },
    "nn.more_activations": {
        "torch.nn.modules.activation": (
            "CELU GLU Hardshrink Hardsigmoid Hardswish Hardtanh Mish PReLU ReLU6 SELU Softmax2d "
            "Softmin Softshrink Softsign Tanhshrink Threshold"),
        "torch.nn.modules.dropout": "Dropout1d Dropout2d Dropout3d",
    },
    "nn.more_losses": {
        "torch.nn.modules.distance": "PairwiseDistance",
        "torch.nn.modules.loss": (
            "CosineEmbeddingLoss GaussianNLLLoss HingeEmbeddingLoss MarginRankingLoss "
            "MultiLabelSoftMarginLoss PoissonNLLLoss TripletMarginLoss "
            "TripletMarginWithDistanceLoss"),
    },
    "nn.more_normalization": {
        "torch.nn.modules.instancenorm": "InstanceNorm1d InstanceNorm2d InstanceNorm3d",
        "torch.nn.modules.normalization": "GroupNorm LocalResponseNorm RMSNorm",
    },
    "nn.more_pooling": {
        "torch.nn.modules.pooling": (
            "AdaptiveMaxPool1d AdaptiveMaxPool2d LPPool1d LPPool2d LPPool3d MaxUnpool1d "
            "MaxUnpool2d"),
    },
    "nn.adaptive": {
        "torch.nn.modules.adaptive": "AdaptiveLogSoftmaxWithLoss",
    },
    "nn.transposed_volumes": {
        "torch.nn.modules.conv": "ConvTranspose3d",
    },
    "nn.volume_pooling": {
        "torch.nn.modules.pooling": "AdaptiveMaxPool3d MaxUnpool3d",
    },
    "nn.noisy": {
        "torch.nn.modules.activation": "RReLU",
        "torch.nn.modules.dropout": "AlphaDropout FeatureAlphaDropout",
    },
    "nn.normalization": {
        "torch.nn.modules.batchnorm": "BatchNorm1d BatchNorm2d BatchNorm3d SyncBatchNorm",
        "torch.nn.modules.normalization": "LayerNorm",
    },
    "nn.older_names": {
        "torch.nn.modules.loss": "NLLLoss2d",
    },
    "nn.padding": {
        "torch.nn.modules.channelshuffle": "ChannelShuffle",
        "torch.nn.modules.padding": (
            "CircularPad1d CircularPad2d CircularPad3d ConstantPad1d ConstantPad2d ConstantPad3d "
            "ReflectionPad1d ReflectionPad2d ReflectionPad3d ReplicationPad1d ReplicationPad2d "
            "ReplicationPad3d ZeroPad1d ZeroPad2d ZeroPad3d"),
        "torch.nn.modules.pixelshuffle": "PixelShuffle PixelUnshuffle",
    },
    "nn.parameter": {
        "torch.nn.parameter": "Buffer _BufferMeta",
    },
    "nn.pooling": {
        "torch.nn.modules.pooling": "AdaptiveAvgPool1d AdaptiveAvgPool2d AvgPool1d AvgPool2d",
    },
    "nn.parallel": {
        "torch.nn.parallel.data_parallel": "DataParallel",
        "torch.nn.parallel.distributed": "DistributedDataParallel",
    },
    "nn.recurrent": {
        "torch.nn.modules.rnn": "GRU GRUCell LSTM LSTMCell RNN RNNCell",
    },
    "nn.resampling": {
        "torch.nn.modules.fold": "Fold Unfold",
        "torch.nn.modules.upsampling": "Upsample UpsamplingBilinear2d UpsamplingNearest2d",
    },
    "nn.multihead_attention": {"torch.nn.modules.activation": "MultiheadAttention"},
    "nn.transformer": {
        "torch.nn.modules.transformer": (
            "Transformer TransformerDecoder TransformerDecoderLayer TransformerEncoder "
            "TransformerEncoderLayer"),
    },
    "nn.utils.prune": {
        "torch.nn.utils.prune": (
            "BasePruningMethod CustomFromMask Identity L1Unstructured LnStructured "
            "PruningContainer RandomStructured RandomUnstructured"),
    },
    "nn.utils.rnn": {
        "torch.nn.utils.rnn": "PackedSequence",
    },
    "nn.volumes": {
        "torch.nn.modules.conv": "Conv3d",
        "torch.nn.modules.pooling": "AdaptiveAvgPool3d AvgPool3d MaxPool3d",
    },
    "optim": {
        "torch.optim.adadelta": "Adadelta",
        "torch.optim.adagrad": "Adagrad",
        "torch.optim.adam": "Adam",
        "torch.optim.adamw": "AdamW",
        "torch.optim.optimizer": "Optimizer",
        "torch.optim.rmsprop": "RMSprop",
        "torch.optim.sgd": "SGD",
    },
    "optim.sparse_adam": {
        "torch.optim.sparse_adam": "SparseAdam",
    },
    "optim.cyclic_lr": {
        "torch.optim.lr_scheduler": "CyclicLR",
    },
    "optim.lbfgs": {
        "torch.optim.lbfgs": "LBFGS",
    },
    "optim.lr_scheduler": {
        "torch.optim.lr_scheduler": (
            "ConstantLR CosineAnnealingLR CosineAnnealingWarmRestarts ExponentialLR LRScheduler "
            "LambdaLR LinearLR MultiStepLR MultiplicativeLR OneCycleLR PolynomialLR StepLR"),
    },
    "optim.plateau": {
        "torch.optim.lr_scheduler": "ReduceLROnPlateau",
    },
    "optim.swa_utils": {
        "torch.optim.swa_utils": "AveragedModel SWALR",
    },
    "profiler": {
        "torch.autograd.profiler": "record_function",
        "torch.profiler.profiler": "profile",
    },
    "_profiler_table": {
        "torch.autograd.profiler_util": "EventList FunctionEvent FunctionEventAvg",
    },
    "library": {
        "torch._library.custom_ops": "CustomOpDef",
    },
    "optim.adafactor": {
        "torch.optim": "Adafactor",
    },
    "optim.more_optimizers": {
        "torch.optim.adamax": "Adamax",
        "torch.optim.asgd": "ASGD",
        "torch.optim.nadam": "NAdam",
        "torch.optim.radam": "RAdam",
        "torch.optim.rprop": "Rprop",
    },
    "optim.scheduler_chains": {
        "torch.optim.lr_scheduler": "ChainedScheduler SequentialLR",
    },
    "utils.data": {
        "torch.utils.data.dataloader": "DataLoader",
        "torch.utils.data.dataset": "ConcatDataset Dataset IterableDataset Subset TensorDataset",
        "torch.utils.data.sampler": (
            "BatchSampler RandomSampler Sampler SequentialSampler SubsetRandomSampler "
            "WeightedRandomSampler"),
    },
}
_PACKAGE = "playground.npgrad."


def give_torch_homes(module) -> None:
    """Name the classes ``module`` defines after torch's modules (each once)."""
    homes = HOMES.get(module.__name__.removeprefix(_PACKAGE))
    if not homes:
        return
    for torch_module, names in homes.items():
        for name in names.split():
            kind = module.__dict__.get(name)
            if isinstance(kind, type) and kind.__module__ == module.__name__:
                kind._engine_home = module.__name__
                kind.__module__ = torch_module


def give_every_loaded_module_its_homes() -> None:
    for name, module in list(sys.modules.items()):
        if name.startswith(_PACKAGE) and module is not None:  # (None: an import refused)
            give_torch_homes(module)


def classes_of(torch_module: str) -> dict[str, type]:
    """The engine's classes that torch keeps in ``torch_module`` (``torch.optim.sgd``), by
    name: what a module of that name holds for pickle and ``from torch.x.y import Z``."""
    found = {}
    for engine_module, homes in HOMES.items():
        names = homes.get(torch_module)
        if names:
            module = importlib.import_module(_PACKAGE + engine_module)
            give_torch_homes(module)
            found.update({name: module.__dict__[name] for name in names.split()})
    return found
