"""Short and full text for tensors' values and gradients, shared by graph, inspector and plots."""

from __future__ import annotations

import html

import numpy as np

from playground.model import ArrayData, GraphNode
from playground.model.arrays import format_number


def shape_text(shape) -> str:
    return "(" + ", ".join(str(s) for s in shape) + ")" if shape is not None else ""


def short_values(array: ArrayData | None, limit: int = 3) -> str:
    """``[0.2, 2.0, …]``: the first few elements, for a node's third line."""
    if array is None:
        return ""
    values = array.preview
    if not values:
        return ""
    shown = ", ".join(format_number(v) for v in values[:limit])
    total = int(np.prod(array.shape)) if array.shape else 1
    if total == 1 and not array.shape:
        return shown
    return f"[{shown}{', …' if total > limit else ''}]"


def full_values(array: ArrayData | None) -> str:
    """Every value when the model kept them, else the summary the kernel sent."""
    if array is None:
        return "None"
    if array.values is None:
        count = int(np.prod(array.shape))
        return (f"{count:,} elements (summarised): min {format_number(array.minimum)}, "
                f"max {format_number(array.maximum)}, mean {format_number(array.mean)}\n"
                f"first: {', '.join(format_number(v) for v in array.preview)} …")
    return np.array2string(np.asarray(array.values), precision=4, threshold=200,
                           max_line_width=88, suppress_small=False)


def node_tooltip(node: GraphNode) -> str:
    """Hover text: values and .grad for tensors, the rule for functions."""
    if node.is_tensor:
        rows = [f"<b>{html.escape(', '.join(node.names) or node.kind)}</b> "
                f"{shape_text(node.shape)} {html.escape(node.dtype or '')}",
                f"<pre>value = {html.escape(full_values(node.value))}</pre>"]
        if node.grad is not None:
            rows.append(f"<pre>.grad = {html.escape(full_values(node.grad))}</pre>")
        elif node.requires_grad:
            rows.append("<i>.grad is None</i>")
        return "".join(rows)
    text = f"<b>{html.escape(node.label)}</b>"
    if node.rule:  # (a custom Function's code is the inspector's: its first line here)
        first = node.rule.partition("\n")[0]
        text += f"<br><code>{html.escape(readable_rule(first))}</code>"
    return text


def readable_rule(rule: str) -> str:
    """The derivative table's text with a multiplication dot, as the tutorials write it."""
    from playground.model.playback import readable

    return readable(rule)
