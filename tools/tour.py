"""Walk a newcomer's first minutes in the real window and save a numbered screenshot per step.

    python tools/tour.py OUTDIR [--only light-1024x640]

For each theme (light, dark) and window size (1024x640, 1920x1080) it starts a window
(offscreen unless a display is set), drives it with key events as a person would: types a
script, runs it, steps the backward replay, opens a deep network, runs a notebook cell by
cell, switches the engine, exports the graph, starts a new file. OUTDIR/THEME-SIZE/ then
holds NN-step.png files to look at one by one. The README's screenshots come from here.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
THEMES = ("light", "dark")
SIZES = ((1024, 640), (1280, 800), (1920, 1080))  # 1280x800: the default window
TYPED = [
    "import torch",
    "w = torch.tensor([2.0, -1.0, 0.5], requires_grad=True)",
    "b = torch.tensor([1.0], requires_grad=True)",
    "y = (w * w * 3 + b).sum()",
    "y.backward()",
    "print(w.grad, b.grad)",
]
NOTEBOOK_CELLS = [
    "import torch\nx = torch.tensor([1.0, 2.0], requires_grad=True)",
    "y = (x * x).sum()\ny.backward()\nprint(x.grad)",
    "z = (x * 3).sum()\nz.backward()\nx.grad  # the gradients add up: Out[3]",
]


# In the style of a blog post exported from a notebook: printed output indented under each
# block, from an older torch (node names without their number, an object's address).
CHECKED_TUTORIAL = """# Gradients, printed

```python
import torch
x = torch.ones(2, 2, requires_grad=True)
print(x)
```

    tensor([[1., 1.],
            [1., 1.]], requires_grad=True)

```python
y = x + 2
print(y.grad_fn)
```

    <AddBackward object at 0x10f3a2b50>

```python
out = (y * y * 3).mean()
out.backward()
print(x.grad)
```

    tensor([[4.5000, 4.5000],
            [4.5000, 4.5000]])

```python
print(out)
```

    tensor(27., grad_fn=<MeanBackward1>)

The tutorial's author forgot that zero_ empties the gradient:
```python
x.grad.zero_()
print(x.grad.sum())
```

    tensor(18.)
"""

class Tour:
    """One window, one theme and size; ``shot`` saves the window as the next numbered PNG."""

    def __init__(self, folder: Path, theme: str, size: tuple[int, int]) -> None:
        from playground.ui.app import make_application
        from playground.ui.main_window import MainWindow
        from playground.ui.recovery import RecoveryStore
        from playground.ui.settings import Settings

        self.folder = folder
        self.folder.mkdir(parents=True, exist_ok=True)
        self.scratch = Path(tempfile.mkdtemp(prefix="tour-"))
        self.application = make_application(theme)
        self.window = MainWindow(settings=Settings(self.scratch / "settings.json"),
                                 recovery=RecoveryStore(self.scratch / "recovery.json"))
        self.window.document.ask_unsaved = lambda: "discard"
        self.window.resize(*size)
        self.window.show()
        self.window.activateWindow()
        self.number = 0
        self.settle()

    # ----- a person's pace ----------------------------------------------------------------------
    def wait(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.application.processEvents()
            time.sleep(0.005)

    def settle(self) -> None:
        from playground.ui.app import settle

        settle(self.window, self.application)

    def key(self, widget, key, modifiers=None) -> None:
        from PySide6.QtCore import Qt
        from PySide6.QtTest import QTest

        QTest.keyClick(widget, key, modifiers or Qt.KeyboardModifier.NoModifier)
        self.wait(0.05)

    def type_lines(self, lines: list[str]) -> None:
        from PySide6.QtCore import Qt
        from PySide6.QtTest import QTest

        editor = self.window.editor
        editor.setFocus()
        self.key(editor, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
        self.key(editor, Qt.Key.Key_Delete)
        for line in lines:
            QTest.keyClicks(editor, line, Qt.KeyboardModifier.NoModifier, 2)
            self.key(editor, Qt.Key.Key_Return)

    def shot(self, name: str) -> Path:
        self.wait(0.5)  # glides and travelling gradients come to rest
        self.number += 1
        path = self.folder / f"{self.number:02d}-{name}.png"
        self.window.grab().save(str(path))
        return path

    def run_example(self, path: Path, name: str) -> None:
        """Examples → an example, Ctrl+Enter, and a picture once the views have settled."""
        from PySide6.QtCore import Qt

        self.window.document.open_example(path)
        self.key(self.window.editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
        self.settle()
        self.shot(name)

    # ----- the journey --------------------------------------------------------------------------
    def walk(self) -> None:
        from PySide6.QtCore import Qt
        from PySide6.QtTest import QTest

        from playground.ui.document import EXAMPLES

        window, control = self.window, Qt.KeyboardModifier.ControlModifier
        self.shot("empty-window")
        self.type_lines(TYPED)
        self.shot("typed")
        self.key(window.editor, Qt.Key.Key_Return, control)
        self.settle()
        self.shot("run-final-gradients")
        self.key(window.editor, Qt.Key.Key_F, control)
        QTest.keyClicks(window.find_bar.query, "grad", Qt.KeyboardModifier.NoModifier, 20)
        self.shot("find-bar")
        self.key(window.find_bar.query, Qt.Key.Key_Escape)
        self.run_example(EXAMPLES / "04_chain_rule.py", "chain-rule-final")
        window.graph_view.setFocus()
        for _ in range(4):
            self.key(window.graph_view, Qt.Key.Key_Right)
        self.shot("chain-rule-step-4")
        for _ in range(6):
            self.key(window.graph_view, Qt.Key.Key_Right)
        self.shot("chain-rule-step-10")
        self.key(window.graph_view, Qt.Key.Key_Right)
        self.shot("chain-rule-replay-ended")
        self.code_and_graph()
        self.run_example(EXAMPLES / "08_deep_network.py", "deep-network-300-nodes")
        window.graph_view.setFocus()
        for _ in range(60):
            self.key(window.graph_view, Qt.Key.Key_Right)
        self.shot("deep-network-step-60")
        self.key(window.graph_view, Qt.Key.Key_Escape)
        self.key(window.graph_view, Qt.Key.Key_F)
        self.shot("deep-network-fitted")
        self.model_by_module()
        self.tutorial_checked()
        self.notebook_and_engine()

    def code_and_graph(self) -> None:
        """The chain-rule example: a clicked node marks its line, the cursor's line outlines
        its nodes, F10 reads each step in the script's names, Ctrl+click L and w1 writes the
        paths' sum."""
        from PySide6.QtCore import Qt
        from PySide6.QtTest import QTest

        window, view = self.window, self.window.graph_view
        control = Qt.KeyboardModifier.ControlModifier

        def click(item, modifiers=Qt.KeyboardModifier.NoModifier) -> None:
            view.ensureVisible(item)
            QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, modifiers,
                             view.mapFromScene(item.sceneBoundingRect().center()))
            self.wait(0.2)

        product = next((item for item in view.current.nodes.values()
                        if item.look.lines[1:2] == ["w3 * b"]), None)
        if product is None:
            return
        click(product)
        self.shot("node-marks-its-line")
        editor = window.editor
        editor.setFocus()
        self.key(editor, Qt.Key.Key_Home, control)
        for _ in range(9):  # to b = w1 * a
            self.key(editor, Qt.Key.Key_Down)
        self.shot("line-outlines-its-nodes")
        for _ in range(5):
            self.key(editor, Qt.Key.Key_F10)
        tabs = window.tabs  # the inspector reads the step in both terms
        tabs.setCurrentIndex(next(i for i in range(tabs.count())
                                  if tabs.tabText(i).startswith("Inspector")))
        self.shot("step-in-your-names")
        window.player.finish()  # the replay's end: the final gradients again
        self.settle()
        graph = view.graph
        click(view.node_item(graph.by_name("L").id))
        click(view.node_item(graph.by_name("w1").id), control)
        self.shot("paths-sum-in-your-names")

    def model_by_module(self) -> None:
        """A 4-layer transformer: collapsed to its blocks, one opened, the replay inside it."""
        from PySide6.QtCore import Qt
        from PySide6.QtTest import QTest

        view = self.window.graph_view
        self.run_example(ROOT / "benchmarks" / "models" / "transformer.py", "model-collapsed")
        block = view.current.nodes.get("module:model.encoder.layers.0")
        if block is None:
            return
        view.centerOn(block)
        QTest.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton,
                          Qt.KeyboardModifier.NoModifier,
                          view.mapFromScene(block.sceneBoundingRect().center()))
        self.settle()
        self.shot("model-block-opened")
        view.setFocus()
        for _ in range(14):
            self.key(view, Qt.Key.Key_Right)
        self.shot("model-replay-inside-the-block")
        self.key(view, Qt.Key.Key_Escape)

    def tutorial_checked(self) -> None:
        """A blog post's tutorial, its printed output under each block: Run all cells marks
        each cell ✓, ≈ or ≠, and the console says why."""
        from PySide6.QtCore import Qt

        window = self.window
        lesson = self.scratch / "gradients-printed.md"
        lesson.write_text(CHECKED_TUTORIAL, encoding="utf-8")
        window.document.ask_path = lambda saving: str(lesson)
        self.key(window.editor, Qt.Key.Key_O, Qt.KeyboardModifier.ControlModifier)
        self.key(window.editor, Qt.Key.Key_Return,
                 Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
        while window.runs._cell_queue or window.runner.busy:
            self.wait(0.05)
        self.settle()
        self.shot("tutorial-output-checked")

    def notebook_and_engine(self) -> None:
        import nbformat
        from PySide6.QtCore import Qt

        window = self.window
        shift_control = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
        lesson = self.scratch / "two-backward-calls.ipynb"
        book = nbformat.v4.new_notebook()
        book.cells = [nbformat.v4.new_markdown_cell("Gradients add up across backward calls.")]
        book.cells += [nbformat.v4.new_code_cell(cell) for cell in NOTEBOOK_CELLS]
        lesson.write_text(nbformat.writes(book), encoding="utf-8")
        window.document.ask_path = lambda saving: str(lesson)
        self.key(window.editor, Qt.Key.Key_O, Qt.KeyboardModifier.ControlModifier)
        self.shot("notebook-opened")
        self.key(window.editor, Qt.Key.Key_Return, shift_control)
        while window.runs._cell_queue or window.runner.busy:
            self.wait(0.05)
        self.settle()
        self.shot("notebook-all-cells")
        window.runs.engine_box.setCurrentIndex(window.runs.engine_box.findData("torch"))
        self.wait(0.3)
        self.shot("engine-starting")
        self.settle()
        self.shot("engine-torch")
        export = self.folder / f"{self.number + 1:02d}-exported-graph.png"
        window.exports.ask_export_path = lambda *arguments: str(export)
        self.key(window.editor, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier)
        self.number += 1
        self.key(window.editor, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
        self.shot("new-file")
        window.runs.engine_box.setCurrentIndex(window.runs.engine_box.findData("numpy"))
        self.settle()
        window.close()


def one(folder: Path, theme: str, size: tuple[int, int]) -> None:
    Tour(folder / f"{theme}-{size[0]}x{size[1]}", theme, size).walk()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("outdir", type=Path)
    parser.add_argument("--only", help="one walk, e.g. light-1024x640")
    arguments = parser.parse_args()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    if arguments.only:
        theme, size = arguments.only.split("-")
        width, height = (int(v) for v in size.split("x"))
        one(arguments.outdir, theme, (width, height))
        return 0
    failed = 0
    for theme in THEMES:
        for width, height in SIZES:
            name = f"{theme}-{width}x{height}"
            # one process a walk: a palette is the application's, set once
            code = subprocess.call([sys.executable, __file__, str(arguments.outdir),
                                    "--only", name])
            print(f"{name}: {'done' if code == 0 else f'failed ({code})'}")
            failed += code != 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
