"""torch's warnings given once a process (its C++ TORCH_WARN_ONCE), in its words, at the
user's line."""

from __future__ import annotations

from ._user_warnings import warn_at_user_code

_TRIGGERED = " (Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/"
WORDS = {
    "Tensor.T not on 2-D":
        "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is "
        "deprecated and it will throw an error in a future release. Consider `x.mT` to "
        "transpose batches of matrices or `x.permute(*torch.arange(x.ndim - 1, -1, -1))` to "
        "reverse the dimensions of a tensor." + _TRIGGERED + "TensorShape.cpp:4314.)",
    "Tensor.T on 0-D":
        "Tensor.T is deprecated on 0-D tensors. This function is the identity in these "
        "cases." + _TRIGGERED + "TensorShape.cpp:4321.)",
    "torch.qr":
        "torch.qr is deprecated in favor of torch.linalg.qr and will be removed in a future "
        "PyTorch release.\nThe boolean parameter 'some' has been replaced with a string "
        "parameter 'mode'.\nQ, R = torch.qr(A, some)\nshould be replaced with\nQ, R = "
        "torch.linalg.qr(A, 'reduced' if some else 'complete')" + _TRIGGERED.replace(
            "native/", "native/BatchLinearAlgebra.cpp:2505.)"),
    "torch.cholesky":
        "torch.cholesky is deprecated in favor of torch.linalg.cholesky and will be removed in "
        "a future PyTorch release.\nL = torch.cholesky(A)\nshould be replaced with\nL = "
        "torch.linalg.cholesky(A)\nand\nU = torch.cholesky(A, upper=True)\nshould be "
        "replaced with\nU = torch.linalg.cholesky(A).mH\nThis transform will produce "
        "equivalent results for all valid (symmetric positive definite) inputs." +
        _TRIGGERED.replace("native/", "native/BatchLinearAlgebra.cpp:1765.)"),
    "asarray requires_grad":
        "torch.asarray: unspecified requires_grad now defaults to obj.requires_grad instead "
        "of False. Pass requires_grad=False explicitly to get the old behavior and silence "
        "this warning. (Triggered internally at /__w/pytorch/pytorch/torch/csrc/utils/"
        "tensor_new.cpp:1737.)",
    "sparse invariants off":
        "Sparse invariant checks are implicitly disabled. Memory errors (e.g. SEGFAULT) will "
        "occur when operating on a sparse tensor which violates the invariants, but checks "
        "incur performance overhead. To silence this warning, explicitly opt in or out. See "
        "`torch.sparse.check_sparse_tensor_invariants.__doc__` for guidance.  (Triggered "
        "internally at /__w/pytorch/pytorch/aten/src/ATen/Context.cpp:816.)",
    "LSTM projections on oneDNN":
        "LSTM with projections is not supported with oneDNN. Using default implementation."
        + _TRIGGERED + "RNN.cpp:1512.)",
    "list of ndarrays":
        "Creating a tensor from a list of numpy.ndarrays is extremely slow. Please consider "
        "converting the list to a single numpy.ndarray with numpy.array() before converting "
        "to a tensor. (Triggered internally at /__w/pytorch/pytorch/torch/csrc/utils/"
        "tensor_new.cpp:252.)",
    "complex to real":
        "Casting complex values to real discards the imaginary part" + _TRIGGERED
        + "Copy.cpp:307.)",
    "scatter reduce with a tensor":
        "The reduce argument of torch.scatter with Tensor src is deprecated and will be "
        "removed in a future PyTorch release. Use torch.scatter_reduce instead for more "
        "reduction options." + _TRIGGERED + "TensorAdvancedIndexing.cpp:225.)",
    "sparse CSR beta":
        "Sparse CSR tensor support is in beta state. If you miss a functionality in the sparse "
        "tensor support, please submit a feature request to https://github.com/pytorch/pytorch"
        "/issues. (Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/"
        "SparseCsrTensorImpl.cpp:49.)",
    "nested tensors prototype":
        "The PyTorch API of nested tensors is in prototype stage and will change in the near "
        "future. We recommend specifying layout=torch.jagged when constructing a nested "
        "tensor, as this layout receives active development, has better operator coverage, "
        "and works with torch.compile. (Triggered internally at /__w/pytorch/pytorch/aten/src/"
        "ATen/NestedTensorImpl.cpp:177.)",
}
_GIVEN: set[str] = set()


def warn_once(which: str) -> None:
    """The warning ``WORDS[which]``, unless this process gave it already."""
    if which not in _GIVEN:
        _GIVEN.add(which)
        warn_at_user_code(WORDS[which])
