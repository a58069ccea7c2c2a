"""The backward player: torch's order, exact stepping back, accumulation, exports."""

import time

import pytest
from PIL import Image
from PySide6.QtCore import Qt, QTimer

from playground.engines.base import run_code
from playground.engines.numpy_engine import NumpyEngine
from playground.model import RunResult
from playground.model.playback import Playback
from playground.model.view_state import ViewState
from playground.ui.animation import export_gif, export_png_sequence
from playground.ui.graph_view import GraphView
from playground.ui.player import PlayerBar
from tests.seeds import code_cells, fixed_randn, tutorial_files, tutorial_id, uses_matplotlib

ACCUMULATE = """
import torch
w = torch.tensor([1.0, -1.0], requires_grad=True)
y = w * 3
y.sum().backward(retain_graph=True)
t = w * w
t.sum().backward()
"""


def result_of(code: str, engine=None) -> RunResult:
    run = run_code(code, engine or NumpyEngine())
    assert run.error is None, run.error
    return RunResult("numpy", graph=run.graph, traces=run.traces)


@pytest.fixture
def rig(qtbot):
    """A graph view with a player driving it, as the window wires them."""
    state = ViewState()
    view = GraphView(state)
    view.resize(900, 700)
    player = PlayerBar(state)
    qtbot.addWidget(view)
    qtbot.addWidget(player)
    view.show()

    def load(result: RunResult):
        state.show_result(result)
        qtbot.waitUntil(lambda: view.current is not None and not view.busy, timeout=60000)
        return view, player

    return load


@pytest.mark.parametrize("path", tutorial_files(), ids=tutorial_id)
def test_seed_steps_follow_torchs_own_trace(rig, path, monkeypatch):
    import torch

    import playground.npgrad as npgrad
    from playground.engines.torch_engine import TorchEngine

    code = "\n".join(c for c in code_cells(path) if not uses_matplotlib(c))
    monkeypatch.setattr(torch, "randn", fixed_randn(torch))
    theirs = run_code(code, TorchEngine("cpu"))
    monkeypatch.setattr(npgrad, "randn", fixed_randn(npgrad))
    view, player = rig(result_of(code))
    assert player.calls.count() == len([t for t in theirs.traces if t.steps])
    for call, trace in enumerate(t for t in theirs.traces if t.steps):
        player.calls.setCurrentIndex(call)
        shown = []
        for position in range(1, player.state.calls_count_of_current() + 1):
            player.go(position)
            state = player.playback.state(position)
            shown.append((state.running, state.step.name))
            assert player.counter.text().startswith(f"step {position} of {len(trace.steps)}")
        assert shown == [(step.node, step.name) for step in trace.steps]


def test_a_step_pressed_before_the_backward_calls_come_is_taken_when_they_do(rig):
    """The kernel sends a run's backward calls after its result (the graph is drawn
    meanwhile): a step asked for then waits for them; another run's are not taken."""
    whole = result_of(ACCUMULATE)
    view, player = rig(RunResult("numpy", graph=whole.graph, traces_due=True, run="r1"))
    state = player.state
    assert state.traces_coming and state.calls == [] and player.calls.count() == 0
    state.step_by(1)
    assert state.playback is None
    state.add_traces("another", whole.traces)
    assert state.traces_coming and state.calls == []
    state.add_traces("r1", whole.traces)
    assert not state.traces_coming and player.calls.count() == 2
    assert state.position == 1 and state.step_state().step.name == "SumBackward0"
    assert player.counter.text().startswith("step 1 of")
    # the calls may overtake their result on the way to the window
    early = ViewState()
    early.add_traces("r2", whole.traces)
    early.show_result(RunResult("numpy", graph=whole.graph, traces_due=True, run="r2"))
    assert not early.traces_coming and len(early.calls) == 2


def test_stepping_forward_then_back_restores_the_exact_state(rig, qtbot):
    view, player = rig(result_of(ACCUMULATE))
    snapshots = []
    for position in range(player.state.calls_count_of_current() + 1):
        player.go(position)
        snapshots.append(view.snapshot())
    for position in reversed(range(player.state.calls_count_of_current() + 1)):
        player.go(position)
        assert view.snapshot() == snapshots[position], position
    assert snapshots[0]["states"] and all(s == "waiting" for s in
                                         snapshots[0]["states"].values())
    player.go(2)
    assert sorted(view.snapshot()["states"].values()).count("running") == 1


def test_the_accumulate_step_shows_before_plus_incoming_after_two_calls():
    result = result_of(ACCUMULATE)
    first, second = (Playback(result.graph, trace) for trace in result.traces)
    leaf = result.graph.by_name("w").id

    def accumulate_states(playback):
        return [playback.state(p) for p in range(1, playback.count + 1)
                if playback.state(p).step.name == "AccumulateGrad"]

    (once,) = accumulate_states(first)
    assert once.explanation[0].startswith("w.grad = None + [3, 3] = [3, 3]")
    # w * w: two gradients reach AccumulateGrad in one step, summed: 2w = [2, -2]
    (twice,) = accumulate_states(second)
    assert twice.explanation[0].startswith("w.grad = [3, 3] + [2, -2] = [5, 1]")
    assert "w.grad = [3.0, 3.0] + [2.0, -2.0] = [5.0, 1.0]" in twice.torch_terms
    assert second.state(0).leaf_grads[leaf].values.tolist() == [3.0, 3.0]
    assert second.state(second.count).leaf_grads[leaf].values.tolist() == [5.0, 1.0]


def test_a_step_shows_its_rule_with_numbers_and_the_gradients_in_flight(rig):
    view, player = rig(result_of(ACCUMULATE))
    player.calls.setCurrentIndex(1)
    player.go(2)  # MulBackward0 of t = w * w
    state = player.playback.state(2)
    assert state.step.name == "MulBackward0"
    # in the user's names and numbers, torch's beside them for the inspector
    assert "d(t.sum())/dw (its share through self) = d(t.sum())/dt · w = [1, 1] · [1, -1] = " \
        "[1, -1] → w.grad" in state.explanation  # w * w: two shares, and their sum
    assert "d(t.sum())/dw is the sum of its shares: [1, -1] + [1, -1] = [2, -2]" in \
        state.explanation
    assert "grad_self = grad · other = [1.0, -1.0] → AccumulateGrad" in state.torch_terms
    texts = [label[0] for label in view.snapshot()["labels"]]
    assert any("d(t.sum())/dt · w" in text for text in texts)  # the callout
    assert texts.count("[1.0, -1.0]") == 2  # both inputs' gradients in flight
    leaf_item = view.node_item(view.graph.by_name("w").id)
    assert leaf_item.look.lines[-1] == "grad [3.0, 3.0]"  # not yet accumulated
    player.go_to_end()
    assert leaf_item.look.lines[-1] == "grad [5.0, 1.0]"
    player.finish()  # the replay ends: the run's final state
    assert leaf_item.look.lines == leaf_item.final_lines and not view.snapshot()["states"]


def test_play_advances_on_its_own_and_stops_at_the_end(rig, qtbot):
    view, player = rig(result_of(ACCUMULATE))
    positions = []
    player.state.events.step.connect(
        lambda step: positions.append(step.position if step is not None else None))
    player.speed.setCurrentIndex(player.speed.count() - 1)  # fastest
    count = player.state.calls_count_of_current()
    player.toggle_play()
    qtbot.waitUntil(lambda: not player.timer.isActive(), timeout=10000)
    # every step in turn, then back to the final state, where it rests
    assert positions == [*range(count + 1), None]
    assert player.playback is None and "final" in player.counter.text()


def test_plots_follow_the_step(qtbot):
    from playground.ui.plots import PlotsPanel

    result = result_of(ACCUMULATE)
    panel = PlotsPanel()
    qtbot.addWidget(panel)
    panel.show_graph(result.graph)
    playback = Playback(result.graph, result.traces[0])
    leaf = result.graph.by_name("w").id
    panel.follow(playback.state(0).leaf_grads)
    assert len(panel.items[leaf].data) == 0  # no .grad before the first call's accumulation
    panel.follow(playback.state(playback.count).leaf_grads)
    assert list(panel.items[leaf].data["y"]) == [3.0, 3.0]
    panel.follow(None)
    assert list(panel.items[leaf].data["y"]) == [5.0, 1.0]


def test_gif_and_png_sequence_exports(rig, tmp_path):
    from PIL import Image

    view, player = rig(result_of(ACCUMULATE))
    result = result_of(ACCUMULATE)
    gif = export_gif(view, result.traces, tmp_path / "backward.gif", in_between=3)
    expected = 0
    for trace in result.traces:
        playback = Playback(result.graph, trace)
        moving = sum(bool(playback.state(p).moving) for p in range(1, playback.count + 1))
        expected += 1 + playback.count + 3 * moving
    with Image.open(gif) as animation:
        assert animation.n_frames == expected
    pictures = export_png_sequence(view, result.traces, tmp_path / "steps", scale=1.0)
    assert len(pictures) == sum(len(t.steps) + 1 for t in result.traces)
    assert [p.name for p in pictures[:2]] == ["step-000.png", "step-001.png"]


def test_the_window_wires_the_player_and_resets_it_on_edit(qtbot, tmp_path):
    from playground.ui.main_window import MainWindow
    from playground.ui.recovery import RecoveryStore

    window = MainWindow(recovery=RecoveryStore(tmp_path / "r.json"))
    qtbot.addWidget(window)
    window.show()
    window.editor.setPlainText(ACCUMULATE)
    with qtbot.waitSignal(window.runner.finished, timeout=30000):
        window.runs.run_all()
    qtbot.waitUntil(lambda: window.graph_view.current is not None
                    and not window.graph_view.busy and bool(window.view_state.calls),
                    timeout=30000)
    assert window.player.playback is None  # the final state until the user asks
    window.graph_view.setFocus()
    qtbot.keyClick(window.graph_view, Qt.Key.Key_Right)
    qtbot.keyClick(window.graph_view, Qt.Key.Key_Right)
    assert window.player.position == 2
    assert "step 2 of" in window.inspector.toPlainText()
    qtbot.keyClick(window.graph_view, Qt.Key.Key_Left)
    assert window.player.position == 1
    window.editor.insertPlainText("# an edit\n")
    assert window.player.playback is None and not window.graph_view.snapshot()["states"]


def _window_after_a_run(qtbot, tmp_path, code: str = ACCUMULATE):
    from playground.ui.main_window import MainWindow
    from playground.ui.recovery import RecoveryStore

    window = MainWindow(recovery=RecoveryStore(tmp_path / "r.json"))
    qtbot.addWidget(window)
    window.show()
    window.editor.setPlainText(code)
    with qtbot.waitSignal(window.runner.finished, timeout=30000):
        window.runs.run_all()
    qtbot.waitUntil(lambda: window.graph_view.current is not None and not window.graph_view.busy
                    and not window.view_state.traces_coming, timeout=30000)
    return window


def test_the_window_exports_the_animation(qtbot, tmp_path, monkeypatch):
    window = _window_after_a_run(qtbot, tmp_path)
    window.player.go(2)
    qtbot.wait(600)  # the gradients' glide along their edges
    before = window.graph_view.snapshot()
    monkeypatch.setattr(window.exports, "ask_export_path", lambda *a: str(tmp_path / "anim.gif"))
    ticks: list[float] = []
    timer = QTimer(interval=16, timeout=lambda: ticks.append(time.perf_counter()))
    timer.start()
    window.exports.export_animation()
    assert window.exports.export_bar.isVisible()  # a progress bar with Cancel while it works
    qtbot.waitUntil(lambda: window.exports.animation_job is None, timeout=60000)
    timer.stop()
    assert window.exports.export_progress.value() == window.exports.export_progress.maximum() > 10
    assert not window.exports.export_bar.isVisible()
    assert "Exported the backward animation" in window.statusBar().currentMessage()
    gif = Image.open(tmp_path / "anim.gif")
    assert gif.n_frames > 10
    # the window kept its events going: a 16 ms timer never waited long
    gaps = [b - a for a, b in zip(ticks, ticks[1:], strict=False)]
    assert len(ticks) > 5 and max(gaps) < 0.25
    assert window.graph_view.snapshot() == before  # the window's view never left the step


def test_cancelling_an_animation_export_writes_nothing(qtbot, tmp_path, monkeypatch):
    window = _window_after_a_run(qtbot, tmp_path)
    monkeypatch.setattr(window.exports, "ask_export_path", lambda *a: str(tmp_path / "anim.gif"))
    window.exports.export_animation()
    qtbot.waitUntil(lambda: window.exports.export_progress.value() >= 3, timeout=30000)
    qtbot.mouseClick(window.exports.export_cancel, Qt.MouseButton.LeftButton)
    assert window.exports.animation_job is None and not window.exports.export_bar.isVisible()
    qtbot.wait(300)
    assert not (tmp_path / "anim.gif").exists()
    assert not list(tmp_path.glob("*.gif"))
    assert "cancelled" in window.statusBar().currentMessage()


def test_a_gif_too_big_for_memory_drops_glides_then_shrinks_then_is_refused(rig, monkeypatch):
    from playground.ui import animation

    result = result_of(ACCUMULATE)
    view, _ = rig(result)
    whole = animation.Animation(view, result.traces, in_between=3)
    pixels, frames = whole.frame_pixels(), len(whole)
    resting = sum(1 for _, _, travelled in whole.plan if travelled is None)
    # room for the resting frames at full size: the glides go, the size stays
    monkeypatch.setattr(animation, "GIF_PIXEL_BUDGET", resting * pixels)
    fitted = animation.Animation(view, result.traces, in_between=3)
    fitted.fit_gif_budget()
    assert len(fitted) == resting < frames and fitted.frame_pixels() == pixels
    # room for them a little smaller: drawn smaller
    monkeypatch.setattr(animation, "GIF_PIXEL_BUDGET", resting * pixels // 2)
    smaller = animation.Animation(view, result.traces, in_between=3)
    smaller.fit_gif_budget()
    assert smaller.frame_pixels() <= pixels // 2
    # far too little: refused, saying what to do instead
    monkeypatch.setattr(animation, "GIF_PIXEL_BUDGET", resting * pixels // 10)
    with pytest.raises(animation.AnimationError, match="PNG frames instead"):
        animation.Animation(view, result.traces, in_between=3).fit_gif_budget()
    # the window's key hint is not written into the file
    first = animation.Animation(view, result.traces, in_between=0)
    assert "F10" not in first.plan_title(0)
