"""nn.AdaptiveLogSoftmaxWithLoss (Grave et al.'s efficient softmax for many classes): a head
scores the frequent classes and one entry per cluster of rare ones, each cluster's classes
scored by its own two-layer tail; torch's ops in torch's order, so its graph, numbers and
random initialisation are torch's."""

from __future__ import annotations

import collections
import itertools

from .._tensor import Tensor
from . import functional as F
from .containers import ModuleList, Sequential
from .modules import Linear, Module

_ASMoutput = collections.namedtuple("_ASMoutput", ["output", "loss"])


class AdaptiveLogSoftmaxWithLoss(Module):
    """``cutoffs`` split the classes: those below the first are the head's shortlist, each
    next range a cluster whose tail projects to in_features / div_value**(i+1) features."""

    def __init__(self, in_features: int, n_classes: int, cutoffs, div_value: float = 4.0,
                 head_bias: bool = False, device=None, dtype=None) -> None:
        super().__init__()
        cutoffs = list(cutoffs)
        if not cutoffs:
            raise ValueError("cutoffs should be a sequence of length larger than 0")
        if cutoffs != sorted(cutoffs) or min(cutoffs) <= 0 or max(cutoffs) > n_classes - 1 \
                or len(set(cutoffs)) != len(cutoffs) or any(int(c) != c for c in cutoffs):
            raise ValueError("cutoffs should be a sequence of unique, positive integers sorted "
                             "in an increasing order, where each value is between 1 and "
                             "n_classes-1")
        self.in_features, self.n_classes = in_features, n_classes
        self.cutoffs = cutoffs + [n_classes]
        self.div_value, self.head_bias = div_value, head_bias
        self.shortlist_size = self.cutoffs[0]
        self.n_clusters = len(self.cutoffs) - 1
        self.head_size = self.shortlist_size + self.n_clusters
        self.head = Linear(in_features, self.head_size, bias=head_bias, dtype=dtype)
        self.tail = ModuleList()
        for cluster, (start, stop) in enumerate(itertools.pairwise(self.cutoffs)):
            hidden = int(in_features // (div_value ** (cluster + 1)))
            self.tail.append(Sequential(Linear(in_features, hidden, bias=False, dtype=dtype),
                                        Linear(hidden, stop - start, bias=False, dtype=dtype)))

    def reset_parameters(self) -> None:
        self.head.reset_parameters()
        for into_hidden, out_of_hidden in self.tail:
            into_hidden.reset_parameters()
            out_of_hidden.reset_parameters()

    def forward(self, input_: Tensor, target_: Tensor):
        """Each target's log-probability (the head's for a shortlisted class; the head's for
        its cluster plus the cluster's for it otherwise) and their mean negated: the loss."""
        batched = _checked(input_, target_)
        input = input_ if batched else input_.unsqueeze(0)
        target = target_ if batched else target_.unsqueeze(0)
        size = target.size(0)
        output = input.new_zeros(size)
        head_columns = target.new_empty(size)
        covered = 0
        for cluster, (low, high) in enumerate(itertools.pairwise([0, *self.cutoffs])):
            chosen = (target >= low) & (target < high)
            rows = chosen.nonzero().squeeze()
            if rows.numel() == 0:
                continue
            if cluster == 0:
                head_columns.index_copy_(0, rows, target[chosen])
            else:
                within = target[chosen] - low
                scores = self.tail[cluster - 1](input.index_select(0, rows))
                head_columns.index_fill_(0, rows, self.shortlist_size + cluster - 1)
                picked = F.log_softmax(scores, dim=1).gather(1, within.unsqueeze(1))
                output.index_copy_(0, rows, picked.squeeze(1))
            covered += rows.numel()
        if covered != size:
            raise RuntimeError(f"Target values should be in [0, {self.n_classes - 1}], but "
                               f"values in range [{target.min().item()}, "
                               f"{target.max().item()}] were found. ")
        head_logprob = F.log_softmax(self.head(input), dim=1)
        output += head_logprob.gather(1, head_columns.unsqueeze(1)).squeeze()
        loss = (-output).mean()
        return _ASMoutput(output if batched else output.squeeze(0), loss)

    def _full_log_prob(self, input: Tensor, head_output: Tensor) -> Tensor:
        """The log-probability of every class: the shortlist's from the head, each cluster's
        its own plus its entry of the head's."""
        full = input.new_empty((head_output.size(0), self.n_classes))
        head_logprob = F.log_softmax(head_output, dim=1)
        full[:, :self.shortlist_size] = head_logprob[:, :self.shortlist_size]
        for cluster, (start, stop) in enumerate(itertools.pairwise(self.cutoffs)):
            cluster_logprob = F.log_softmax(self.tail[cluster](input), dim=1)
            full[:, start:stop] = cluster_logprob + \
                head_logprob[:, self.shortlist_size + cluster].unsqueeze(1)
        return full

    def log_prob(self, input: Tensor) -> Tensor:
        return self._full_log_prob(input, self.head(input))

    def predict(self, input: Tensor) -> Tensor:
        """The likeliest class of each row (the full distribution worked out only for rows
        whose head's best is a cluster)."""
        head_output = self.head(input)
        best = head_output.argmax(dim=1)
        outside = best >= self.shortlist_size
        if not bool(outside.any()):
            return best
        if bool(outside.all()):
            return self._full_log_prob(input, head_output).argmax(dim=1)
        best[outside] = self._full_log_prob(input[outside], head_output[outside]).argmax(dim=1)
        return best


def _checked(input: Tensor, target: Tensor) -> bool:
    """torch's checks of the shapes; whether the call is batched (a 1-d target)."""
    if target.dim() == 1:
        if input.size(0) != target.size(0):
            raise RuntimeError("Input and target should have the same size in the batch "
                               "dimension.")
        if input.dim() != 2:
            raise RuntimeError("1D target tensor expects 2D input tensors, but found inputs "
                               f"with size {input.size()}")
    elif target.dim() == 0:
        if input.dim() != 1:
            raise RuntimeError("0D target tensor expects 1D input tensors, but found inputs "
                               f"with size {input.size()}")
    else:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    return target.dim() > 0


MODULES = ("AdaptiveLogSoftmaxWithLoss",)
