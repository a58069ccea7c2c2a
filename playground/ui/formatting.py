"""Short and full text for tensors' values and gradients, shared by graph, inspector and plots."""

from __future__ import annotations

import html
import math

import numpy as np

from playground.model import ArrayData, GraphNode
from playground.model.arrays import format_number
from playground.model.graph import GraphModule


def shape_text(shape) -> str:
    return "(" + ", ".join(str(s) for s in shape) + ")" if shape is not None else ""


def short_values(array: ArrayData | None, limit: int = 3) -> str:
    """``[0.2, 2.0, …]``: the first few elements, for a node's third line."""
    if array is None:
        return ""
    values = array.preview
    if not values and array.values is not None and np.asarray(array.values).dtype.kind == "c":
        values = np.asarray(array.values).reshape(-1)[:limit].tolist()  # (no preview kept)
    if not values:
        return ""
    shown = ", ".join(format_number(v) for v in values[:limit])
    total = math.prod(array.shape or ())  # (NumPy's prod of a tuple costs ten times as much)
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
        if node.line is not None:
            rows.append(f"line {node.line}" + (f": <code>{html.escape(node.expression)}</code>"
                                               if node.expression else ""))
        return "".join(rows)
    text = f"<b>{html.escape(node.label)}</b>"
    if node.line is not None:
        text += f" · line {node.line}" + (f": <code>{html.escape(node.expression)}</code>"
                                          if node.expression else "")
    if node.rule:  # (a custom Function's code is the inspector's: its first line here)
        first = node.rule.partition("\n")[0]
        text += f"<br><code>{html.escape(readable_rule(first))}</code>"
    return text


def duration_text(seconds: float) -> str:
    """A run's time in the unit that reads: ``under 1 ms``, ``3 ms``, ``1.2 s``, ``45 s``,
    ``2 min 5 s`` (a quick run said "0.00 s", which reads as nothing having run)."""
    if seconds < 0.001:
        return "under 1 ms"
    if seconds < 0.9995:
        return f"{seconds * 1000:.0f} ms"
    if seconds < 9.95:
        return f"{seconds:.1f} s"
    if seconds < 59.5:
        return f"{seconds:.0f} s"
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes} min {rest} s" if rest else f"{minutes} min"


def count_text(count: int) -> str:
    """``840``, ``12.7k``, ``3.4M``: a parameter count at a glance."""
    if count < 1000:
        return str(count)
    if count < 1_000_000:
        return f"{count / 1000:.1f}k".replace(".0k", "k")
    return f"{count / 1_000_000:.1f}M".replace(".0M", "M")


def module_tooltip(path: str, info: GraphModule | None, nodes: int) -> str:
    """Hover text of a collapsed module: path, class, parameters, shapes, what it hides."""
    rows = [f"<b>{html.escape(path)}</b>"
            + (f" · {html.escape(info.class_name)}" if info and info.class_name else "")]
    if info is not None:
        rows.append(f"{info.parameters:,} parameters")
        if info.inputs or info.outputs:
            rows.append("in " + ", ".join(shape_text(s) for s in info.inputs) + " → out "
                        + ", ".join(shape_text(s) for s in info.outputs))
    rows.append(f"{nodes:,} nodes inside; double-click to open it")
    return "<br>".join(rows)


def readable_rule(rule: str) -> str:
    """The derivative table's text with a multiplication dot, as the tutorials write it."""
    from playground.model.playback import readable

    return readable(rule)
