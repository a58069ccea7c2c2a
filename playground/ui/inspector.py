"""The inspector: everything about the selected node, and the chain-rule paths between two."""

from __future__ import annotations

import html
from collections.abc import Callable

import numpy as np
from PySide6.QtWidgets import QTextBrowser

from playground.model import Graph
from playground.model.display import Group, Paths
from playground.model.path_sums import path_sum, unique_paths
from playground.model.trace import BackwardTrace
from playground.ui.following import follow
from playground.ui.formatting import full_values, readable_rule, shape_text

HINT = ("<p style='color:gray'>Click a node of the graph to see its values, gradient and "
        "rule here.<br>Ctrl+click a second node (an output and a leaf) to see every path "
        "between them: the chain rule multiplies along a path and adds the paths.</p>")


class Inspector(QTextBrowser):
    """Read-only details of one node; selectable and copyable."""

    def __init__(self, state=None, parent=None) -> None:
        super().__init__(parent)
        self.setOpenLinks(False)
        self.setHtml(HINT)
        self.state = None
        if state is not None:
            self.bind(state)

    def bind(self, state) -> None:
        """Follow a model.view_state.ViewState: the selected node, or the replay's step."""
        self.state = state
        follow(self, state.events.selection, lambda _ids: self._show_selection())
        follow(self, state.events.step, self._show_step_or_selection)
        follow(self, state.events.reset, lambda: self.setHtml(HINT))

    def _show_selection(self) -> None:
        state = self.state
        if len(state.selection) == 2 and state.paths is not None and state.graph is not None:
            self.show_paths(state.graph, state.paths)
        else:
            self.show_node(state.graph, state.selected_object if state.selection else None)

    def _show_step_or_selection(self, step) -> None:
        if step is not None and step.position > 0:
            self.show_step(step)
        else:
            self._show_selection()

    def show_node(self, graph: Graph | None, node: object | None) -> None:
        if graph is None or node is None:
            self.setHtml(HINT)
        elif isinstance(node, Group) and node.module is not None:
            self.setHtml(module_html(node))
        elif isinstance(node, Group):
            self.setHtml(f"<h3>{html.escape(node.title)}</h3><p>{len(node.members)} "
                         f"{html.escape(node.label)} nodes in a row, folded. Double-click the "
                         "node in the graph to show them one by one.</p>")
        else:
            self.setHtml(node_html(graph, node, self.state.code_line if self.state else None))

    def show_step(self, state) -> None:
        self.setHtml(step_html(state))

    def show_paths(self, graph: Graph, paths: Paths) -> None:
        start, end = graph.node(paths.start), graph.node(paths.end)
        lines = [f"<h3>{paths.count} path{'s' if paths.count != 1 else ''} from "
                 f"{html.escape(start.label)} to {html.escape(end.label)}</h3>",
                 "<p>The gradient of the one with respect to the other is the sum over these "
                 "paths of the product of the local derivatives along each path:</p>",
                 "<p style='white-space: pre-wrap; font-family: monospace'>" + html.escape(
                     "\n".join(path_sum(graph, self._trace_of(graph), paths).lines))
                 + "</p><ol>"]
        for path in unique_paths(paths.examples):  # a function node by its expression
            lines.append("<li>" + " → ".join(html.escape(_in_words(graph.node(n)))
                                              for n in path) + "</li>")
        lines.append("</ol>")
        if paths.count > len(paths.examples):
            lines.append(f"<p>… and {paths.count - len(paths.examples)} more.</p>")
        self.setHtml("".join(lines))


    def _trace_of(self, graph: Graph) -> BackwardTrace | None:
        """The recorded call shown on ``graph`` (its numbers fill the path sums)."""
        state = self.state
        if state is None or not state.calls:
            return None
        call = state.calls[min(state.call_index, len(state.calls) - 1)]
        return call.trace if call.graph is graph else None


def _in_words(node) -> str:
    if node.kind == "function" and node.expression:
        return f"{node.label} ({node.expression})"
    return node.label


def module_html(group: Group) -> str:
    """A collapsed module: its class, size, the shapes through it, and its parameters with
    the norms of their gradients (the first place to look for a vanishing one)."""
    info = group.info
    rows = [f"<h3>{html.escape(group.module)}</h3>"]
    if info is None:
        return rows[0] + f"<p>{len(group.members)} nodes, collapsed.</p>"
    shapes = ", ".join(shape_text(shape) for shape in info.inputs) or "none"
    rows.append(f"<p><b>{html.escape(info.class_name or 'module')}</b> · "
                f"{info.parameters:,} parameters · {len(group.members):,} nodes, collapsed "
                "(double-click it in the graph to open it)</p>")
    rows.append(f"<p>in {shapes} → out "
                f"{', '.join(shape_text(shape) for shape in info.outputs) or 'none'}</p>")
    if info.weights:
        cells = "".join(
            f"<tr><td>{html.escape(weight.name)}</td><td>{shape_text(weight.shape)}</td>"
            f"<td align=right>{'None' if weight.grad_norm is None else f'{weight.grad_norm:.4g}'}"
            "</td></tr>" for weight in info.weights)
        rows.append("<table cellspacing=4><tr><th align=left>parameter</th><th align=left>"
                    f"shape</th><th align=right>‖grad‖</th></tr>{cells}</table>")
        if info.parameters and len(info.weights) < _parameter_count_hint(info):
            rows.append("<p>(the first parameters only)</p>")
    return "".join(rows)


def _parameter_count_hint(info) -> int:
    """How many parameter tensors the list would hold whole: more than it shows when the
    listed ones hold fewer elements than the module."""
    listed = sum(int(np.prod(weight.shape)) for weight in info.weights)
    return len(info.weights) + (1 if listed < info.parameters else 0)


def node_html(graph: Graph, node, code_line: Callable[[int], str] | None = None) -> str:
    """A node's details; ``code_line`` reads a line of the code in the editor."""
    rows = []

    def row(name: str, value: str, pre: bool = False) -> None:
        body = f"<pre>{html.escape(value)}</pre>" if pre else html.escape(value)
        rows.append(f"<tr><td valign=top><b>{name}</b></td><td>{body}</td></tr>")

    if node.line is not None:
        text = code_line(node.line).strip() if code_line else ""
        row("made at", f"line {node.line}" + (f": {text}" if text else ""))
        if node.expression and node.expression != text:
            row("expression", node.expression)

    if node.module is not None:
        module = graph.modules.get(node.module)
        row("module", node.module + (f" ({module.class_name})" if module and
                                     module.class_name else ""))

    if node.is_tensor:
        title = ", ".join(node.names) or f"unnamed {node.kind} tensor"
        row("kind", {"leaf": "leaf tensor", "tensor": "intermediate tensor",
                     "constant": "tensor that does not require grad"}[node.kind])
        row("shape", shape_text(node.shape))
        row("dtype", node.dtype or "")
        row("device", node.device or "")
        row("requires_grad", str(node.requires_grad))
        row("is_leaf", str(node.is_leaf))
        producer = [graph.node(e.target).label for e in graph.edges
                    if e.source == node.id and e.kind == "output"]
        row("grad_fn", f"<{producer[0]}>" if producer else "None")
        row("value", full_values(node.value), pre=True)
        row(".grad", full_values(node.grad) if node.grad is not None else
            ("None (not a leaf: call retain_grad() to keep it)" if node.kind == "tensor"
             else "None"), pre=True)
    else:
        title = node.label
        row("kind", "AccumulateGrad: adds the incoming gradient into a leaf's .grad"
            if node.kind == "accumulate" else "backward function (grad_fn)")
        if node.rule and "\n" in node.rule:  # a custom Function's backward, as the user wrote it
            heading, _, code = node.rule.partition("\n")
            row("rule", heading.split(": ", 1)[-1])
            row("", code, pre=True)
        elif node.rule:
            row("rule", readable_rule(node.rule))
        inputs = [graph.node(e.target).label for e in graph.edges if e.source == node.id]
        row("next functions", ", ".join(inputs) or "none")
        for name, array in node.saved.items():
            # a custom Function's are named saved_tensors[i] already
            row(name if name.startswith("saved") else f"saved {name}", full_values(array),
                pre=True)
        if not node.saved and node.kind == "function":
            row("saved", "none here: backward() frees what a node saved (run it with "
                "retain_graph=True to see them), and some nodes save nothing")
    return f"<h3>{html.escape(title)}</h3><table cellspacing=4>{''.join(rows)}</table>"


def step_html(state) -> str:
    """The backward player's running step, in words and numbers."""
    if state.failure:  # the callout's two short lines, and here the whole error
        return (f"<h3>{html.escape(state.title)}</h3><p>The call raised, at this node:</p>"
                f"<p><code>{html.escape(state.failure)}</code></p>")
    mine = "".join(f"<li><code>{html.escape(line)}</code></li>" for line in state.explanation)
    torch_terms = "".join(f"<li><code>{html.escape(line)}</code></li>"
                          for line in state.torch_terms)
    return (f"<h3>{html.escape(state.title)}</h3><p><b>In your code</b></p><ul>{mine}</ul>"
            + (f"<p><b>In torch's terms</b></p><ul>{torch_terms}</ul>" if torch_terms else ""))
