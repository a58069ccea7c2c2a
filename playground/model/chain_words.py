"""A backward step in the user's own names and numbers, as a teacher writes the chain rule:
``dL/dw3 = dL/d(w3·b) · b = 1 · 8 = 8 → w3.grad``.

The graph says what each node was in the user's code (its variable, or the expression that
made it: model/graph.py's ``line`` and ``expression``) and the rule table names each input of a
node (``grad_self = grad * other``): the rule is read with ``self`` and ``other`` as the
operands' own names, ``grad`` as the gradient of the node's output, and, where every value in
it is known and small, once more with the numbers.
"""

from __future__ import annotations

import ast
import re

import numpy as np

from playground.model.arrays import ArrayData, format_number
from playground.model.graph import Graph, GraphNode
from playground.model.trace import BackwardStep, BackwardTrace

NUMBERS_UP_TO = 4  # a formula is shown with its numbers when each value has at most this many
_SYMBOL = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")
# what a rule's helpers do, as a student writes it
_HELPERS = ((re.compile(r"scale\((.+?), alpha\)"), r"alpha · \1"),
            (re.compile(r"expand\((.+?), shape\)"), r"\1, spread over the input's shape"),
            (re.compile(r"pow_self_grad\((\w+), (\w+), exponent\)"),
             r"\1 · exponent · \2^(exponent - 1)"))


class ChainWords:
    """Names for the nodes of one recorded call: what the user called each value."""

    def __init__(self, graph: Graph, trace: BackwardTrace) -> None:
        self.graph = graph
        self.made: dict[str, GraphNode] = {}   # function id → the tensor it made, if named
        self.leaf: dict[str, GraphNode] = {}   # AccumulateGrad id → its leaf
        for edge in graph.edges:
            if edge.kind == "output":
                self.made[edge.target] = graph.node(edge.source)
            elif edge.kind == "accumulate":
                self.leaf[edge.source] = graph.node(edge.target)
        # the value backward started from: its variable (L), else its expression
        self.loss = "out"
        if trace.roots and trace.roots[0] in graph.node_ids():
            self.loss = self.name(trace.roots[0])
            if not re.fullmatch(r"[\w.\[\]]+", self.loss) and not bracketed(self.loss):
                self.loss = f"({self.loss})"

    def name(self, node_id: str) -> str:
        """What the user calls the value a node stands for: ``w3``, ``b`` or ``(w3·b)``."""
        node = self.graph.node(node_id)
        if node_id in self.leaf:
            return self.leaf[node_id].label
        made = self.made.get(node_id)
        if made is not None and made.names:
            return made.label
        if node.expression:
            text = node.expression.replace(" * ", "·")
            return f"({text})" if _has_outer_operator(text) else text
        return node.label

    def gradient(self, node_id: str) -> str:
        """``dL/dw3``: the gradient of the loss with respect to the node's value."""
        name = self.name(node_id)
        whole = re.fullmatch(r"[\w.\[\]]+", name) or bracketed(name)
        return f"d{self.loss}/d{name}" if whole else f"d{self.loss}/d({name})"

    def operands(self, node: GraphNode) -> list[tuple[str, ArrayData | None]]:
        """A binary operation's operands as its expression wrote them (``w2``, ``a``, ``10``)
        with their values where known, in the node's input order (``10 - d``: d, then 10)."""
        try:
            tree = ast.parse(node.expression or "", mode="eval").body
        except SyntaxError:
            return []
        if not isinstance(tree, ast.BinOp):
            return []
        parts = [tree.left, tree.right]
        if isinstance(tree.left, ast.Constant) or node.label.startswith("R"):
            parts.reverse()  # 3 * w is w.__rmul__(3): the tensor is self
        return [self._written(part) for part in parts]

    def _written(self, part: ast.expr) -> tuple[str, ArrayData | None]:
        text = ast.unparse(part)
        if isinstance(part, ast.Constant) and isinstance(part.value, int | float):
            return text, ArrayData.from_array(np.asarray(float(part.value)), "float")
        try:
            return text, self.graph.by_name(text).value
        except KeyError:
            return text, None

    def value(self, node_id: str) -> ArrayData | None:
        """The value a node stands for, where the graph kept it (a leaf or a named tensor)."""
        tensor = self.leaf.get(node_id) or self.made.get(node_id)
        return tensor.value if tensor is not None else None


def step_words(words: ChainWords, step: BackwardStep, node: GraphNode,
               inputs: list) -> list[str]:
    """The running step in the user's names: where it came from, then each input's gradient
    by the local rule, with the numbers flowing."""
    incoming = step.incoming[0] if step.incoming else None
    if step.name == "AccumulateGrad":
        leaf = words.leaf.get(step.node)
        name = leaf.label if leaf is not None else "leaf"
        before = "None" if step.grad_before is None else _term(_numbers(step.grad_before))
        return [f"{name}.grad = {before} + {_term(_numbers(incoming))} = "
                f"{_numbers(step.grad_after)}  ({words.gradient(step.node)} added to what "
                f"{name}.grad held)"]
    where = f"line {node.line} · " if node.line is not None else ""
    what = words.name(step.node)
    lines = [f"{where}{step.name} for {what}: it receives {words.gradient(step.node)} = "
             f"{_numbers(incoming)}"]
    rules = formulas(node.rule)
    operands = {edge.input: edge.target for edge in inputs}
    parameters = [formula.split(" = ", 1)[0].removeprefix("grad_") for formula in rules]
    written = words.operands(node)  # the operands as the code wrote them: the constants too
    shared = [target for target in operands.values()
              if list(operands.values()).count(target) > 1]  # d * d: two shares of dL/dd
    for edge in inputs:
        sent = step.outgoing[edge.input] if edge.input < len(step.outgoing) else None
        target = edge.target
        destination = f"{words.leaf[target].label}.grad" if target in words.leaf else \
            words.name(target)
        if edge.input >= len(rules):
            lines.append(f"{words.gradient(target)} = {_numbers(sent)} → {destination}")
            continue
        rule = rules[edge.input].split(" = ", 1)[1].replace("alpha · ", "")  # torch's default
        named = {"grad": words.gradient(step.node), "result": what}
        valued = {"grad": incoming, "result": words.value(step.node)}
        if node.label.startswith("Pow") and len(written) > 1:  # x ** 2: the 2
            named["exponent"], valued["exponent"] = written[1]
        for position, parameter in enumerate(parameters):
            if position in operands:
                named[parameter] = words.name(operands[position])
                valued[parameter] = words.value(operands[position])
            elif position < len(written):
                named[parameter], valued[parameter] = written[position]
        share = f" (its share through {parameters[edge.input]})" if target in shared else ""
        spoken = _spoken(rule, named)
        text = f"{words.gradient(target)}{share} = {spoken}"
        with_numbers = _with_numbers(rule, valued)
        if with_numbers is not None and spoken != named["grad"] and \
                with_numbers != _numbers(sent):  # (not "= dL/dd = 46 = 46")
            text += f" = {with_numbers}"
        lines.append(f"{text} = {_numbers(sent)} → {destination}")
    for target in dict.fromkeys(shared):  # what the shares add up to
        lines.append(f"{words.gradient(target)} is the sum of its shares: "
                     f"{_shares_sum(step, inputs, target)}")
    if not inputs:
        lines.append("no input needs a gradient: nothing to send on")
    return lines


def _shares_sum(step: BackwardStep, inputs: list, target: str) -> str:
    values = [step.outgoing[edge.input] for edge in inputs
              if edge.target == target and edge.input < len(step.outgoing)]
    if not values or any(value is None or value.size > NUMBERS_UP_TO or
                         value.shape != values[0].shape
           or len(value.preview) != value.size for value in values):
        return "added where they meet"
    total = np.sum([np.asarray(v.preview, float) for v in values], axis=0)
    summed = ArrayData.from_array(total.reshape(values[0].shape), "float")
    return " + ".join(_term(_numbers(v)) for v in values) + " = " + _numbers(summed)


def _term(text: str) -> str:
    """A negative number in a sum or product: bracketed, ``1 · (-1)``."""
    return f"({text})" if text.startswith("-") else text


def bracketed(text: str) -> bool:
    """``(w3·b)``: one bracket around all of it (not ``(a + b).sum()``)."""
    depth = 0
    for position, character in enumerate(text):
        depth += character == "("
        depth -= character == ")"
        if depth == 0:
            return position == len(text) - 1 and text.startswith("(")
    return False


def _has_outer_operator(text: str) -> bool:
    """``w3·b`` or ``a + b`` (outside any bracket): bracketed when named as a whole."""
    depth = 0
    for character in text:
        depth += character in "([{"
        depth -= character in ")]}"
        if depth == 0 and (character == " " or character == "·"):
            return True
    return False


def formulas(rule: str | None) -> list[str]:
    """``MulBackward0: grad_self = grad * other; ...`` → its formulas, one per input."""
    if not rule or ": " not in rule or "\n" in rule:  # none, or a custom Function's own code
        return []
    found = []
    for part in rule.split(": ", 1)[1].split("; "):
        for pattern, replacement in _HELPERS:
            part = pattern.sub(replacement, part.strip())
        found.append(part)
    return found


def _spoken(rule: str, named: dict[str, str]) -> str:
    """The rule with each symbol replaced by the user's name for it (``1 · x`` is ``x``;
    ``cos((u·v))`` is ``cos(u·v)``)."""
    spoken = _SYMBOL.sub(lambda found: named.get(found.group(), found.group()), rule)
    spoken = re.sub(r"(\w)\(\(([^()]*)\)\)", r"\1(\2)", spoken.replace(" * ", " · "))
    return re.sub(r"(?<![\w.])1 · ", "", spoken)


def _with_numbers(rule: str, valued: dict[str, ArrayData | None]) -> str | None:
    """The rule with the numbers in it: only when it is plain arithmetic of known, small
    values (a helper call or an unknown symbol leaves it in words)."""
    symbols = _SYMBOL.findall(rule)
    if not symbols or "(" in rule or any(valued.get(symbol) is None for symbol in symbols):
        return None
    if any(valued[symbol].size > NUMBERS_UP_TO for symbol in symbols):
        return None
    return _SYMBOL.sub(lambda found: _term(_numbers(valued[found.group()])),
                       rule).replace(" * ", " · ")


def number_text(value) -> str:
    """A number as a formula writes it: ``8`` for 8.0, ``-0.5``, ``1.25e-05``."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return format_number(value)


def _numbers(array: ArrayData | None) -> str:
    """A value in full when small (``8``, ``[0.5, -1]``), else its shape and first values."""
    if array is None:
        return "None"
    values = [number_text(value) for value in array.preview[:NUMBERS_UP_TO]]
    size = array.size
    if size == 1:
        return values[0] if values else "?"
    shape = "×".join(str(extent) for extent in array.shape)
    if size <= NUMBERS_UP_TO:
        return f"[{', '.join(values)}]"
    return f"({shape}) [{', '.join(values)}, …]"
