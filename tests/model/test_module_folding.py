"""Which modules a graph shows collapsed: by size, by depth, and as the user flipped them."""

from __future__ import annotations

from playground.model import Graph, GraphEdge, GraphNode
from playground.model.display import fold
from playground.model.graph import GraphModule
from playground.model.module_folding import (
    AUTOMATIC,
    COLLAPSED_FROM,
    automatic_depth,
    members_by_module,
    module_group_id,
)


def _model(blocks: int, per_block: int) -> Graph:
    """``blocks`` blocks of ``per_block`` operations in a chain, each block in
    ``model.blocks.i`` with its last operation in ``model.blocks.i.fc``."""
    nodes, modules = [], {"model": GraphModule("Net"), "model.blocks": GraphModule("ModuleList")}
    for block in range(blocks):
        path = f"model.blocks.{block}"
        modules[path] = GraphModule("Block", 10)
        modules[path + ".fc"] = GraphModule("Linear", 10)
        for number in range(per_block):
            inner = path + ".fc" if number == per_block - 1 else path
            nodes.append(GraphNode(f"n{len(nodes)}", "function", "MulBackward0", module=inner))
    nodes.append(GraphNode(f"n{len(nodes)}", "function", "SumBackward0"))
    edges = [GraphEdge(nodes[i + 1].id, nodes[i].id, "next") for i in range(len(nodes) - 1)]
    return Graph(nodes, edges, modules)


def test_a_small_graph_opens_with_every_module_open_and_framed():
    graph = _model(2, 5)
    display = fold(graph)
    assert display.depth is None and not any(g.module for g in display.groups.values())
    assert set(display.frames) == {"model", "model.blocks", "model.blocks.0",
                                   "model.blocks.0.fc", "model.blocks.1", "model.blocks.1.fc"}
    assert display.frames["model.blocks.1.fc"] == ["n9"]


def test_a_large_graph_opens_at_the_deepest_depth_that_reads_at_a_glance():
    graph = _model(8, 25)
    assert len(graph.nodes) > COLLAPSED_FROM
    assert automatic_depth(graph, members_by_module(graph)) == 2  # model.blocks.i
    display = fold(graph, depth=AUTOMATIC)
    blocks = [group for group in display.groups.values() if group.module]
    assert [group.module for group in blocks] == [f"model.blocks.{i}" for i in range(8)]
    assert len(blocks[0].members) == 25 and blocks[0].info.class_name == "Block"
    assert len(display.node_ids) == 9  # eight blocks and the sum
    assert [(e.source, e.target) for e in display.edges][:2] == [
        ("module:model.blocks.1", "module:model.blocks.0"),
        ("module:model.blocks.2", "module:model.blocks.1")]
    # the chains inside a collapsed block are not folded again into ×N nodes
    assert not [group for group in display.groups.values() if group.module is None]


def test_a_flipped_module_opens_and_the_chains_inside_it_fold():
    graph = _model(8, 25)
    display = fold(graph, {module_group_id("model.blocks.3")}, AUTOMATIC)
    assert "module:model.blocks.3" not in display.groups and "model.blocks.3" in display.frames
    chains = [group for group in display.groups.values() if group.module is None]
    assert [len(group.members) for group in chains] == [24]  # the block's own MulBackward0s
    assert "module:model.blocks.3.fc" in display.groups  # deeper: still collapsed
    assert display.frames["model.blocks.3"] == [chains[0].id, "module:model.blocks.3.fc"]


def test_depth_none_opens_all_and_zero_collapses_the_whole_model():
    graph = _model(8, 25)
    assert not any(g.module for g in fold(graph, depth=None).groups.values())
    whole = fold(graph, depth=0)
    assert [g.module for g in whole.groups.values() if g.module] == ["model"]
    assert whole.node_ids == ["n200", "module:model"]
