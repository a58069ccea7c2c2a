"""Nested clusters laid out inside out: every node in its cluster's box, boxes apart."""

from __future__ import annotations

import itertools

from playground.layout.nested import clustered_layout

SIZE = (60.0, 20.0)


def _box_contains(box, point) -> bool:
    left, top, width, height = box
    return left <= point[0] <= left + width and top <= point[1] <= top + height


def _boxes_apart(a, b) -> bool:
    return a[0] + a[2] <= b[0] or b[0] + b[2] <= a[0] or a[1] + a[3] <= b[1] or \
        b[1] + b[3] <= a[1]


def test_nodes_sit_in_their_clusters_and_sibling_clusters_do_not_overlap():
    # loss -> block0 (a, b) -> block1 (c, d: d inside block1.inner) -> x; a parameter p of
    # block0 beside it
    nodes = ["loss", "a", "b", "p", "c", "d", "x"]
    edges = [("loss", "a"), ("a", "b"), ("a", "p"), ("b", "c"), ("c", "d"), ("d", "x"),
             ("loss", "x")]
    owner = {"a": "block0", "b": "block0", "p": "block0", "c": "block1", "d": "block1.inner"}
    parent = {"block0": None, "block1": None, "block1.inner": "block1"}
    sizes = dict.fromkeys(nodes, SIZE)
    layout, boxes = clustered_layout(nodes, edges, sizes, owner, parent, (8.0, 20.0),
                                     {"block1": 300.0})
    for node, cluster in owner.items():
        while cluster is not None:
            assert _box_contains(boxes[cluster], layout.positions[node]), (node, cluster)
            cluster = parent[cluster]
    for outside in ("loss", "x"):
        assert not any(_box_contains(box, layout.positions[outside]) for box in boxes.values())
    assert _boxes_apart(boxes["block0"], boxes["block1"])
    assert boxes["block1"][2] >= 300.0  # wide enough for its title
    inner, outer = boxes["block1.inner"], boxes["block1"]
    assert outer[1] + 20.0 <= inner[1]  # room for the outer one's title above it
    for (source, target), route in zip(edges, layout.routes, strict=True):
        assert route[0] == layout.positions[source] and route[-1] == layout.positions[target]
    for first, second in itertools.combinations(nodes, 2):
        a, b = layout.positions[first], layout.positions[second]
        assert abs(a[0] - b[0]) >= SIZE[0] or abs(a[1] - b[1]) >= SIZE[1], (first, second)


def test_without_clusters_it_is_the_plain_layered_layout():
    from playground.layout.layered import layered_layout

    nodes, edges = ["a", "b", "c"], [("a", "b"), ("b", "c")]
    sizes = dict.fromkeys(nodes, SIZE)
    plain = layered_layout(nodes, edges, sizes)
    nested, boxes = clustered_layout(nodes, edges, sizes, {}, {}, (8.0, 20.0))
    assert boxes == {} and nested.positions == plain.positions and nested.routes == plain.routes
