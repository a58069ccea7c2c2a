"""The chain rule over paths, as a tutorial writes it: between two nodes, the sum over every
path of the product of the local derivatives along it, in the user's names and numbers, and
whether it adds up to the gradient the engine computed.

``dL/da = dL/dd · dd/db · db/da + dL/dd · dd/dc · dc/da``
``      = (-1) · w3 · w1 + (-1) · w4 · w2 = (-1) · 9 · 2 + (-1) · 7 · 5 = -53``

A path runs through function nodes; it is cut where a function made a value the user named
(``d``, ``b``), so each factor is the derivative of one named value by the next. A local
derivative is the node's rule for that input with the incoming gradient taken as 1 (``grad ·
other`` → ``w3``); its number is what the recorded call sent on divided by what it received,
known where both are single numbers.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from playground.model.arrays import ArrayData
from playground.model.chain_words import ChainWords, bracketed, formulas, number_text
from playground.model.display import Paths
from playground.model.graph import Graph
from playground.model.trace import BackwardTrace

MAX_TERMS = 8  # paths written out; more are counted


@dataclass
class PathSum:
    """What the inspector says of the paths between two nodes."""

    lines: list[str] = field(default_factory=list)
    total: float | None = None   # the sum of the paths' products, where numbers are known
    engine: float | None = None  # the gradient the engine computed, where the graph has it


def path_sum(graph: Graph, trace: BackwardTrace | None, paths: Paths) -> PathSum:
    """The sum over ``paths`` (from an output to a value it depends on) in words and numbers."""
    words = ChainWords(graph, trace or BackwardTrace("backward", [], []))
    steps = {step.node: step for step in (trace.steps if trace else [])}
    terms = []
    for path in unique_paths(paths.examples):
        terms.extend(_terms(graph, words, steps, path))
    if not terms:
        return PathSum(["no function node lies between them: no chain rule to write"])
    top, bottom = _name_of(graph, words, paths.start), _name_of(graph, words, paths.end)
    shown = terms[:MAX_TERMS]
    result = PathSum([f"d{top}/d{bottom} = " + " + ".join(
        " · ".join(f"d{a}/d{b}" for a, b, _, _ in term) for term in shown)])
    result.lines.append("= " + " + ".join(" · ".join(_bracket(text) for _, _, text, _ in term)
                                          for term in shown))
    products = [_product([number for *_, number in term]) for term in terms]
    if len(terms) > MAX_TERMS or len(paths.examples) < paths.count:
        # not every path is written out: their sum is not this one's to say
        result.lines.append(f"… and more paths ({paths.count:,} in all)")
        products = [None]
    if all(product is not None for product in products):
        result.total = math.fsum(products)
        numbers = " + ".join(" · ".join(_bracket(_number(n)) for *_, n in term)
                             for term in shown)
        result.lines.append(f"= {numbers} = {_number(result.total)}")
    result.engine = _engine_gradient(graph, words, steps, paths.end)
    result.lines.append(_verdict(graph, paths.end, bottom, result))
    return result


def unique_paths(paths: list[list[str]]) -> list[list[str]]:
    """Each node path once (parallel edges, as in ``d * d``, make one factor their sum)."""
    seen, kept = set(), []
    for path in paths:
        if tuple(path) not in seen:
            seen.add(tuple(path))
            kept.append(path)
    return kept


def _terms(graph: Graph, words: ChainWords, steps: dict, path: list[str]) -> list[list]:
    """The path's product as a list of factors (numerator name, denominator name, factor in
    words, factor's number or None); where a node reaches the next by several edges
    (``d * d``), one factor, their sum (``d + d``)."""
    functions = [node_id for node_id in path if graph.node(node_id).kind == "function"]
    chosen = []
    for node_id, after in zip(functions, [*functions[1:], None], strict=True):
        target = after if after is not None else next(
            (n for n in path[path.index(node_id) + 1:] if graph.node(n).kind != "function"),
            None)
        inputs = sorted(edge.input for edge in graph.edges if edge.kind == "next"
                        and edge.source == node_id and edge.target == target)
        chosen.append((node_id, inputs))
    return [_factors(graph, words, steps, chosen, path)]


def _factors(graph: Graph, words: ChainWords, steps: dict, chosen: list, path: list[str]):
    """Local derivatives along one path, multiplied within each span between named values."""
    factors = []
    top = _name_of(graph, words, path[0])
    texts, numbers = [], []
    for position, (node_id, inputs) in enumerate(chosen):
        parts = [_local(graph, words, steps, node_id, number) for number in inputs or [None]]
        texts.append(" + ".join(text for text, _ in parts) if len(parts) == 1 else
                     "(" + " + ".join(text for text, _ in parts) + ")")
        numbers.append(_sum([value for _, value in parts]))
        following = chosen[position + 1][0] if position + 1 < len(chosen) else None
        named = following is None or words.made.get(following) is not None and \
            words.made[following].names
        if named:
            below = words.name(following) if following else _name_of(graph, words, path[-1])
            kept = [t for t in texts if t != "1"] or ["1"]
            factors.append((top, below, " · ".join(kept), _product(numbers)))
            top, texts, numbers = below, [], []
    return factors


def _local(graph: Graph, words: ChainWords, steps: dict, node_id: str,
           number: int | None) -> tuple[str, float | None]:
    """A node's derivative by one input: the rule with the incoming gradient taken as 1."""
    node = graph.node(node_id)
    rules = formulas(node.rule)
    text = "∂"
    if number is not None and number < len(rules):
        rule = rules[number].split(" = ", 1)[1]
        named = {"result": words.name(node_id), "alpha": "1"}
        parameters = [formula.split(" = ", 1)[0].removeprefix("grad_") for formula in rules]
        written = words.operands(node)  # the constants too: ``10 - d``, ``w2 * a``
        targets = {edge.input: edge.target for edge in graph.edges
                   if edge.kind == "next" and edge.source == node_id}
        for position, parameter in enumerate(parameters):
            if position in targets:
                named[parameter] = words.name(targets[position])
            elif position < len(written):
                named[parameter] = written[position][0]
        rule = rule.replace(", spread over the input's shape", "")  # each element's: 1
        text = _simplified(re.sub(r"[A-Za-z_]\w*", lambda m: named.get(m.group(), m.group()),
                                  rule.replace("grad", "1")))
    return text, _ratio(steps.get(node_id), number)


def _simplified(text: str) -> str:
    """``1 · w3`` → ``w3``; ``-1 · 1`` → ``-1``."""
    text = text.replace(" * ", " · ")
    for pattern, replacement in ((r"^1 · ", ""), (r" · 1$", ""), (r"^-1 · 1$", "-1"),
                                 (r"^-1 · (.+)$", r"-\1")):
        text = re.sub(pattern, replacement, text)
    return text


def _ratio(step, number: int | None) -> float | None:
    """What the step sent on that input over what it received, both single numbers."""
    if step is None or number is None or not step.incoming or number >= len(step.outgoing):
        return None
    received, sent = _single(step.incoming[0]), _single(step.outgoing[number])
    if received is None or sent is None or received == 0:
        return None
    return sent / received


def _single(array: ArrayData | None) -> float | None:
    if array is None or array.size != 1 or not array.preview:
        return None
    value = array.preview[0]
    return float(value) if isinstance(value, int | float) else None


def _sum(numbers: list) -> float | None:
    return None if any(n is None for n in numbers) else math.fsum(numbers)


def _product(numbers: list) -> float | None:
    return None if any(n is None for n in numbers) else math.prod(numbers)


def _name_of(graph: Graph, words: ChainWords, node_id: str) -> str:
    node = graph.node(node_id)
    if node.is_tensor:
        return node.label
    return words.name(node_id)


def _engine_gradient(graph: Graph, words: ChainWords, steps: dict,
                     end: str) -> float | None:
    """The engine's own number for the gradient at the path's end: a leaf's .grad, else what
    the node's step received."""
    node = graph.node(end)
    if node.kind == "leaf":
        return _single(node.grad)
    producer = next((e.target for e in graph.edges if e.kind == "output" and e.source == end),
                    end)
    step = steps.get(producer)
    return _single(step.incoming[0]) if step is not None and step.incoming else None


def _verdict(graph: Graph, end: str, name: str, result: PathSum) -> str:
    where = f"{name}.grad" if graph.node(end).kind == "leaf" else f"the gradient at {name}"
    if result.engine is None:
        return f"(the engine's {where} is not a single number here: compare it in the inspector)"
    if result.total is None:
        return f"{where} = {_number(result.engine)} (the engine's)"
    if math.isclose(result.total, result.engine, rel_tol=1e-5, abs_tol=1e-12):
        return f"{where} = {_number(result.engine)}: the paths add up to the engine's gradient ✓"
    return (f"{where} = {_number(result.engine)}, the paths add up to "
            f"{_number(result.total)}: they differ by {_number(result.engine - result.total)} "
            "(a gradient accumulated over several backward calls, or a point where the "
            "function has no derivative)")


def _number(value: float) -> str:
    return number_text(value)


def _bracket(text: str) -> str:
    if bracketed(text):
        return text
    return f"({text})" if text.startswith("-") or " " in text else text
