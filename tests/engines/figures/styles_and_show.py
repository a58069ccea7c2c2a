# two figures in one script: plt.show() hands the first one over, styles change the second
import torch
import matplotlib.pyplot as plt

steps = torch.arange(50.0)
plt.style.use("ggplot")
plt.plot(steps, torch.exp(-steps / 10), label="exp(-t/10)")
plt.legend()
plt.show()

with plt.style.context("bmh"):
    fig, axes = plt.subplots(2, 3, figsize=(9, 5), sharex=True)
    for index, ax in enumerate(axes.flat):
        ax.plot(steps, torch.sin(steps / (index + 2)))
        ax.set_title(f"sin(t / {index + 2})")
    fig.suptitle("a grid of subplots")
    fig.tight_layout()
