# In the style of: "torch.nn.functional cheat sheet" posts: less common activations/normalisations with gradients (a third fresh sample: today's code, from sources the corpus had not yet drawn on)
# Family: blogs-and-qa
# tolerance: 1e-4 (a float32 sum that cancels to about 0: the sign of a printed 0.00000 is the reduction's last bits)
import torch
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(2, 4, 3, requires_grad=True)
outs = {
    "gumbel_hard": F.gumbel_softmax(x, tau=0.5, hard=True, dim=-1),
    "glu": F.glu(x, dim=1), "hardtanh": F.hardtanh(x, -0.5, 0.5), "hardswish": F.hardswish(x), "hardsigmoid": F.hardsigmoid(x),
    "softplus": F.softplus(x, beta=2, threshold=1), "softsign": F.softsign(x), "tanhshrink": F.tanhshrink(x), "softshrink": F.softshrink(x, 0.3),
    "hardshrink": F.hardshrink(x, 0.3), "celu": F.celu(x, alpha=0.5), "selu": F.selu(x), "elu": F.elu(x), "rrelu_eval": F.rrelu(x, training=False),
    "prelu": F.prelu(x, torch.tensor([0.1, 0.2, 0.3, 0.4])), "logsigmoid": F.logsigmoid(x), "relu6": F.relu6(x * 4), "silu": F.silu(x), "mish": F.mish(x),
    "gelu_tanh": F.gelu(x, approximate="tanh"), "threshold": F.threshold(x, 0.1, -1.0), "softmin": F.softmin(x, dim=1),
    "normalize_p1": F.normalize(x, p=1, dim=2), "lrn": F.local_response_norm(x, size=2), "layer_norm": F.layer_norm(x, (3,)),
    "group_norm": F.group_norm(x, 2), "instance_norm": F.instance_norm(x), "batch_norm_eval": F.batch_norm(x, torch.zeros(4), torch.ones(4), training=False),
    "rms_norm": F.rms_norm(x, (3,)), "alpha_dropout_eval": F.alpha_dropout(x, 0.5, training=False), "avg_pool1d": F.avg_pool1d(x, 2, 1, count_include_pad=False, padding=1),
    "lp_pool1d": F.lp_pool1d(x, 2, 2), "max_pool1d_idx": F.max_pool1d(x, 2, return_indices=True)[0], "adaptive_max": F.adaptive_max_pool1d(x, 2),
}
total = 0
for k, v in outs.items():
    print(f"{k:18s} {v.sum().item():+.5f} {v.grad_fn.name() if v.grad_fn else None}")
    total = total + v.sum()
total.backward()
print(x.grad[0].round(decimals=4))
print(F.one_hot(torch.tensor([0, 2, 1]), 4), F.embedding(torch.tensor([1, 2]), torch.randn(3, 2), max_norm=0.5).norm(dim=1))
print(F.cosine_similarity(torch.randn(3, 4), torch.randn(1, 4)).round(decimals=4), F.pdist(torch.randn(3, 2)).round(decimals=4))
print(F.kl_div(F.log_softmax(torch.randn(2, 3), 1), F.softmax(torch.randn(2, 3), 1), reduction="batchmean"), F.huber_loss(torch.randn(3), torch.randn(3), delta=0.5))
print(F.l1_loss(torch.tensor([1.0, 2.0]), torch.tensor([0.0, 0.0]), reduction="sum"), F.nll_loss(torch.randn(3, 4).log_softmax(1), torch.tensor([0, 1, 2]), weight=torch.tensor([1.0, 2.0, 0.5, 1.0]), ignore_index=1))
print(F.cross_entropy(torch.randn(2, 3, 4), torch.tensor([[0, 1, 2, 1], [2, 2, 0, -100]])), F.cross_entropy(torch.randn(3, 4), torch.softmax(torch.randn(3, 4), 1)))
