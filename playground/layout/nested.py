"""A layered layout of nested clusters: each cluster laid out alone, then placed as one box.

A graph whose nodes belong to nested groups (an open nn.Module and the modules inside it) is
laid out from the innermost cluster out: a cluster's own nodes and its child clusters, each
child a single box of its laid-out size, go through ``layered_layout``; the box it makes is a
node of its parent's layout. So no cluster's frame covers a node of another, as a bounding
box drawn over a flat layout did, and a chain of identical blocks stands in one column.
An edge between clusters is routed where its two ends' lowest common cluster laid it out,
its ends moved to the nodes themselves.
"""

from __future__ import annotations

from collections.abc import Sequence

from playground.layout.layered import Layout, layered_layout

_BOX = "\x00cluster:"  # a child cluster as one node of its parent's layout


def clustered_layout(node_ids: Sequence[str], edges: Sequence[tuple[str, str]],
                     sizes: dict[str, tuple[float, float]], owner: dict[str, str],
                     parent: dict[str, str | None], margins: tuple[float, float],
                     least_width: dict[str, float] | None = None,
                     previous: dict[str, tuple[float, float]] | None = None,
                     upward: bool = False) -> tuple[Layout, dict[str, tuple]]:
    """The layout of the nodes, and each cluster's box (left, top, width, height).

    ``owner`` maps a node to its innermost cluster (none: the top level), ``parent`` each
    cluster to the one around it (None: the top level). ``margins`` are a cluster's room at
    the sides and bottom, and at the top (for its title); ``least_width`` the width a
    cluster's title needs.
    """
    side, top = margins
    members: dict[str | None, list[str]] = {}
    for node_id in node_ids:
        members.setdefault(owner.get(node_id), []).append(node_id)
    for cluster in parent:
        members.setdefault(cluster, [])
        members.setdefault(parent[cluster], []).append(_BOX + cluster)
    levels = _edges_by_level(edges, owner, parent)
    boxes = dict(sizes)
    inner: dict[str | None, Layout] = {}
    for cluster in sorted(parent, key=lambda c: _depth(c, parent), reverse=True):
        layout = _lay_out_level(members[cluster], levels.get(cluster, []), boxes, previous,
                                upward)
        inner[cluster] = layout
        width = max(layout.width + 2 * side, (least_width or {}).get(cluster, 0.0))
        boxes[_BOX + cluster] = (width, layout.height + top + side)
    outer = _lay_out_level(members.get(None, []), levels.get(None, []), boxes, previous, upward)
    inner[None] = outer
    return _composed(inner, levels, boxes, edges, parent, margins, len(edges))


def _depth(cluster: str | None, parent: dict[str, str | None]) -> int:
    depth = 0
    while cluster is not None:
        cluster, depth = parent[cluster], depth + 1
    return depth


def _chain(node_id: str, owner: dict[str, str], parent: dict[str, str | None]) -> list:
    """The clusters around a node, innermost first, ending with None (the top level)."""
    chain: list[str | None] = []
    cluster = owner.get(node_id)
    while cluster is not None:
        chain.append(cluster)
        cluster = parent[cluster]
    chain.append(None)
    return chain


def _edges_by_level(edges: Sequence[tuple[str, str]], owner: dict[str, str],
                    parent: dict[str, str | None]) -> dict[str | None, list[tuple]]:
    """Each edge at its ends' lowest common cluster, as (source there, target there, edge
    number): an end inside a child cluster stands there as that child's box."""
    levels: dict[str | None, list[tuple]] = {}
    chains: dict[str, list] = {}
    for number, (source, target) in enumerate(edges):
        for end in (source, target):
            if end not in chains:
                chains[end] = _chain(end, owner, parent)
        around_target = set(chains[target])
        common = next(cluster for cluster in chains[source] if cluster in around_target)
        levels.setdefault(common, []).append(
            (_seen_from(source, common, chains[source]), _seen_from(target, common,
                                                                    chains[target]), number))
    return levels


def _seen_from(node_id: str, level: str | None, chain: list) -> str:
    """The node, or the child cluster of ``level`` it is inside."""
    index = chain.index(level)
    return node_id if index == 0 else _BOX + chain[index - 1]


def _lay_out_level(level_members: list[str], level_edges: list[tuple],
                   boxes: dict[str, tuple[float, float]], previous, upward: bool) -> Layout:
    drawn = [(source, target) for source, target, _ in level_edges if source != target]
    return layered_layout(level_members, drawn, boxes, previous, upward=upward)


def _composed(inner: dict[str | None, Layout], levels: dict, boxes: dict, edges, parent: dict,
              margins: tuple[float, float], edge_count: int
              ) -> tuple[Layout, dict[str, tuple]]:
    """One layout in the top level's frame: every cluster's contents moved into its box."""
    top = margins[1]
    result = Layout(routes=[[] for _ in range(edge_count)])
    result.width, result.height = inner[None].width, inner[None].height
    origins: dict[str | None, tuple[float, float]] = {None: (0.0, 0.0)}
    frames: dict[str, tuple] = {}
    for cluster in sorted(parent, key=lambda c: _depth(c, parent)):
        x0, y0 = origins[parent[cluster]]
        cx, cy = inner[parent[cluster]].positions[_BOX + cluster]
        width, height = boxes[_BOX + cluster]
        left, box_top = x0 + cx - width / 2, y0 + cy - height / 2
        frames[cluster] = (left, box_top, width, height)
        # contents centred in a box a title made wider
        origins[cluster] = (left + (width - inner[cluster].width) / 2, box_top + top)
    for level, layout in inner.items():
        x0, y0 = origins[level]
        for node_id, (x, y) in layout.positions.items():
            if not node_id.startswith(_BOX):
                result.positions[node_id] = (x0 + x, y0 + y)
                result.layers[node_id] = layout.layers.get(node_id, 0)
        result.crossings += layout.crossings
    for level, level_edges in levels.items():
        x0, y0 = origins[level]
        drawn = [edge for edge in level_edges if edge[0] != edge[1]]
        for (_, _, number), route in zip(drawn, inner[level].routes, strict=True):
            points = [(x0 + x, y0 + y) for x, y in route]
            source, target = edges[number]
            points[0], points[-1] = result.positions[source], result.positions[target]
            result.routes[number] = points
    for number, (source, target) in enumerate(edges):  # an edge a level could not draw
        if not result.routes[number]:
            result.routes[number] = [result.positions[source], result.positions[target]]
    return result, frames

