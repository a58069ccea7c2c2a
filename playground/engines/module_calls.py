"""Which nn.Module made each graph node: module calls as spans of autograd's node numbers.

Both engines number the nodes they make in order (torch's ``_sequence_nr``), and the run
wraps ``Module.__call__`` on both to hear every module's forward. A call is kept as the span
of numbers made during it, so a node belongs to the innermost span that holds its number:
the walk after the run costs one sort, and the run pays a few µs per module call, nothing
per op.
A parameter (and its AccumulateGrad) belongs to the module that owns it. Paths start with the
user's variable (``model.layers.0.self_attn``), found after the run; a module no variable
holds is named by its class.
"""

from __future__ import annotations

import bisect
import contextlib
import weakref
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from playground.engines.graph_builder import USER_ERRORS, is_module
from playground.model.graph import Graph, GraphModule, ModuleWeight, with_parents

# The newest calls kept (a training loop makes millions; the graph drawn is its last ones).
KEPT_CALLS = 50_000
RECORD = 5  # ints a call takes in ModuleCalls.records
TRIM_AT = 2 * RECORD * KEPT_CALLS
NO_SHAPES = 0  # shape_table's first entry: no tensors
SHAPE_KINDS = 100_000  # different shapes of calls' tensors told apart at most
# Parameters listed with their gradient's norm in one module's entry (its first ones) ...
LISTED_WEIGHTS = 64
# ... and modules in a graph's table (the outermost first): a result is bounded as it is built.
LISTED_MODULES = 5000


@dataclass(frozen=True)
class ModuleHooks:
    """How a run hears an engine's module calls: the engine's ``Module`` class, whose
    ``__call__`` the run wraps (not global forward hooks: on torch they send every module
    call down its slow path, 35 µs more each, and on either engine they run amid the user's
    hooks); and ``mark``, a number no earlier node has and no later node is below."""

    module_class: type
    mark: Callable[[], int]
    # True while torch.compile traces the code: the run's own calls then step aside, as its
    # tracer cannot follow them (a graph break, an error under fullgraph=True)
    compiling: Callable[[], bool] | None = None
    # the method wrapped: torch's ``_call_impl`` (what ``__call__`` calls), so that
    # torch.compile(model) still starts its trace in torch's own ``__call__``
    method: str = "__call__"


class ModuleCall(NamedTuple):
    """One forward of one module: the node numbers made in it, and the shapes through it.
    The module is held weakly (``module()``: None once gone): a loop that makes a module at
    each step must not keep the last KEPT_CALLS of them alive; its class names it then."""

    start: int
    end: int
    module: Callable[[], Any]
    class_name: str
    inputs: tuple
    outputs: tuple


class ModuleCalls:
    """The module calls of a run, as the engine's wrapped ``Module.__call__`` reports them."""

    def __init__(self, hooks: ModuleHooks, tensor_class: type) -> None:
        self.hooks = hooks
        self.tensor_class = tensor_class
        # Five ints a call (start, end, module number, shapes in, shapes out: the shapes by
        # their number in ``shape_table``), in one flat list: ints are no work for the
        # garbage collector, where a few tuples a call, kept, made it run ever more often,
        # and each full collection (some 0.1 s with torch loaded) cost 5-10 % of a
        # 30,000-step loop.
        self.records: list[int] = []
        self.shape_table: list[tuple] = [()]  # by number: the shapes of a call's tensors
        self._shape_numbers: dict[tuple, int] = {(): NO_SHAPES}
        self.modules: list[tuple[Callable[[], Any], str]] = []  # by number: (weakly, class)
        self._numbers: dict[int, int] = {}  # id(module) → its number

    @contextlib.contextmanager
    def tracking(self) -> Iterator[None]:
        """``Module.__call__`` records every call while the run lasts."""
        module_class, method = self.hooks.module_class, self.hooks.method
        original = module_class.__dict__[method]
        setattr(module_class, method, self._recording(original))
        try:
            yield
        finally:
            setattr(module_class, method, original)
            # the newest KEPT_CALLS records, left as ints: the walk after the run makes
            # ModuleCalls of the few it reads (``spans``, ``last_calls``), not of 50,000
            del self.records[:max(0, len(self.records) - RECORD * KEPT_CALLS)]

    def call(self, at: int) -> ModuleCall:
        """The call whose record starts at ``at`` in the run's records."""
        flat = self.records
        return ModuleCall(flat[at], flat[at + 1], *self.modules[flat[at + 2]],
                          self.shape_table[flat[at + 3]], self.shape_table[flat[at + 4]])

    def spans(self, first: int, last: int) -> list[ModuleCall]:
        """The calls that may hold a node numbered ``first`` to ``last``: those that ended
        past ``first`` (a call is recorded as it ends, so their records are the last ones)
        and began by ``last``."""
        ends = self.records[1::RECORD]
        begin = bisect.bisect_right(ends, first)
        found = (self.call(RECORD * index) for index in range(begin, len(ends)))
        return [call for call in found if call.start <= last]

    def last_calls(self, paths: dict[int, tuple[str, Any]], wanted: set[str]) -> dict:
        """path → the newest call of that module, for the ``wanted`` paths (a walk back
        through the records that stops once each is found)."""
        flat, found, seen = self.records, {}, set()
        if not wanted:
            return found
        for at in range(len(flat) - RECORD, -1, -RECORD):
            number = flat[at + 2]
            if number in seen:
                continue
            seen.add(number)
            call = self.call(at)
            path = call_path(call, paths)
            if path in wanted and path not in found:
                found[path] = call
                if len(found) == len(wanted):
                    break
        return found

    def _recording(self, original: Callable) -> Callable:
        """``original`` that also records its call. It runs at every module call of the
        script (a training loop makes millions), so it keeps to a microsecond or two: all it
        needs bound here, the usual call (a known module, one tensor in and one out, shapes
        seen before) looked up here, and five ints per call."""
        mark, shapes, number, records = self.hooks.mark, self._shapes, self._number, \
            self.records
        record, compiling = records.extend, self.hooks.compiling or _never
        numbers, modules, shape_numbers = self._numbers, self.modules, self._shape_numbers
        tensor = self.tensor_class

        def call(module, *args, **kwargs):
            if compiling():
                return original(module, *args, **kwargs)
            start = mark()
            try:
                output = original(module, *args, **kwargs)
            except BaseException:  # the nodes it made before it raised are still its own
                record((start, mark(), number(module), shapes(args), NO_SHAPES))
                raise
            end = mark()
            known = numbers.get(id(module))
            if known is None or modules[known][0]() is not module:
                known = number(module)
            count = len(args)
            if count == 1 and args[0].__class__ is tensor:
                into = shape_numbers.get((args[0].shape,))
            elif count == 2 and args[0].__class__ is tensor and args[1].__class__ is tensor:
                into = shape_numbers.get((args[0].shape, args[1].shape))  # a loss's two
            else:
                into = None
            if into is None:
                into = shapes(args)
            out = shape_numbers.get((output.shape,)) if output.__class__ is tensor else None
            if out is None:
                out = shapes(output if output.__class__ is tuple or output.__class__ is list
                             else (output,))
            record((start, end, known, into, out))
            if len(records) > TRIM_AT:  # the newest KEPT_CALLS kept, the list cut seldom
                del records[:len(records) - RECORD * KEPT_CALLS]
            return output

        return call

    def _number(self, module) -> int:
        """The module's number in ``modules``, given at its first call (by id, checked
        against the weak reference: a module gone may leave its id to a new one)."""
        known = self._numbers.get(id(module))
        if known is not None and self.modules[known][0]() is module:
            return known
        self._numbers[id(module)] = number = len(self.modules)
        self.modules.append((_reference(module), type(module).__name__))
        return number

    def _shapes(self, values: tuple | list) -> int:
        """The number of the shapes of ``values``' tensors in ``shape_table``."""
        tensor_class = self.tensor_class
        try:
            if len(values) == 1:  # most calls: one tensor in, one out
                value = values[0]  # (torch.Size is a tuple: looked up as it is)
                found = (value.shape,) if isinstance(value, tensor_class) else ()
            else:
                found = tuple([value.shape for value in values
                               if isinstance(value, tensor_class)])
            known = self._shape_numbers.get(found)
        except USER_ERRORS:  # a user's object in the arguments that breaks when looked at
            return NO_SHAPES
        if known is None:
            if len(self.shape_table) >= SHAPE_KINDS:
                return NO_SHAPES  # a script whose shapes never repeat: bounded, unknown
            found = tuple([tuple(shape) for shape in found])
            known = self._shape_numbers[found] = len(self.shape_table)
            self.shape_table.append(found)
        return known


def _never() -> bool:
    return False


def _reference(module) -> Callable[[], Any]:
    try:
        return weakref.ref(module)
    except TypeError:  # a user's module class with __slots__ and no __weakref__
        return lambda: module


def call_path(call: ModuleCall, paths: dict[int, tuple[str, Any]]) -> str:
    """Where a call's module is in the user's modules; a module gone, by its class."""
    module = call.module()
    known = paths.get(id(module)) if module is not None else None
    return known[0] if known is not None else call.class_name


def module_paths(variables: dict[str, Any], calls: ModuleCalls) -> dict[int, tuple[str, Any]]:
    """id(module) → (path, module) for the user's modules and everything in them: from the
    variables that hold modules no other variable's module holds, then from the modules
    called outside those (named by their class)."""
    held = [(name, value) for name, value in list(variables.items())
            if isinstance(name, str) and not name.startswith("_") and is_module(value)]
    inside: set[int] = set()
    trees = []
    for name, module in held:
        tree = _named_modules(module, name)
        trees.append(tree)
        inside.update(id(sub) for _, sub in tree[1:])
    paths: dict[int, tuple[str, Any]] = {}
    for (_, module), tree in zip(held, trees, strict=True):
        if id(module) not in inside:
            _add_tree(paths, tree)
    for reference, class_name in calls.modules:  # every module called, in order
        module = reference()
        if module is not None and id(module) not in paths:
            _add_tree(paths, _named_modules(module, class_name))
    return paths


def _named_modules(module, prefix: str) -> list[tuple[str, Any]]:
    try:
        return [(prefix, module)] + [(f"{prefix}.{name}", sub) for name, sub
                                     in list(module.named_modules())[1:]]
    except USER_ERRORS:  # a user's class with a named_modules of its own
        return [(prefix, module)]


def _add_tree(paths: dict, tree: list[tuple[str, Any]]) -> None:
    for path, module in tree:
        paths.setdefault(id(module), (path, module))


def _class_name(module) -> str:
    try:
        return type(module).__name__
    except USER_ERRORS:
        return "Module"


def assign_modules(graph: Graph, objects: list, calls: ModuleCalls,
                   paths: dict[int, tuple[str, Any]], to_numpy: Callable) -> None:
    """Give each node of ``graph`` (made from ``objects``, in order) its module, and fill the
    graph's module table with those modules and their parents."""
    owners = _parameter_owners(paths)
    numbered = []
    for node, live in zip(graph.nodes, objects, strict=True):
        if node.kind == "function":
            try:
                numbered.append((int(live._sequence_nr()), node))
            except USER_ERRORS:  # a node type without numbers
                continue
        elif node.kind == "leaf":
            node.module = owners.get(id(live))
    _innermost(numbered, calls, paths)
    _accumulators_follow_leaves(graph)
    graph.modules = _module_table(graph, calls, paths, to_numpy)


def _parameter_owners(paths: dict[int, tuple[str, Any]]) -> dict[int, str]:
    owners: dict[int, str] = {}
    for path, module in paths.values():
        try:
            for _, parameter in module.named_parameters(recurse=False):
                owners.setdefault(id(parameter), path)
        except USER_ERRORS:
            continue
    return owners


def _innermost(numbered: list, calls: ModuleCalls, paths: dict) -> None:
    """Each function node's module: the innermost call whose span holds its number (calls
    nest or are apart, so the spans open at a number form a stack)."""
    if not numbered:
        return
    numbered.sort(key=lambda pair: pair[0])
    spans = sorted(calls.spans(numbered[0][0], numbered[-1][0]),
                   key=lambda call: (call.start, -call.end))
    open_spans: list[ModuleCall] = []
    next_span = 0
    for number, node in numbered:
        while next_span < len(spans) and spans[next_span].start <= number:
            span = spans[next_span]
            next_span += 1
            while open_spans and open_spans[-1].end <= span.start:
                open_spans.pop()
            open_spans.append(span)
        while open_spans and open_spans[-1].end <= number:
            open_spans.pop()
        if open_spans:
            node.module = call_path(open_spans[-1], paths)


def _accumulators_follow_leaves(graph: Graph) -> None:
    for edge in graph.edges:
        if edge.kind == "accumulate":
            graph.node(edge.source).module = graph.node(edge.target).module


def _module_table(graph: Graph, calls: ModuleCalls, paths: dict,
                  to_numpy: Callable) -> dict[str, GraphModule]:
    """The modules the nodes name and their parents, each with its last call's shapes."""
    by_path = {path: module for path, module in paths.values()}
    listed = with_parents({node.module for node in graph.nodes})[:LISTED_MODULES]
    last_call = calls.last_calls(paths, set(listed))
    norms: dict[int, float | None] = {}
    table = {}
    for path in listed:
        module, call = by_path.get(path), last_call.get(path)
        if module is None:  # gone (named by its class), or a parent the paths skip
            table[path] = GraphModule(call.class_name if call else "", 0,
                                      _plain(call.inputs) if call else (),
                                      _plain(call.outputs) if call else ())
            continue
        weights, count = _weights(module, norms, to_numpy)
        table[path] = GraphModule(_class_name(module), count,
                                  _plain(call.inputs) if call else (),
                                  _plain(call.outputs) if call else (), weights)
    return table


def _plain(shapes: tuple) -> tuple[tuple[int, ...], ...]:
    try:
        return tuple(tuple(int(size) for size in shape) for shape in shapes)
    except USER_ERRORS:  # a shape a user's tensor subclass made up
        return ()


def _weights(module, norms: dict, to_numpy: Callable) -> tuple[tuple[ModuleWeight, ...], int]:
    """The module's first parameters with their gradients' norms, and its parameter count."""
    listed, count = [], 0
    try:
        named = list(module.named_parameters())
    except USER_ERRORS:
        return (), 0
    for name, parameter in named:
        try:
            shape = tuple(int(size) for size in parameter.shape)
        except USER_ERRORS:
            continue
        count += int(np.prod(shape, dtype=np.int64))
        if len(listed) < LISTED_WEIGHTS:
            if id(parameter) not in norms:
                norms[id(parameter)] = _grad_norm(parameter, to_numpy)
            listed.append(ModuleWeight(name, shape, norms[id(parameter)]))
    return tuple(listed), count


def _grad_norm(parameter, to_numpy: Callable) -> float | None:
    try:
        grad = parameter.grad
        if grad is None:
            return None
        values = to_numpy(grad).ravel()
        return float(np.linalg.norm(values.astype(np.complex128 if values.dtype.kind == "c"
                                                  else np.float64)))
    except USER_ERRORS:  # complex, sparse, meta: no norm to show
        return None
