# In the style of: UvA DL notebooks, "Vision Transformers" (img_to_patch with reshape, permute and
# flatten, pre-LayerNorm blocks around nn.MultiheadAttention on sequence-first input, GELU MLP,
# a learned class token and positional embedding, AdamW with MultiStepLR, cross-entropy + acc)
# Family: uvadl
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim


def img_to_patch(x, patch_size, flatten_channels=True):
    """
    Inputs:
        x - torch.Tensor representing the image of shape [B, C, H, W]
        patch_size - Number of pixels per dimension of the patches (integer)
        flatten_channels - If True, the patches will be returned in a flattened format
                           as a feature vector instead of a image grid.
    """
    B, C, H, W = x.shape
    x = x.reshape(B, C, H // patch_size, patch_size, W // patch_size, patch_size)
    x = x.permute(0, 2, 4, 1, 3, 5)  # [B, H', W', C, p_H, p_W]
    x = x.flatten(1, 2)              # [B, H'*W', C, p_H, p_W]
    if flatten_channels:
        x = x.flatten(2, 4)          # [B, H'*W', C*p_H*p_W]
    return x


class AttentionBlock(nn.Module):
    def __init__(self, embed_dim, hidden_dim, num_heads, dropout=0.0):
        super().__init__()

        self.layer_norm_1 = nn.LayerNorm(embed_dim)
        self.attn = nn.MultiheadAttention(embed_dim, num_heads, dropout=dropout)
        self.layer_norm_2 = nn.LayerNorm(embed_dim)
        self.linear = nn.Sequential(
            nn.Linear(embed_dim, hidden_dim),
            nn.GELU(),
            nn.Dropout(dropout),
            nn.Linear(hidden_dim, embed_dim),
            nn.Dropout(dropout)
        )

    def forward(self, x):
        inp_x = self.layer_norm_1(x)
        x = x + self.attn(inp_x, inp_x, inp_x)[0]
        x = x + self.linear(self.layer_norm_2(x))
        return x


class VisionTransformer(nn.Module):
    def __init__(self, embed_dim, hidden_dim, num_channels, num_heads, num_layers, num_classes,
                 patch_size, num_patches, dropout=0.0):
        super().__init__()

        self.patch_size = patch_size

        # Layers/Networks
        self.input_layer = nn.Linear(num_channels * (patch_size ** 2), embed_dim)
        self.transformer = nn.Sequential(*[AttentionBlock(embed_dim, hidden_dim, num_heads,
                                                          dropout=dropout)
                                           for _ in range(num_layers)])
        self.mlp_head = nn.Sequential(
            nn.LayerNorm(embed_dim),
            nn.Linear(embed_dim, num_classes)
        )
        self.dropout = nn.Dropout(dropout)

        # Parameters/Embeddings
        self.cls_token = nn.Parameter(torch.randn(1, 1, embed_dim))
        self.pos_embedding = nn.Parameter(torch.randn(1, 1 + num_patches, embed_dim))

    def forward(self, x):
        # Preprocess input
        x = img_to_patch(x, self.patch_size)
        B, T, _ = x.shape
        x = self.input_layer(x)

        # Add CLS token and positional encoding
        cls_token = self.cls_token.repeat(B, 1, 1)
        x = torch.cat([cls_token, x], dim=1)
        x = x + self.pos_embedding[:, :T + 1]

        # Apply Transforrmer
        x = self.dropout(x)
        x = x.transpose(0, 1)
        x = self.transformer(x)

        # Perform classification prediction
        cls = x[0]
        out = self.mlp_head(cls)
        return out


torch.manual_seed(42)
imgs = torch.randn(6, 3, 8, 8)
labels = torch.tensor([0, 1, 2, 0, 1, 2])
patches = img_to_patch(imgs, patch_size=4, flatten_channels=False)
print(patches.shape, img_to_patch(imgs, patch_size=4).shape)
print(torch.equal(patches[1, 3, 2], imgs[1, 2, 4:, 4:]))

model = VisionTransformer(embed_dim=8, hidden_dim=16, num_channels=3, num_heads=2,
                          num_layers=2, num_classes=3, patch_size=4, num_patches=4, dropout=0.1)
print(model.transformer[0].attn)
print([(name, tuple(p.shape)) for name, p in model.transformer[0].attn.named_parameters()])
optimizer = optim.AdamW(model.parameters(), lr=3e-3)
lr_scheduler = optim.lr_scheduler.MultiStepLR(optimizer, milestones=[2, 3], gamma=0.1)

for epoch in range(4):
    model.train()
    preds = model(imgs)
    loss = F.cross_entropy(preds, labels)
    acc = (preds.argmax(dim=-1) == labels).float().mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    lr_scheduler.step()
    print(f"epoch {epoch} train_loss {loss.item():.4f} train_acc {acc:.4f} "
          f"lr {lr_scheduler.get_last_lr()[0]:.6f}")

model.eval()
with torch.no_grad():
    preds = model(imgs)
    print(preds, F.cross_entropy(preds, labels))
    block = model.transformer[0]
    x = block.layer_norm_1(torch.randn(5, 2, 8))
    out, weights = block.attn(x, x, x, need_weights=True, average_attn_weights=False)
    print(out.shape, weights.shape, weights.sum(dim=-1)[0])
print(model.cls_token.grad.view(-1), model.pos_embedding.grad.shape)
