"""Which line of the user's code made each graph node, and by which expression (both engines).

The run's code is compiled with a call before each of its statements that notes the line
and the engine's next node number (``StatementMarks.at``); a user function's body is wrapped
so that, as it returns, its caller's line is noted again. Both engines number the nodes they
make in order (torch's ``_sequence_nr``), so a node belongs to the latest statement noted at
or below its number, as module calls do (module_calls.py). Within one execution of a
statement, its nodes are matched to the statement's operations (``w3 * b``, ``x.sum()``,
``model(x)``) by their kind, from the last made backwards: the outer operation ends last.
The marks are ints in two lists, kept across a notebook's cells; a run pays a call per
statement it executes, nothing per op.
"""

from __future__ import annotations

import ast
import bisect
import re
import weakref
from collections.abc import Callable

from playground.engines.graph_builder import USER_ERRORS
from playground.model.graph import Graph

AT, ENTER, LEAVE = "_playground_at", "_playground_enter", "_playground_leave"
MARKS_NAME = "__playground_statements__"  # where a namespace keeps its StatementMarks
KEPT_MARKS = 200_000  # statements executed whose lines are kept (the newest)
EXPRESSION_CHARS = 80  # an expression longer than this is shortened with "…"

_NODE_KIND = re.compile(r"(?:Backward\d*|\d+)$")  # MulBackward0 → Mul


class StatementMarks:
    """The statements a namespace's runs executed, in order: for each, the engine's next node
    number then (``starts``) and its line (``lines``); a line noted again as a function
    returns is stored negated (the same execution goes on)."""

    def __init__(self, mark: Callable[[], int],
                 compiling: Callable[[], bool] | None = None) -> None:
        self.mark = mark
        self.compiling = compiling  # torch.compile tracing: the marks step aside
        # Two lists (some 44 bytes a statement, 18 MB at their longest): an array("q") held
        # 16, but its append parses each int (300 instructions: 6,000 a step of a loop)
        self.starts: list[int] = []
        self.lines: list[int] = []
        self.statements: dict[int, tuple[ast.stmt, list[str]]] = {}  # line → (AST, code lines)

    def functions(self) -> dict[str, Callable]:
        """The three callables the marked code calls, by the names it calls them. They run at
        every statement, so each is one call: under torch.compile (``compiling()`` True) they
        do nothing, and leave what they would call untraced."""
        mark, starts, lines = self.mark, self.starts, self.lines
        begin, note, compiling = starts.append, lines.append, self.compiling or bool
        stack = [0]  # the line each user function on the stack is at
        cut_at, kept = 2 * KEPT_MARKS, KEPT_MARKS

        def at(line: int) -> None:
            if compiling():
                return
            stack[-1] = line
            begin(mark())
            note(line)
            if len(starts) > cut_at:  # the newest kept, the lists cut seldom
                del starts[:len(starts) - kept], lines[:len(lines) - kept]

        def enter(line: int = 0) -> None:  # (a function's first statement's mark with it)
            if compiling():
                return
            stack.append(line)
            if line:
                begin(mark())
                note(line)

        def leave() -> None:
            if compiling():
                return
            if len(stack) > 1:
                stack.pop()
            begin(mark())
            note(-stack[-1])

        return {AT: at, ENTER: enter, LEAVE: leave}

    def line_of(self, node) -> int | None:
        """The line that made a live node (an AccumulateGrad, none: it is its leaf's)."""
        try:
            number = int(node._sequence_nr())
        except USER_ERRORS:
            return None
        at = bisect.bisect_right(self.starts, number) - 1  # the last statement begun by it
        return abs(self.lines[at]) if at >= 0 and type(node).__name__ != "AccumulateGrad" \
            else None

    def learn(self, statements: dict[int, ast.stmt], source: str) -> None:
        """The statements of code about to run, by line (a cell's replace its lines')."""
        lines = source.split("\n")
        self.statements.update((line, (stmt, lines)) for line, stmt in statements.items())


def marks_of(namespace: dict, mark: Callable[[], int],
             compiling: Callable[[], bool] | None = None) -> StatementMarks:
    """The namespace's StatementMarks (a notebook's cells share one), its callables set."""
    marks = namespace.get(MARKS_NAME)
    if not isinstance(marks, StatementMarks) or marks.mark is not mark:
        marks = namespace[MARKS_NAME] = StatementMarks(mark, compiling)
    namespace.update(marks.functions())
    return marks


def marked(tree: ast.Module, source: str) -> tuple[ast.Module, dict[int, ast.stmt]]:
    """The tree with a mark before each statement (functions' bodies wrapped), and every
    statement by its first line. Only statements are walked (a run compiles the code anew
    after each edit in Live mode: a walk of every expression took milliseconds)."""
    statements: dict[int, ast.stmt] = {}
    lines = source.split("\n")
    tree.body = _marked_body(tree.body, statements, lines, module=True)
    return tree, statements


_BODIES = ("body", "orelse", "finalbody")


def _marked_body(body: list[ast.stmt], statements: dict[int, ast.stmt], lines: list[str],
                 module: bool = False) -> list[ast.stmt]:
    result = []
    for position, stmt in enumerate(body):
        _mark_inside(stmt, statements, lines)
        kept_first = position == 0 and _docstring(body) or (
            module and isinstance(stmt, ast.ImportFrom) and stmt.module == "__future__")
        if not kept_first:
            statements[stmt.lineno] = stmt
            if not _makes_nothing(stmt):
                result.append(_located(ast.Expr(_call(AT, ast.Constant(stmt.lineno))), stmt))
        result.append(stmt)
    return result


def _makes_nothing(stmt: ast.stmt) -> bool:
    """A statement that runs no operation, so makes no node: it needs no mark (a mark costs
    a call, and ``return out`` ends most forward methods)."""
    if isinstance(stmt, ast.Pass | ast.Break | ast.Continue | ast.Global | ast.Nonlocal):
        return True
    if isinstance(stmt, ast.Return):
        return stmt.value is None or isinstance(stmt.value, ast.Name | ast.Constant)
    return False


def _mark_inside(stmt: ast.stmt, statements: dict[int, ast.stmt], lines: list[str]) -> None:
    """Mark the statements inside a compound statement (a function's body also wrapped)."""
    if isinstance(stmt, ast.AsyncFunctionDef) or (  # awaits and yields interleave frames:
            isinstance(stmt, ast.FunctionDef) and _is_generator(stmt, lines)):  # their nodes
        return                                                             # are the caller's
    for field in _BODIES:
        body = getattr(stmt, field, None)
        if body:
            setattr(stmt, field, _marked_body(body, statements, lines))
    for part in [*getattr(stmt, "handlers", ()), *getattr(stmt, "cases", ())]:
        part.body = _marked_body(part.body, statements, lines)
    if isinstance(stmt, ast.FunctionDef):
        _wrap_function(stmt)


def _wrap_function(function: ast.FunctionDef) -> None:
    """``enter()`` and ``try: body finally: leave()``: as it returns (or raises), its
    caller's line is noted again."""
    start = 1 if _docstring(function.body) else 0
    head, body = function.body[:start], function.body[start:]
    where = body[0] if body else function
    first_line = ast.Constant(0)
    if body and _is_mark(body[0]):  # the first statement's mark goes with enter (one call)
        first_line = body.pop(0).value.args[0]
    guarded = ast.Try(body=body or [_located(ast.Pass(), where)], handlers=[], orelse=[],
                      finalbody=[_located(ast.Expr(_call(LEAVE)), where)])
    function.body = [*head, _located(ast.Expr(_call(ENTER, first_line)), where),
                     _located(guarded, where)]


def _is_mark(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and \
        isinstance(stmt.value.func, ast.Name) and stmt.value.func.id == AT


def _located(node: ast.AST, where: ast.AST) -> ast.AST:
    """``node`` and the new nodes in it at ``where``'s place (no walk of the whole tree)."""
    waiting = [node]
    while waiting:
        part = waiting.pop()
        if "lineno" in part._attributes and not hasattr(part, "lineno"):
            ast.copy_location(part, where)
            waiting.extend(ast.iter_child_nodes(part))
    return node


def _is_generator(function: ast.FunctionDef, lines: list[str]) -> bool:
    """A yield in the function itself (not in a function inside it)."""
    text = "\n".join(lines[function.lineno - 1:function.end_lineno or function.lineno])
    if "yield" not in text:  # (most functions: no walk)
        return False
    waiting = list(ast.iter_child_nodes(function))
    while waiting:
        node = waiting.pop()
        if isinstance(node, ast.Yield | ast.YieldFrom):
            return True
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda |
                          ast.ClassDef):
            waiting.extend(ast.iter_child_nodes(node))
    return False


def _docstring(body: list[ast.stmt]) -> bool:
    first = body[0] if body else None
    return isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and \
        isinstance(first.value.value, str)


def _call(name: str, *args: ast.expr) -> ast.Call:
    return ast.Call(ast.Name(name, ast.Load()), list(args), [])


# ----- after the run: each node's line and expression -----------------------------------------

def assign_lines(graph: Graph, objects: list, marks: StatementMarks) -> None:
    """Give each node of ``graph`` (made from ``objects``, in order) the line and expression
    that made it: a function node by its number, a tensor by its grad_fn (a leaf by the
    statement that last assigns one of its names at the top level)."""
    starts = marks.starts
    if not starts:
        return
    runs: dict[int, list[tuple[int, int]]] = {}  # an execution's first record → its nodes
    lines: dict[int, int] = {}
    begun: dict[int, int] = {}  # record → the record its statement's execution began at
    for index, (node, live) in enumerate(zip(graph.nodes, objects, strict=True)):
        if node.kind != "function":
            continue
        try:
            number = int(live._sequence_nr())
        except USER_ERRORS:
            continue
        at = bisect.bisect_right(starts, number) - 1
        if at >= 0:
            execution = _begun(marks.lines, at, begun)
            lines[execution] = abs(marks.lines[execution])
            runs.setdefault(execution, []).append((number, index))
    read = _READ  # a loop's statement runs many times, a text many runs: read once
    for execution, numbered in runs.items():
        line = lines[execution]
        if line:
            _name_expressions(graph, sorted(numbered), marks.statements.get(line), line, read)
    _tensors_follow(graph, marks)


class _ReadStatements:
    """Each statement's operations and each expression's text, worked out once for as long
    as the statement lives: a re-run of the same text runs the same statements (base.py
    compiles a text once), so Live and Run all again read them from here."""

    def __init__(self) -> None:
        # (keyed by the AST objects themselves, held weakly: an id could be a newer one's)
        self._operations: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        self._texts: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def operations(self, stmt: ast.stmt) -> tuple:
        known = self._operations.get(stmt)
        if known is None:
            known = self._operations[stmt] = _operations(stmt)
        return known

    def text(self, expression: ast.AST, lines: list[str]) -> str | None:
        if expression not in self._texts:
            self._texts[expression] = _text(expression, lines)
        return self._texts[expression]


_READ = _ReadStatements()


def _begun(noted: list[int], at: int, begun: dict[int, int]) -> int:
    """The record a statement's execution began at, for a record within it: a line noted
    again as a function returned continues the execution noted before the call."""
    known = begun.get(at)
    if known is not None:
        return known
    line, found = noted[at], at
    if line < 0:
        for earlier in range(at - 1, max(at - 10_000, -1), -1):
            if noted[earlier] == -line:
                found = earlier
                break
    begun[at] = found
    return found


def _name_expressions(graph: Graph, numbered: list[tuple[int, int]],
                      found: tuple[ast.stmt, list[str]] | None, line: int,
                      read: _ReadStatements) -> None:
    """One execution of a statement: its nodes (by number) get its line and their
    expressions, matched from the last made backwards (an operation ends after its
    operands); a node an nn.Module made, or one no operation's kind matches, goes to a call
    (the module's own by name: ``self.fc1(x)``, ``model(x)``)."""
    operations, repeats = read.operations(found[0]) if found else ([], {})
    pointer = top = len(operations) - 1  # the last an operation's kind / a call may match
    for _number, index in reversed(numbered):
        node = graph.nodes[index]
        node.line = line
        kind = _NODE_KIND.sub("", node.label).lower()
        chosen = None
        if node.module is None:
            chosen = next((j for j in range(pointer, -1, -1)
                           if _matches(kind, operations[j][0])), None)
        if chosen is not None:  # (inside a comprehension, its operations stay on offer)
            pointer = repeats.get(chosen, chosen - 1)
            top = min(pointer + 1, len(operations) - 1)
        else:
            chosen = _call_for(operations, top, node.module)
            if chosen is not None:  # the nodes made before may be the call's too
                pointer, top = chosen - 1, chosen
        expression = operations[chosen][1] if chosen is not None else (
            _whole(found[0]) if found else None)
        if expression is not None and found is not None:
            node.expression = read.text(expression, found[1])


def _call_for(operations: list, last: int, module: str | None) -> int | None:
    """The call at or before ``last`` that made a node: the module's own call where one is
    named as a part of its path, else the nearest."""
    calls = [j for j in range(last, -1, -1) if operations[j][0][0] == "call"]
    if module is not None:
        parts = set(module.split("."))
        named = next((j for j in calls if operations[j][0][2] in parts), None)
        if named is not None:
            return named
    return calls[0] if calls else None


def _matches(kind: str, operation: tuple[str, str, str]) -> bool:
    what, name, _raw = operation
    if what == "op":
        return kind in _OPERATOR_NODES.get(name, (name,))
    if what == "index":
        return kind in _INDEX_NODES
    names = _CALL_NODES.get(name, (name,))
    return any(n and (kind == n or kind.startswith(n) or kind.endswith(n)) for n in names)


_OPERATOR_NODES = {"sub": ("sub", "rsub"), "matmul": ("mm", "mv", "bmm", "dot", "matmul",
                                                       "unsafeview", "view", "expand")}
_CALL_NODES = {"matmul": _OPERATOR_NODES["matmul"], "reshape": ("view", "reshapealias",
                                                                  "unsafeview", "clone"),
               "flatten": ("view", "reshapealias"), "float": ("tocopy",),
               "double": ("tocopy",), "half": ("tocopy",), "to": ("tocopy",),
               "type": ("tocopy",), "transpose": ("transpose", "t"), "t": ("t",)}
_INDEX_NODES = {"select", "slice", "index", "unsqueeze", "alias", "asstrided", "view",
                "copyslices", "maskedselect"}
_OPERATORS = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.Div: "div",
              ast.Pow: "pow", ast.MatMult: "matmul", ast.Mod: "remainder",
              ast.FloorDiv: "floordivide", ast.USub: "neg"}


def _operations(stmt: ast.stmt) -> tuple[list[tuple[tuple[str, str, str], ast.AST]],
                                         dict[int, int]]:
    """The statement's operations in the order Python evaluates them, each with its kind:
    ("op", "mul", ""), ("call", "mseloss", "mse_loss") or ("index", "", ""); and those a
    comprehension repeats, each with the index of its comprehension's last."""
    found: list[tuple[tuple[str, str, str], ast.AST]] = []
    repeats: dict[int, int] = {}
    for part in _evaluated_parts(stmt):
        _walk(part, found, repeats)
    return found, repeats


def _evaluated_parts(stmt: ast.stmt) -> list[ast.AST]:
    if isinstance(stmt, ast.Assign):
        return [stmt.value, *stmt.targets]
    if isinstance(stmt, ast.AugAssign):  # target read, value, then the in-place op
        return [stmt]
    if isinstance(stmt, ast.AnnAssign | ast.Expr | ast.Return):
        return [stmt.value] if stmt.value is not None else []
    if isinstance(stmt, ast.If | ast.While):
        return [stmt.test]
    if isinstance(stmt, ast.For):
        return [stmt.iter]
    if isinstance(stmt, ast.With):
        return [item.context_expr for item in stmt.items]
    return []


def _walk(node: ast.AST, found: list, repeats: dict[int, int]) -> None:
    """Post-order in evaluation order (an operation is done after its operands)."""
    if isinstance(node, ast.Lambda):
        return
    if isinstance(node, ast.ListComp | ast.GeneratorExp | ast.DictComp | ast.SetComp):
        for generator in node.generators:
            _walk(generator.iter, found, repeats)
        first = len(found)
        for generator in node.generators:
            for condition in generator.ifs:
                _walk(condition, found, repeats)
        for part in (node.key, node.value) if isinstance(node, ast.DictComp) else (node.elt,):
            _walk(part, found, repeats)
        repeats.update((index, len(found) - 1) for index in range(first, len(found)))
        return
    if isinstance(node, ast.AugAssign):
        _walk(node.value, found, repeats)
        found.append((("op", _OPERATORS.get(type(node.op), ""), ""), node))
        return
    if isinstance(node, ast.Call):
        _walk(node.func.value if isinstance(node.func, ast.Attribute) else node.func, found,
              repeats)
        for argument in [*node.args, *(keyword.value for keyword in node.keywords)]:
            _walk(argument, found, repeats)
        raw = _raw_name(node.func)
        found.append((("call", raw.strip("_").replace("_", "").lower(), raw), node))
        return
    for child in ast.iter_child_nodes(node):
        _walk(child, found, repeats)
    if isinstance(node, ast.BinOp | ast.UnaryOp):
        name = _OPERATORS.get(type(node.op))
        if name:
            found.append((("op", name, ""), node))
    elif isinstance(node, ast.Subscript):
        found.append((("index", "", ""), node))
    elif isinstance(node, ast.Attribute) and node.attr in ("T", "mT", "H", "mH"):
        found.append((("call", "t" if node.attr in ("T", "mT") else "transpose", ""), node))


def _raw_name(func: ast.expr) -> str:
    """A call's name as written: ``fc1`` of ``self.fc1(x)``, ``model`` of ``model(x)``."""
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _whole(stmt: ast.stmt) -> ast.AST | None:
    """What a node no operation claims is labelled with: the statement's value."""
    value = getattr(stmt, "value", None)
    return value if isinstance(value, ast.expr) else None


def _text(expression: ast.AST, lines: list[str]) -> str | None:
    """The expression's source, on one line, shortened to EXPRESSION_CHARS."""
    text = _segment(expression, lines)  # (an AugAssign's: the whole ``x += 1``)
    if text is None:
        return None
    text = " ".join(part.strip() for part in text.split("\n"))
    return text if len(text) <= EXPRESSION_CHARS else text[:EXPRESSION_CHARS - 1] + "…"


def _segment(node: ast.AST, lines: list[str]) -> str | None:
    """The source of ``node`` (its offsets count UTF-8 bytes)."""
    first, last = node.lineno - 1, (node.end_lineno or node.lineno) - 1
    if first < 0 or last >= len(lines) or node.end_col_offset is None:
        return None
    if first == last:
        return lines[first].encode()[node.col_offset:node.end_col_offset].decode(
            errors="replace")
    parts = [lines[first].encode()[node.col_offset:].decode(errors="replace"),
             *lines[first + 1:last],
             lines[last].encode()[:node.end_col_offset].decode(errors="replace")]
    return "\n".join(parts)


def _tensors_follow(graph: Graph, marks: StatementMarks) -> None:
    """A tensor takes its grad_fn's line and expression; a leaf or constant, the last
    top-level statement that assigns one of its names (``w = torch.tensor(...)``; a module's
    parameter, the module's: ``model = nn.Linear(2, 1)``); an AccumulateGrad, its leaf's."""
    for edge in graph.edges:
        if edge.kind == "output":
            tensor, function = graph.node(edge.source), graph.node(edge.target)
            tensor.line, tensor.expression = function.line, function.expression
    assigned = _top_level_assignments(marks)
    for node in graph.nodes:
        if node.is_tensor and node.line is None:
            for name in node.names:  # a module's parameter: where the module was made
                name = name if name in assigned else re.split(r"[.\[]", name, maxsplit=1)[0]
                if name in assigned:
                    stmt, lines = assigned[name]
                    node.line = stmt.lineno
                    node.expression = _READ.text(stmt.value, lines) if stmt.value else None
                    break
    for edge in graph.edges:  # an AccumulateGrad, its leaf's
        if edge.kind == "accumulate":
            accumulate, leaf = graph.node(edge.source), graph.node(edge.target)
            accumulate.line, accumulate.expression = leaf.line, leaf.expression


def _top_level_assignments(marks: StatementMarks) -> dict[str, tuple[ast.stmt, list[str]]]:
    assigned: dict[str, tuple[ast.stmt, list[str]]] = {}
    for line in sorted(marks.statements):
        stmt, lines = marks.statements[line]
        if stmt.col_offset == 0 and isinstance(stmt, ast.Assign | ast.AnnAssign):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            for target in targets:
                for name in ast.walk(target):
                    if isinstance(name, ast.Name):
                        assigned[name.id] = (stmt, lines)
    return assigned
