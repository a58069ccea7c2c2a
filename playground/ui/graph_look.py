"""What the graph's nodes look like: their colours, fonts and text, and the boxes they need."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from PySide6.QtGui import QColor, QFont, QFontMetricsF

from playground.model import GraphNode
from playground.model.display import Group
from playground.ui.formatting import (
    count_text,
    module_tooltip,
    node_tooltip,
    shape_text,
    short_values,
)

# Fill colours: the seed tutorials draw leaves green and intermediate tensors yellow.
FILLS = {"leaf": "#b9e4b0", "tensor": "#fbe7a1", "constant": "#f4f4f4",
         "function": "#d6e2f5", "accumulate": "#e2e2e2", "group": "#c3d3f2",
         "module": "#e6dcf5"}
# An open module's frame: its outline and the tint behind what it made.
FRAME = QColor("#8a7fb0")
FRAME_FILL = QColor(230, 220, 245, 70)
TITLE_FILL = QColor("#ece6f7")
TEXT = QColor("#1b1f24")
SELECTED = QColor("#2f6fd0")
PATH = QColor("#e8590c")
LINKED = QColor("#0b8a8a")  # the nodes of the editor's current line
DONE = QColor("#2f9e44")
FAILED = QColor("#c92a2a")  # the node a backward call failed in
GRADIENT = QColor("#c2255c")

LEGEND = (("leaf", "leaf tensor (requires_grad, is_leaf)"), ("tensor", "intermediate tensor"),
          ("constant", "tensor without grad"), ("function", "grad_fn node (backward function)"),
          ("accumulate", "AccumulateGrad (writes .grad)"), ("group", "repeated nodes ×N"),
          ("module", "nn.Module, collapsed"))

LABEL_POINTS = 9.0  # the graph's text at a text scale of 1
# The graph's two fonts, shared by every item; set_label_scale resizes them in place.
PLAIN_FONT = QFont()
PLAIN_FONT.setPointSizeF(LABEL_POINTS)
BOLD_FONT = QFont(PLAIN_FONT)
BOLD_FONT.setBold(True)


@dataclass
class NodeLook:
    """What a node item shows: its kind's colour and up to three lines of text."""

    kind: str
    lines: list[str]
    tooltip: Callable[[], str]  # made on first hover: 20,000 tooltips up front take seconds
    dashed: bool = False


def set_label_scale(scale: float) -> None:
    """The graph's text size (Ctrl+= / Ctrl+-); graphs laid out after this use it."""
    PLAIN_FONT.setPointSizeF(LABEL_POINTS * scale)
    BOLD_FONT.setPointSizeF(LABEL_POINTS * scale)


def label_fonts() -> tuple[QFont, QFont]:
    """Copies of the (bold, plain) fonts, for measuring on a worker thread: Ctrl+= may change
    the originals meanwhile."""
    return QFont(BOLD_FONT), QFont(PLAIN_FONT)


def compact_name(look: NodeLook) -> str:
    """A node's name when zoomed out: ``Mul`` for ``MulBackward0`` (the colour says grad_fn)."""
    name = look.lines[0]
    if look.kind == "function":
        return re.sub(r"Backward\d*$", "", name) or name
    return name


def node_look(item: GraphNode | Group) -> NodeLook:
    """The look of a graph node or of a folded group of them."""
    if isinstance(item, Group) and item.module is not None:
        return _module_look(item)
    if isinstance(item, Group):
        text = (f"<b>{item.title}</b><br>{len(item.members)} identical nodes in a row; "
                "double-click to show them")
        return NodeLook("group", [item.title, "double-click to expand"], lambda: text)
    if item.is_tensor:
        lines = [item.label, shape_text(item.shape)]
        value = short_values(item.value)
        if value:
            lines.append(value)
        if item.grad is not None:
            lines.append("grad " + short_values(item.grad))
        return NodeLook(item.kind, lines, partial(node_tooltip, item),
                        dashed=item.kind == "constant")
    lines = [item.label]
    # an unnamed intermediate, labelled by its expression (not an AccumulateGrad: its leaf is
    # beside it; nor a module's node: its box says where they came from, model(x) on each)
    if item.expression and item.kind == "function" and item.module is None:
        lines.append(short_expression(item.expression))
    return NodeLook(item.kind, lines, partial(node_tooltip, item))


BOX_EXPRESSION_CHARS = 28  # a longer expression is shortened in its box (whole in the tooltip)


def short_expression(expression: str) -> str:
    """The expression that made a node, as its box shows it: ``w3 * b``."""
    if len(expression) <= BOX_EXPRESSION_CHARS:
        return expression
    return expression[:BOX_EXPRESSION_CHARS - 1] + "…"


def short_path(path: str) -> str:
    """A module's name in its parent's frame: ``layers.0`` for ``model.encoder.layers.0``."""
    parts = path.split(".")
    if len(parts) > 1 and parts[-1].isdigit():
        return ".".join(parts[-2:])
    return parts[-1]


def _module_look(group: Group) -> NodeLook:
    """A collapsed module: its name, class, size and the shapes into and out of it."""
    info = group.info
    lines = [short_path(group.module), info.class_name if info and info.class_name else "module"]
    if info is not None and info.parameters:
        lines.append(f"{count_text(info.parameters)} parameters")
    if info is not None and (info.inputs or info.outputs):
        lines.append(" ".join(shape_text(shape) for shape in info.inputs[:2]) + " → " +
                     " ".join(shape_text(shape) for shape in info.outputs[:2]))
    return NodeLook("module", lines, partial(module_tooltip, group.module, info,
                                             len(group.members)))


def measure(look: NodeLook, fonts: tuple[QFont, QFont] | None = None) -> tuple[float, float]:
    """A node's box for ``look`` in the (bold, plain) fonts, the graph's own by default."""
    fonts = fonts or (BOLD_FONT, PLAIN_FONT)
    bold, plain = (QFontMetricsF(font) for font in fonts)
    width = max([bold.horizontalAdvance(look.lines[0])]
                + [plain.horizontalAdvance(line) for line in look.lines[1:]])
    # lines as tall as the text is large: zoomed text overflowed boxes of a fixed height
    size = fonts[1].pointSizeF()
    line = 15 * (size / LABEL_POINTS if size > 0 else 1.0)
    stacked = 10 if look.kind in ("group", "module") else 0  # the inner box of a folded node
    return max(width + 20, 56.0), 8 + line * len(look.lines) + stacked


def legend_html(kinds: set[str] | None = None) -> str:
    """The colour key, as the overlay shows it (every kind) and the exports (``kinds``: those
    the graph has)."""
    rows = "".join(
        f"<tr><td style='background:{FILLS[kind]}; border:1px solid #5b6470'>&nbsp;&nbsp;&nbsp;"
        f"&nbsp;</td><td>&nbsp;{text}</td></tr>" for kind, text in LEGEND
        if kinds is None or kind in kinds)
    return f"<table cellspacing=3>{rows}</table>"
