"""Graphs of 10^4-10^5 nodes: keys, layout and the collector stay within bounds."""

from __future__ import annotations

import gc

from playground.layout import layered_layout
from playground.layout.layering import DUMMY_BUDGET
from playground.model import Graph, GraphEdge, GraphNode, gc_policy
from playground.model.display import PATH_KEY_LENGTH, stable_keys


def chain(length: int, labels: tuple[str, ...] = ("MulBackward0",)) -> Graph:
    """One leaf, ``length`` functions named by ``labels`` in turn, the output on top: with one
    label ``y = x * 1.0`` repeated (it folds), with several a chain where nothing folds."""
    nodes = [GraphNode("out", "tensor", "y", names=["y"])]
    edges = []
    for number in range(length):
        nodes.append(GraphNode(f"f{number}", "function", labels[number % len(labels)]))
        edges.append(GraphEdge(nodes[-2].id, nodes[-1].id, "grad"))
    nodes.append(GraphNode("x", "leaf", "x", names=["x"]))
    edges.append(GraphEdge(nodes[-2].id, "x", "grad"))
    return Graph(nodes, edges)


def test_the_keys_of_a_long_chain_stay_short_and_stable():
    graph = chain(30_000)
    keys = stable_keys(graph)
    # keys were the whole path from the output: 30,000 keys averaging 220 KB, 6.6 GB in all
    assert max(map(len, keys.values())) <= PATH_KEY_LENGTH + 5
    assert len(set(keys.values())) == len(keys)
    assert stable_keys(chain(30_000)) == keys  # a re-run finds every node again


def shared_weight(steps: int) -> tuple[list[str], list[tuple[str, str]]]:
    """An unrolled loop ``total = total + w * c``: every step's multiplication reaches one
    AccumulateGrad at the bottom, skipping all the layers below it."""
    nodes, edges, above = ["out"], [], "out"
    for step in range(steps):
        nodes += [f"add{step}", f"mul{step}"]
        edges += [(above, f"add{step}"), (f"add{step}", f"mul{step}"), (f"mul{step}", "acc")]
        above = f"add{step}"
    nodes += ["acc", "w"]
    edges += [(above, "acc"), ("acc", "w")]
    return nodes, edges


def test_a_weight_used_in_every_step_draws_its_longest_edges_straight():
    nodes, edges = shared_weight(600)  # 180,000 dummy nodes if every edge were routed
    layout = layered_layout(nodes, edges)
    assert set(layout.positions) == set(nodes)
    bends = sum(len(route) - 2 for route in layout.routes)
    assert bends <= DUMMY_BUDGET
    straight = [route for route, (_, target) in zip(layout.routes, edges, strict=True)
                if target == "acc" and len(route) == 2]
    assert len(straight) > 250
    # every edge still joins its own two nodes
    for (source, target), route in zip(edges, layout.routes, strict=True):
        assert route[0] == layout.positions[source] and route[-1] == layout.positions[target]


def test_a_small_loop_keeps_its_long_edges_routed_around_the_nodes():
    nodes, edges = shared_weight(20)
    layout = layered_layout(nodes, edges)
    assert max(len(route) for route in layout.routes) > 10


def test_the_collector_pauses_nest_and_a_large_build_is_frozen_then_thawed(monkeypatch):
    # a window made earlier in this process hands collection to its UI thread (gc off):
    # this test is about automatic collection, so it starts with it on and leaves it as found
    monkeypatch.setattr(gc_policy, "_start_up_frozen", 0)  # (as in a process with no window)
    was_enabled = gc.isenabled()
    gc.enable()
    try:
        _check_pauses_nest_and_freeze()
    finally:
        if not was_enabled:
            gc.disable()


def _check_pauses_nest_and_freeze() -> None:
    assert gc.isenabled()
    gc_policy.thaw()
    gc_policy.pause()
    gc_policy.pause()
    gc_policy.resume()
    assert not gc.isenabled()  # one pause still holds
    kept = [[number] for number in range(gc_policy.FREEZE_FROM * 2)]  # tracked objects
    gc_policy.resume()
    assert gc.isenabled()
    assert gc.get_freeze_count() >= len(kept)  # full collections no longer walk them
    assert gc_policy.thaw() and gc.get_freeze_count() == 0
    with gc_policy.paused():
        small = [[1], [2]]
    assert gc.isenabled() and gc.get_freeze_count() == 0 and small
    gc_policy.resume()  # an extra resume changes nothing
    assert gc.isenabled()


def test_the_windows_start_up_objects_are_frozen_once_and_stay_so_after_a_thaw(monkeypatch):
    """The first quiet moment after a run with a small graph freezes what the window holds;
    a thaw after a large result gives back only what died since (one full collection)."""
    monkeypatch.setattr(gc_policy, "_start_up_frozen", 0)
    gc.unfreeze()
    try:
        assert gc_policy.settle(10, drawing=False)
        start_up = gc.get_freeze_count()
        assert start_up > 0 and not gc_policy.thaw()  # nothing beyond start-up to give back
        with gc_policy.paused():
            kept = [_cycle() for _ in range(gc_policy.FREEZE_FROM * 2)]
        assert gc.get_freeze_count() >= start_up + len(kept)
        assert not gc_policy.settle(10, drawing=True) and not gc_policy.settle(5000, False)
        del kept  # (cycles: only a collection frees them)
        assert gc_policy.settle(10, drawing=False)
        assert start_up * 0.9 <= gc.get_freeze_count() < start_up + gc_policy.FREEZE_FROM
    finally:
        gc.unfreeze()


def _cycle() -> list:
    item: list = []
    item.append(item)
    return item
