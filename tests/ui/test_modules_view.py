"""Models drawn by module: a large one opens collapsed to its blocks, opened with a double-click,
framed, replayed a module at a time, listed in the inspector and kept in the exports."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from playground.engines.base import run_code
from playground.engines.numpy_engine import NumpyEngine
from playground.model.module_folding import AUTOMATIC
from playground.ui.exporters import export_graph
from playground.ui.graph_frames import FrameItem
from playground.ui.graph_items import Callout
from playground.ui.graph_view import GraphView
from playground.ui.inspector import module_html
from tests.ui.test_graph_view import shown
from tests.ui.test_journeys import press_run_all

MODELS = Path(__file__).resolve().parents[2] / "benchmarks" / "models"
LAYERS = [f"module:model.encoder.layers.{i}" for i in range(4)]


@pytest.fixture(scope="module")
def transformer_graph():
    run = run_code((MODELS / "transformer.py").read_text(), NumpyEngine())
    assert run.error is None
    return run.graph


def double_click(qtbot, view: GraphView, scene_point) -> None:
    view.centerOn(scene_point)
    qtbot.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton,
                      pos=view.mapFromScene(scene_point))
    qtbot.waitUntil(lambda: not view.busy, timeout=60000)


def test_a_large_model_opens_collapsed_to_its_blocks_that_look_alike_and_line_up(
        qtbot, view, transformer_graph):
    shown(qtbot, view, transformer_graph)
    scene = view.current
    assert len(transformer_graph.nodes) > 150 and len(scene.display.node_ids) <= 40
    looks = [scene.nodes[layer].look.lines for layer in LAYERS]
    assert looks[0] == ["layers.0", "TransformerEncoderLayer", "8.5k parameters",
                        "(8, 10, 32) → (8, 10, 32)"]
    assert [lines[1:] for lines in looks] == [looks[0][1:]] * 4  # alike, but for the name
    xs = {round(scene.nodes[layer].pos().x()) for layer in LAYERS}
    assert len(xs) == 1  # one above the other
    frames = {item.path for item in view.scene().items() if isinstance(item, FrameItem)}
    assert {"model", "model.encoder", "model.encoder.layers", "model.head"} <= frames


def test_double_click_opens_a_block_and_its_frame_title_folds_it_again(
        qtbot, view, transformer_graph):
    shown(qtbot, view, transformer_graph)
    layer = view.current.nodes[LAYERS[0]]
    double_click(qtbot, view, layer.sceneBoundingRect().center())
    scene = view.current
    assert LAYERS[0] not in scene.nodes and "model.encoder.layers.0" in scene.frames
    inside = {node_id for node_id in scene.nodes if node_id.startswith(
        "module:model.encoder.layers.0.")}
    assert "module:model.encoder.layers.0.self_attn" in inside  # its parts, still collapsed
    frame = scene.frames["model.encoder.layers.0"]
    assert frame.title == "layers.0 · TransformerEncoderLayer"  # in its parent's frame
    double_click(qtbot, view, frame.title_rect().center())
    assert LAYERS[0] in view.current.nodes


def test_the_depth_control_opens_everything_or_collapses_deeper(qtbot, view, transformer_graph):
    shown(qtbot, view, transformer_graph)
    view.collapse_modules(None)
    qtbot.waitUntil(lambda: not view.busy, timeout=60000)
    assert not [n for n in view.current.nodes if n.startswith("module:")]
    assert len(view.current.display.node_ids) == len(transformer_graph.nodes)
    view.collapse_modules(1)
    qtbot.waitUntil(lambda: not view.busy, timeout=60000)
    assert {"module:model.encoder", "module:model.head"} <= set(view.current.nodes)
    view.collapse_modules(AUTOMATIC)
    qtbot.waitUntil(lambda: not view.busy, timeout=60000)
    assert set(LAYERS) <= set(view.current.nodes)


def test_a_collapsed_module_lists_its_parameters_with_their_gradient_norms(transformer_graph):
    from playground.model.display import fold

    group = fold(transformer_graph).groups[LAYERS[2]]
    text = module_html(group)
    assert "TransformerEncoderLayer" in text and "8,544 parameters" in text
    assert "self_attn.in_proj_weight" in text and "(96, 32)" in text
    norm = transformer_graph.modules["model.encoder.layers.2"].weights[0].grad_norm
    assert f"{norm:.4g}" in text


def test_exports_keep_the_modules(qtbot, view, transformer_graph, tmp_path):
    shown(qtbot, view, transformer_graph)
    svg = export_graph(view, tmp_path / "model.svg").read_text()
    assert "encoder · TransformerEncoder" in svg and "TransformerEncoderLayer" in svg
    dot = export_graph(view, tmp_path / "model.dot").read_text()
    assert 'subgraph "cluster_model.encoder.layers.0" {' in dot


def test_the_replay_walks_a_collapsed_block_in_one_step_and_an_open_one_node_by_node(
        qtbot, window):
    window.document.open_example(MODELS / "transformer.py")
    press_run_all(qtbot, window)
    view, state = window.graph_view, window.view_state
    assert LAYERS[3] in view.current.nodes
    view.setFocus()
    shown_ids = []
    while state.playback is None or state.position < state.playback.count:
        qtbot.keyClick(view, Qt.Key.Key_Right)
        qtbot.wait(10)
        shown_ids.append(view.current.display.group_of.get(state.step_state().running,
                                                           state.step_state().running))
    assert len(shown_ids) < state.playback.count / 3  # the blocks passed a stage at a time
    for layer in LAYERS:  # each block once: where all its gradients have left it
        assert shown_ids.count(layer) == 1
    # open layers.0 and walk it again: now every one of its nodes is a step of its own
    qtbot.keyClick(view, Qt.Key.Key_Home)
    item = view.current.nodes[LAYERS[0]]
    double_click(qtbot, view, item.sceneBoundingRect().center())
    inside = [n for n, g in view.current.display.group_of.items() if g == LAYERS[0]]
    assert not inside
    steps = 0
    callouts = set()
    while state.playback is not None and state.position < state.playback.count:
        qtbot.keyClick(view, Qt.Key.Key_Right)
        steps += 1
        callouts.update(label.lines[0] for label in view._labels if isinstance(label, Callout))
    assert steps > len(shown_ids)
    assert any(text.startswith("backward through model.encoder.layers.0.") for text in callouts)


def _inside(path: str, module: str | None) -> bool:
    return module is not None and (module == path or module.startswith(path + "."))


@pytest.mark.parametrize("depth", [AUTOMATIC, None, 4])
def test_a_frame_holds_its_own_modules_nodes_and_no_other(qtbot, view, transformer_graph,
                                                          depth):
    shown(qtbot, view, transformer_graph)
    view.collapse_modules(depth)
    qtbot.waitUntil(lambda: not view.busy, timeout=60000)
    scene = view.current
    assert scene.frames
    for path, frame in scene.frames.items():
        box = frame.sceneBoundingRect()
        for node_id, item in scene.nodes.items():
            shown_item = scene.display.node(node_id)
            module = shown_item.module if hasattr(shown_item, "module") else None
            inside = box.contains(item.sceneBoundingRect())
            assert inside == _inside(path, module), (path, node_id, module)
            if not inside:
                assert not box.intersects(item.sceneBoundingRect()), (path, node_id)


def test_the_inspector_and_fold_repeats_follow_the_modules(qtbot, window):
    window.document.open_example(MODELS / "transformer.py")
    press_run_all(qtbot, window)
    view, state = window.graph_view, window.view_state
    view.select([LAYERS[1]])
    assert state.selected_object.module == "model.encoder.layers.1"
    view.collapse_modules(1)  # layers.1 disappears into the encoder: nothing is selected
    qtbot.waitUntil(lambda: not view.busy, timeout=60000)
    assert state.selection == [] and state.selected_object is None
    view.toggle_group("module:model.encoder")  # opened by hand ...
    qtbot.waitUntil(lambda: not view.busy, timeout=60000)
    window.graph_pane.fold_action.trigger()  # ... stays open when the ×N chains fold
    qtbot.waitUntil(lambda: not view.busy, timeout=60000)
    assert "model.encoder" in view.current.frames
