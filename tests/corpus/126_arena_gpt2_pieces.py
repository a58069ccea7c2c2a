# In the style of: ARENA's "GPT-2 from scratch" exercises, without einops (a hand-written
# LayerNorm checked against nn.LayerNorm, token + positional embeddings, causal attention masked
# with torch.where and an IGNORE buffer, a residual block, forward hooks caching activations)
# Family: arena
from dataclasses import dataclass

import torch as t
import torch.nn.functional as F
from torch import Tensor, nn


@dataclass
class Config:
    d_model: int = 8
    debug: bool = True
    layer_norm_eps: float = 1e-5
    d_vocab: int = 11
    init_range: float = 0.02
    n_ctx: int = 6
    d_head: int = 4
    d_mlp: int = 16
    n_heads: int = 2
    n_layers: int = 1


class LayerNorm(nn.Module):
    def __init__(self, cfg: Config):
        super().__init__()
        self.cfg = cfg
        self.w = nn.Parameter(t.ones(cfg.d_model))
        self.b = nn.Parameter(t.zeros(cfg.d_model))

    def forward(self, residual: Tensor) -> Tensor:
        residual_mean = residual.mean(dim=-1, keepdim=True)
        residual_std = (residual.var(dim=-1, keepdim=True, unbiased=False)
                        + self.cfg.layer_norm_eps).sqrt()
        residual = (residual - residual_mean) / residual_std
        return residual * self.w + self.b


class Embed(nn.Module):
    def __init__(self, cfg: Config):
        super().__init__()
        self.W_E = nn.Parameter(t.empty((cfg.d_vocab, cfg.d_model)))
        nn.init.normal_(self.W_E, std=cfg.init_range)

    def forward(self, tokens: Tensor) -> Tensor:
        return self.W_E[tokens]


class PosEmbed(nn.Module):
    def __init__(self, cfg: Config):
        super().__init__()
        self.W_pos = nn.Parameter(t.empty((cfg.n_ctx, cfg.d_model)))
        nn.init.normal_(self.W_pos, std=cfg.init_range)

    def forward(self, tokens: Tensor) -> Tensor:
        batch, seq_len = tokens.shape
        return self.W_pos[:seq_len].unsqueeze(0).expand(batch, -1, -1)


class Attention(nn.Module):
    IGNORE: Tensor

    def __init__(self, cfg: Config):
        super().__init__()
        self.cfg = cfg
        self.W_Q = nn.Parameter(t.empty((cfg.n_heads, cfg.d_model, cfg.d_head)))
        self.W_K = nn.Parameter(t.empty((cfg.n_heads, cfg.d_model, cfg.d_head)))
        self.W_V = nn.Parameter(t.empty((cfg.n_heads, cfg.d_model, cfg.d_head)))
        self.W_O = nn.Parameter(t.empty((cfg.n_heads, cfg.d_head, cfg.d_model)))
        self.b_Q = nn.Parameter(t.zeros((cfg.n_heads, cfg.d_head)))
        self.b_K = nn.Parameter(t.zeros((cfg.n_heads, cfg.d_head)))
        self.b_V = nn.Parameter(t.zeros((cfg.n_heads, cfg.d_head)))
        self.b_O = nn.Parameter(t.zeros((cfg.d_model)))
        for w in (self.W_Q, self.W_K, self.W_V, self.W_O):
            nn.init.normal_(w, std=cfg.init_range * 10)
        self.register_buffer("IGNORE", t.tensor(-1e5, dtype=t.float32))
        self.hook_pattern = nn.Identity()

    def forward(self, normalized_resid_pre: Tensor) -> Tensor:
        # (batch, pos, d_model) x (head, d_model, d_head) -> (batch, head, pos, d_head)
        x = normalized_resid_pre.unsqueeze(1)
        q = t.matmul(x, self.W_Q) + self.b_Q[:, None, :]
        k = t.matmul(x, self.W_K) + self.b_K[:, None, :]
        v = t.matmul(x, self.W_V) + self.b_V[:, None, :]
        attn_scores = q @ k.transpose(-2, -1)
        attn_scores_masked = self.apply_causal_mask(attn_scores / self.cfg.d_head ** 0.5)
        attn_pattern = self.hook_pattern(attn_scores_masked.softmax(-1))
        z = attn_pattern @ v
        # sum over heads of z @ W_O
        attn_out = t.einsum("bhqd,hdm->bqm", z, self.W_O) + self.b_O
        return attn_out

    def apply_causal_mask(self, attn_scores: Tensor) -> Tensor:
        ones = t.ones(attn_scores.size(-2), attn_scores.size(-1), device=attn_scores.device)
        mask = t.triu(ones, diagonal=1).bool()
        return t.where(mask, self.IGNORE, attn_scores)


class MLP(nn.Module):
    def __init__(self, cfg: Config):
        super().__init__()
        self.W_in = nn.Parameter(t.empty((cfg.d_model, cfg.d_mlp)))
        self.W_out = nn.Parameter(t.empty((cfg.d_mlp, cfg.d_model)))
        self.b_in = nn.Parameter(t.zeros((cfg.d_mlp)))
        self.b_out = nn.Parameter(t.zeros((cfg.d_model)))
        nn.init.normal_(self.W_in, std=cfg.init_range * 10)
        nn.init.normal_(self.W_out, std=cfg.init_range * 10)

    def forward(self, normalized_resid_mid: Tensor) -> Tensor:
        pre = normalized_resid_mid @ self.W_in + self.b_in
        post = F.gelu(pre, approximate="tanh")
        return post @ self.W_out + self.b_out


class TransformerBlock(nn.Module):
    def __init__(self, cfg: Config):
        super().__init__()
        self.ln1 = LayerNorm(cfg)
        self.attn = Attention(cfg)
        self.ln2 = LayerNorm(cfg)
        self.mlp = MLP(cfg)

    def forward(self, resid_pre: Tensor) -> Tensor:
        resid_mid = self.attn(self.ln1(resid_pre)) + resid_pre
        resid_post = self.mlp(self.ln2(resid_mid)) + resid_mid
        return resid_post


class DemoTransformer(nn.Module):
    def __init__(self, cfg: Config):
        super().__init__()
        self.cfg = cfg
        self.embed = Embed(cfg)
        self.pos_embed = PosEmbed(cfg)
        self.blocks = nn.ModuleList([TransformerBlock(cfg) for _ in range(cfg.n_layers)])
        self.ln_final = LayerNorm(cfg)
        self.W_U = nn.Parameter(t.empty((cfg.d_model, cfg.d_vocab)))
        self.b_U = nn.Parameter(t.zeros((cfg.d_vocab), requires_grad=False))
        nn.init.normal_(self.W_U, std=cfg.init_range * 10)

    def forward(self, tokens: Tensor) -> Tensor:
        residual = self.embed(tokens) + self.pos_embed(tokens)
        for block in self.blocks:
            residual = block(residual)
        return self.ln_final(residual) @ self.W_U + self.b_U


t.manual_seed(0)
cfg = Config()

# LayerNorm by hand vs nn.LayerNorm
x = t.randn(2, 3, cfg.d_model) * 3 + 1
ln, ref = LayerNorm(cfg), nn.LayerNorm(cfg.d_model, eps=cfg.layer_norm_eps)
print("layernorm matches:", t.allclose(ln(x), ref(x), atol=1e-5))
print(ln(x)[0, 0])
print([(n, tuple(p.shape)) for n, p in ln.named_parameters()])

model = DemoTransformer(cfg)
print(sum(p.numel() for p in model.parameters()), "parameters")
print([name for name, _ in model.named_buffers()])
tokens = t.tensor([[1, 5, 3, 7, 2, 9], [4, 4, 0, 10, 6, 8]])

cache = {}


def make_hook(name):
    def hook(module, inputs, output):
        cache[name] = output.detach()
    return hook


handles = [model.blocks[0].attn.hook_pattern.register_forward_hook(make_hook("pattern")),
           model.blocks[0].ln1.register_forward_hook(make_hook("ln1")),
           model.embed.register_forward_hook(make_hook("embed"))]
logits = model(tokens)
for h in handles:
    h.remove()

print("logits", logits.shape, logits.grad_fn.name())
print({k: tuple(v.shape) for k, v in cache.items()})
pattern = cache["pattern"]
print(pattern[0, 0])
print("rows sum to 1:", t.allclose(pattern.sum(-1), t.ones(2, 2, 6)))
print("strictly upper triangle is zero:", bool((pattern.triu(1) == 0).all()))

# the cross-entropy loss for next-token prediction, as in the GPT-2 training exercises
log_probs = logits.log_softmax(dim=-1)
log_probs_for_tokens = log_probs[:, :-1].gather(dim=-1, index=tokens[:, 1:].unsqueeze(-1))
loss = -log_probs_for_tokens.squeeze(-1).mean()
ce = F.cross_entropy(logits[:, :-1].reshape(-1, cfg.d_vocab), tokens[:, 1:].reshape(-1))
print(f"loss {loss.item():.4f}", f"F.cross_entropy {ce.item():.4f}")
loss.backward()
print(model.blocks[0].attn.W_Q.grad.shape, model.b_U.grad)
print(model.pos_embed.W_pos.grad[:, :3])
optimizer = t.optim.AdamW(model.parameters(), lr=1e-2, weight_decay=1e-2)
for step in range(3):
    optimizer.zero_grad()
    logits = model(tokens)
    loss = F.cross_entropy(logits[:, :-1].flatten(0, 1), tokens[:, 1:].flatten())
    loss.backward()
    optimizer.step()
    print(f"step {step} loss {loss.item():.4f}")
print(len(model.blocks[0].attn.hook_pattern._forward_hooks), "hooks left")
