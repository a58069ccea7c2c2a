"""Real matplotlib in the kernel: a corpus of tutorial-style plots runs on both engines, its
savefig files equal plain python's byte for byte, and what the run shows comes back as images."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from playground.kernel.client import Kernel
from playground.model.figure import add_vectors, png_size

CORPUS = Path(__file__).parent / "figures"
SNIPPETS = sorted(CORPUS.glob("*.py"))
# figures each snippet leaves for the window (a plt.show() hands one over early)
SHOWN = {"styles_and_show": 2}
# Snippets whose numbers come from + - * / and squares alone (IEEE-exact): the NumPy engine
# computes them bit for bit as torch does on any CPU, so its savefig file is python's, byte for
# byte. The others use sin, cos, tanh, exp, sqrt, matmul or random normals, whose last bits
# depend on the CPU's SIMD kernels in torch and NumPy alike: their pictures must agree.
EXACT_ON_NUMPY = {"loss_surface_contours", "gradient_field_quiver", "log_scales"}

# Each snippet as ``python snippet.py`` runs it (real torch, Agg), then savefig to a path.
PLAIN_PYTHON = """
import json, sys
import matplotlib
matplotlib.use("agg")
import matplotlib.pyplot as plt
for source, target in json.loads(sys.argv[1]):
    code = open(source, encoding="utf-8").read() + f"\\nplt.savefig({target!r})\\n"
    exec(compile(code, source, "exec"), {"__name__": "__main__"})
    plt.close("all")
    matplotlib.rc_file_defaults()  # a style one snippet chose is not the next one's
"""


def _with_savefig(path: Path, target: Path) -> str:
    return path.read_text(encoding="utf-8") + f"\nplt.savefig({str(target)!r})\n"


@pytest.fixture(scope="module")
def plain_python(tmp_path_factory) -> dict[str, bytes]:
    """Each snippet's savefig PNG as plain python with real torch writes it, here and now."""
    folder = tmp_path_factory.mktemp("plain")
    jobs = [(str(path), str(folder / f"{path.stem}.png")) for path in SNIPPETS]
    environment = {**os.environ, "MPLBACKEND": "agg"}
    subprocess.run([sys.executable, "-c", PLAIN_PYTHON, json.dumps(jobs)], check=True,
                   env=environment, timeout=300, capture_output=True)
    return {Path(source).stem: Path(target).read_bytes() for source, target in jobs}


def _with_vectors(kernel: Kernel, result) -> None:
    """The run's figures with their SVGs, which the kernel sends after the result."""
    assert all(figure.svg is None for figure in result.figures)  # not in the result itself
    run = result.figures[0].run
    add_vectors(result.figures, run, kernel.later.vectors(run))


def _same_picture(one: bytes, other: bytes) -> bool:
    """Two PNGs of one size whose pixels differ in at most 1 in 200 (a curve drawn through
    points that differ in their last bits moves by a pixel here and there)."""
    import io

    import numpy as np
    from PIL import Image

    first, second = (np.asarray(Image.open(io.BytesIO(data)).convert("RGBA"))
                     for data in (one, other))
    if first.shape != second.shape:
        return False
    return np.any(first != second, axis=-1).mean() <= 1 / 200


@pytest.mark.parametrize("engine", ["numpy", "torch"])
def test_the_plotting_corpus_runs_and_saves_what_python_saves(engine, plain_python, tmp_path):
    """Subplots grids, hist, imshow with colour bars, contourf, quiver, a 3D surface, twin
    axes, log scales, annotations with mathtext, styles, plt.show() mid-script: no error, the
    savefig file equal to plain python's, every open figure shown as a PNG and an SVG."""
    differing = []
    with Kernel(engine, "cpu") as kernel:
        for path in SNIPPETS:
            target = tmp_path / f"{path.stem}.png"
            result = kernel.run(_with_savefig(path, target), str(path), fresh=True,
                                figure_scale=2.0)
            assert result.error is None, (path.stem, result.error)
            exact = engine == "torch" or path.stem in EXACT_ON_NUMPY
            if target.read_bytes() != plain_python[path.stem] if exact else \
                    not _same_picture(target.read_bytes(), plain_python[path.stem]):
                differing.append(path.stem)
            assert len(result.figures) == SHOWN.get(path.stem, 1), path.stem
            _with_vectors(kernel, result)
            for number, figure in enumerate(result.figures, start=1):
                width, height = png_size(figure.png)
                assert figure.number == number and figure.scale == 2.0
                assert 300 < width < 3000 and 200 < height < 2000, (path.stem, width, height)
                assert figure.svg.startswith(b"<?xml") and b"<svg" in figure.svg[:1000]
    assert not differing, f"savefig differs from plain python's on {engine}: {differing}"


def test_a_tensor_that_requires_grad_is_refused_with_torchs_words_on_both_engines():
    code = ("import torch\nimport matplotlib.pyplot as plt\n"
            "x = torch.linspace(0, 1, 5, requires_grad=True)\n"
            "try:\n    plt.plot(x, x * 2)\nexcept RuntimeError as error:\n    print(error)\n"
            "plt.plot(x.detach(), (x * 2).detach())\n")
    printed = {}
    for engine in ("numpy", "torch"):
        with Kernel(engine, "cpu") as kernel:
            result = kernel.run(code)
            assert result.error is None and len(result.figures) == 1
            printed[engine] = result.output
    assert printed["numpy"] == printed["torch"] == (
        "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() "
        "instead.\n")


def test_figures_come_in_order_from_show_display_and_the_end_and_are_closed():
    """As Jupyter's inline backend: plt.show() and display(fig) hand figures over at once
    (and close them: the next plt.figure() is number 1 again), the end of a run the rest;
    an empty figure is not shown; the process never imported matplotlib before the script."""
    code = """import sys
print("matplotlib" in sys.modules)
import matplotlib.pyplot as plt
plt.plot([1, 2, 3], label="first")
plt.show()
print(plt.get_fignums())
fig = plt.figure(num="second")
print(fig.number)
fig.add_subplot().bar(["a", "b"], [3, 1])
display(fig)
plt.figure()                    # empty: nothing to show
plt.figure().gca().plot([0, 1])
"""
    with Kernel("numpy", "cpu") as kernel:
        result = kernel.run(code)
        assert result.error is None, result.error
        assert result.output == "False\n[]\n1\n"
        assert [(f.number, f.label) for f in result.figures] == [(1, ""), (2, "second"),
                                                                   (3, "")]
        again = kernel.run("import matplotlib.pyplot as plt\nprint(plt.get_fignums())\n",
                           fresh=False)
        assert again.output == "[]\n" and again.figures == []


def test_a_figure_changed_after_display_is_shown_again_and_a_failed_one_keeps_its_number():
    """display(fig) then a new title: the end of the run shows it again, with the title (an
    unchanged one is not shown twice); a figure that cannot be drawn is said on stderr with
    the line that showed it, and the figure after it is number 3, not 2."""
    code = """import matplotlib.pyplot as plt
fig, ax = plt.subplots()
ax.plot([1, 2])
display(fig)
ax.set_title("now with a title")
plt.show()
plt.title(r"$\\frac{1}{$")
plt.show()
plt.plot([3, 4])
"""
    with Kernel("numpy", "cpu") as kernel:
        result = kernel.run(code, "plots.py")
    assert result.error is None, result.error
    assert [figure.number for figure in result.figures] == [1, 2, 4]
    assert result.output.startswith("Figure 3 could not be drawn (at line 8): ValueError: ")


def test_a_figure_too_large_to_show_whole_is_shown_smaller_and_said_so():
    """figsize=(200, 200) at 100 dpi is 4 * 10^8 pixels: the window gets it under the
    limit, the console says so; savefig of a sane figure still writes what it asks for."""
    with Kernel("numpy", "cpu") as kernel:
        result = kernel.run("import matplotlib.pyplot as plt\n"
                            "plt.figure(figsize=(200, 200))\nplt.plot([1, 2, 3])\n")
    (figure,) = result.figures
    width, height = figure.pixel_size
    assert width * height <= 25_000_000
    assert any("lower resolution" in note for note in result.notes)


def test_a_style_a_script_chose_is_not_the_next_fresh_runs():
    """plt.style.use('dark_background') in one Run all; the next Run all without that line
    draws as python draws, in matplotlib's own style (a fresh process)."""
    probe = "import matplotlib.pyplot as plt\nprint(plt.rcParams['axes.facecolor'])\n"
    with Kernel("numpy", "cpu") as kernel:
        kernel.run("import matplotlib.pyplot as plt\nplt.style.use('dark_background')\n")
        assert kernel.run(probe).output == "white\n"


def test_the_spare_after_a_plotting_run_has_pyplot_ready_and_no_figure_open():
    """A fresh run after one that changed its process goes to a spare, which imported what
    the script did: after a script that drew, pyplot itself, and it drew one figure and closed
    it (the first figure of a process costs more). The script finds no figure open and
    numbers its first 1, as in a new python."""
    probe = ("import sys\nready = 'matplotlib.pyplot' in sys.modules\n"
             "import matplotlib.pyplot as plt\n"
             "print(ready, plt.get_fignums(), plt.figure().number)\n")
    with Kernel("numpy", "cpu") as kernel:
        kernel.run("import matplotlib.pyplot as plt\nplt.plot([1, 2])\nimport os\n"
                   "os.environ['CHANGED'] = '1'\n")  # (a changed process: the next is a spare)
        assert kernel.run(probe).output == "True [] 1\n"


def test_matplotlib_errors_are_the_scripts_at_their_line():
    with Kernel("numpy", "cpu") as kernel:
        for code, message in [
                ("import matplotlib.pyplot as plt\nplt.figure(figsize=(-1, 2))\n",
                 "ValueError: figure size must be positive finite not (-1, 2) (line 2)."),
                ("import matplotlib.pyplot as plt\nplt.plot([1, 2])\n"
                 "plt.xlim(float('nan'), 1)\n",
                 "ValueError: Axis limits cannot be NaN or Inf (line 3).")]:
            assert kernel.run(code).error.message == message


def test_a_figure_too_large_for_svg_is_kept_as_png_by_what_it_holds_not_the_clock():
    code = ("import matplotlib.pyplot as plt\nplt.plot(range(300_000))\nplt.show()\n"
            "plt.plot(range(1000))\n")
    with Kernel("numpy", "cpu") as kernel:
        result = kernel.run(code)
        _with_vectors(kernel, result)
    large, small = result.figures
    assert large.svg is None and small.svg.startswith(b"<?xml")
    assert large.no_svg == "with 300,000 points its SVG would take long to make"


def test_stop_while_a_figure_is_drawn_ends_the_run_and_leaves_no_figure_open():
    """The figures are drawn after the script's last line: Stop then interrupts the drawing
    (a figure that takes long costs its run, and the run can be stopped), and the next run
    finds no figure left over."""
    import threading

    code = """import time
import matplotlib.pyplot as plt
from matplotlib.lines import Line2D

class Slow(Line2D):
    def draw(self, renderer):
        time.sleep(60)

plt.gca().add_line(Slow([0, 1], [0, 1]))
print("the script is done", flush=True)
"""
    with Kernel("numpy", "cpu") as kernel:
        def on_output(_stream, text):
            if "done" in text:
                threading.Timer(0.5, kernel.interrupt).start()

        result = kernel.run(code, on_output=on_output, timeout=30)
        assert result.error is not None and result.error.kind == "interrupted"
        again = kernel.run("import matplotlib.pyplot as plt\nprint(plt.get_fignums())\n",
                           fresh=False)
        assert again.output == "[]\n" and again.error is None


def test_a_cell_plots_the_tensors_of_the_cell_before_on_the_numpy_engine():
    """Cell 1 imports torch and makes tensors, cell 2 plots them without importing torch:
    matplotlib finds torch in sys.modules, as it does on the torch engine."""
    with Kernel("numpy", "cpu") as kernel:
        first = kernel.run("import torch\nx = torch.linspace(0, 1, 5)\n", fresh=True, cell=True)
        second = kernel.run("import matplotlib.pyplot as plt\nplt.plot(x, x * 2)\n",
                            fresh=False, cell=True)
    assert first.error is None and second.error is None, second.error
    assert len(second.figures) == 1


def test_a_figure_is_drawn_as_it_was_when_shown_though_the_script_changes_it_after():
    """The figures are drawn once the result is sent, yet each shows the moment it was shown
    (as Jupyter draws it then): display(fig) then a title, plt.show() then a title on the
    figure the script still holds; the end of the run shows the titled one."""
    plain = ("import matplotlib.pyplot as plt\nfig, ax = plt.subplots()\n"
             "ax.plot([1, 2, 4])\n")
    with Kernel("numpy", "cpu") as kernel:
        (as_shown,) = kernel.run(plain).figures
        displayed = kernel.run(plain + "display(fig)\nax.set_title('later')\n").figures
        shown = kernel.run(plain + "plt.show()\nax.set_title('later')\nprint(fig.stale)\n"
                           "fig.savefig('/dev/null', format='png')\n")
        same_line = kernel.run(plain + "plt.show(); ax.set_title('later')\n").figures
        in_a_loop = kernel.run(plain + "for title in 'ab':\n    plt.show()\n"
                               "    ax.set_title(title)\n").figures
    assert [figure.png == as_shown.png for figure in same_line + in_a_loop] == [True, True]
    assert [figure.png == as_shown.png for figure in displayed] == [True, False]
    assert shown.error is None and shown.output == "True\n"
    assert [figure.png == as_shown.png for figure in shown.figures] == [True]


def test_a_show_that_ends_the_script_keeps_no_copy_of_its_figure():
    """Nothing runs after a script's last statement: a plt.show() there needs no copy of
    the figure as shown (pickling a two-plot figure took 8 ms of a 20 ms run); one in a
    function, or one followed by more on its line, does."""
    from playground.engines import inline_figures
    from playground.engines.base import run_code
    from playground.engines.numpy_engine import NumpyEngine

    engine = NumpyEngine()
    plot = "import matplotlib.pyplot as plt\nfig, ax = plt.subplots()\nax.plot([1, 2])\n"
    copies = {}
    for name, ending in [("last", "plt.show(\n)\n"), ("then more", "plt.show(); x = 1\n"),
                         ("in a function", "def draw():\n    plt.show()\ndraw()\n"),
                         ("in a loop", "for _ in [1]:\n    plt.show()\n")]:
        run = run_code(plot + ending, engine, "<plots>", figure_scale=1.0)
        assert run.error is None and run.figures_due == 1
        copies[name] = [shown.copy is not None for shown in inline_figures._pictures_due.shown]
        inline_figures.forget_pictures()
    assert copies == {"last": [False], "then more": [True], "in a function": [True],
                      "in a loop": [True]}


def test_the_result_comes_before_its_figures_are_drawn():
    """later (the window's way): the result names how many figures are coming and
    holds none; they come after it, drawn, with the run's id."""
    code = ("import torch\nimport matplotlib.pyplot as plt\n"
            "x = torch.ones(3, requires_grad=True)\n(x * 2).sum().backward()\n"
            "plt.plot(x.detach(), x.grad)\nplt.figure().gca().bar(['a'], [1])\n")
    with Kernel("numpy", "cpu") as kernel:
        heard = []
        kernel.later.on_pictures = heard.append
        result = kernel.run(code, later=True)
        assert result.error is None and result.graph.nodes
        assert result.figures == [] and result.figures_due == 2
        drawn = kernel.later.pictures(result.run)
    assert heard == [drawn] and not drawn.stopped and not drawn.failures
    assert [(figure.number, figure.run) for figure in drawn.figures] == [
        (1, result.run), (2, result.run)]
