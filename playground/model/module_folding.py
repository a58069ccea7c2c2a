"""Which nn.Modules a graph shows collapsed, as one node each, and which open, as frames.

A module's depth is its path's number of dots (``model`` 0, ``model.layers.0`` 2). Modules
at the chosen depth or deeper start collapsed; the user's double-clicks flip single ones.
A large graph opens at the deepest depth that still shows it at a glance, as TensorBoard's
graph and Netron open a model at its top blocks.
"""

from __future__ import annotations

from playground.model.graph import Graph, parent_path, with_parents

AUTOMATIC = -1  # a depth: chosen from the graph's size
# Graphs with more nodes than this open with their modules collapsed ...
COLLAPSED_FROM = 150
# ... as deep as keeps them to this many nodes on screen.
GLANCE_NODES = 40
GROUP_PREFIX = "module:"


def module_group_id(path: str) -> str:
    return GROUP_PREFIX + path


def path_depth(path: str) -> int:
    return path.count(".")


def members_by_module(graph: Graph) -> dict[str, list[str]]:
    """Module path → the ids of the nodes made directly in it, in the graph's order."""
    found: dict[str, list[str]] = {}
    for node in graph.nodes:
        if node.module is not None:
            found.setdefault(node.module, []).append(node.id)
    return found


def automatic_depth(graph: Graph, by_module: dict[str, list[str]]) -> int | None:
    """The depth a graph opens at: None (all open) for a small one, else the deepest that
    shows at most GLANCE_NODES nodes (1 when even that shows more)."""
    if len(graph.nodes) <= COLLAPSED_FROM or not by_module:
        return None
    deepest = max(path_depth(path) for path in by_module)
    if deepest == 0:
        return None  # one module made it all: collapsing it would show a single box
    chosen = 1
    for depth in range(1, deepest + 1):
        if shown_at(graph, by_module, depth) > GLANCE_NODES:
            break
        chosen = depth
    return chosen


def shown_at(graph: Graph, by_module: dict[str, list[str]], depth: int) -> int:
    """How many nodes show with the modules ``depth`` deep or deeper collapsed."""
    inside = sum(len(ids) for ids in by_module.values())
    shallow = sum(len(ids) for path, ids in by_module.items() if path_depth(path) < depth)
    collapsed = {".".join(path.split(".")[:depth + 1]) for path in by_module
                 if path_depth(path) >= depth}
    return len(graph.nodes) - inside + shallow + len(collapsed)


def collapsed_modules(graph: Graph, flipped: set[str], depth: int | None
                      ) -> tuple[dict[str, list[str]], int | None, dict[str, list[str]]]:
    """(collapsed module path → every node id it stands for, the depth used, open module
    path → every node id inside it); ``flipped`` holds the group ids the user turned the
    other way from the depth's rule."""
    by_module = members_by_module(graph)
    if not by_module:
        return {}, None, {}
    if depth == AUTOMATIC:
        depth = automatic_depth(graph, by_module)

    def collapses(path: str) -> bool:
        by_depth = depth is not None and path_depth(path) >= depth
        return by_depth != (module_group_id(path) in flipped)

    standing_for: dict[str, str | None] = {}  # path -> the collapsed module that shows it
    for path in with_parents(by_module):
        parent = parent_path(path)
        above = standing_for.get(parent) if parent is not None else None
        standing_for[path] = above or (path if collapses(path) else None)
    collapsed: dict[str, list[str]] = {}
    frames: dict[str, list[str]] = {}
    for path, ids in by_module.items():
        shown_by = standing_for[path]
        if shown_by is not None:
            collapsed.setdefault(shown_by, []).extend(ids)
            path = parent_path(shown_by)
        while path is not None:  # inside each open module around it
            frames.setdefault(path, []).extend(ids)
            path = parent_path(path)
    order = {node.id: index for index, node in enumerate(graph.nodes)}
    for ids in (*collapsed.values(), *frames.values()):
        ids.sort(key=order.__getitem__)
    return collapsed, depth, frames
