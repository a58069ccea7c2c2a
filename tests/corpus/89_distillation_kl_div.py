# In the style of: the knowledge distillation tutorial (a teacher's softened probabilities,
# F.kl_div on log-probabilities scaled by T**2, plus the hard-label loss)
# Family: pytorch-tutorials
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
teacher = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 3))
student = nn.Sequential(nn.Linear(6, 4), nn.ReLU(), nn.Linear(4, 3))
x, labels = torch.randn(8, 6), torch.randint(0, 3, (8,))
T, soft_weight = 2.0, 0.25
with torch.no_grad():
    teacher_logits = teacher(x)
student_logits = student(x)
soft_targets = F.softmax(teacher_logits / T, dim=-1)
soft_prob = F.log_softmax(student_logits / T, dim=-1)
soft_loss = torch.sum(soft_targets * (soft_targets.log() - soft_prob)) / soft_prob.size(0) * T ** 2
kl = F.kl_div(soft_prob, soft_targets, reduction="batchmean") * T ** 2
hard_loss = nn.CrossEntropyLoss()(student_logits, labels)
loss = soft_weight * kl + (1 - soft_weight) * hard_loss
loss.backward()
print(f"soft {soft_loss.item():.5f} kl_div {kl.item():.5f} hard {hard_loss.item():.5f}")
print(f"{student[0].weight.grad.norm():.5f}")
print(nn.KLDivLoss(reduction="batchmean", log_target=True)(soft_prob, soft_targets.log()))
