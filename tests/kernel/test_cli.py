"""``playground run``: what python would print and return, plus graph and trace files."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from playground.model import Graph
from tests.oracle import normalize
from tests.seeds import code_cells, tutorial_files, tutorial_id, uses_matplotlib


def _run(*arguments, timeout=120):
    return subprocess.run([sys.executable, "-m", "playground", "run", *map(str, arguments)],
                          capture_output=True, text=True, timeout=timeout)


def _python(script):
    return subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=120)


@pytest.fixture
def tutorial(tmp_path):
    script = tmp_path / "tutorial.py"
    script.write_text("import torch\nx = torch.ones(2, 2, requires_grad=True)\n"
                      "out = ((x + 2) * (x + 2) * 3).mean()\nout.backward()\nprint(x.grad)\n")
    return script


@pytest.mark.parametrize("engine", ["numpy", "torch"])
def test_output_and_exit_status_are_pythons(tutorial, engine):
    result = _run(tutorial, "--engine", engine)
    assert (result.returncode, result.stdout) == (0, _python(tutorial).stdout)


def test_graph_and_trace_files(tutorial, tmp_path):
    graph_json, graph_dot, trace = (tmp_path / n for n in ("g.json", "g.dot", "t.json"))
    assert _run(tutorial, "--graph", graph_json, "--trace", trace).returncode == 0
    graph = Graph.loads(graph_json.read_text())
    assert graph.by_name("x").kind == "leaf"
    assert json.loads(trace.read_text())["traces"][0]["kind"] == "backward"
    assert _run(tutorial, "--graph", graph_dot).returncode == 0
    assert graph_dot.read_text().startswith("digraph")
    refused = _run(tutorial, "--graph", tmp_path / "g.gif")
    assert refused.returncode == 2 and "Unknown graph format '.gif'" in refused.stderr


def test_drawn_graphs_and_plots_headless(tutorial, tmp_path):
    import xml.dom.minidom

    svg, png, pdf = (tmp_path / n for n in ("g.svg", "g.png", "g.pdf"))
    plot_png, plot_csv = tmp_path / "p.png", tmp_path / "p.csv"
    done = _run(tutorial, "--graph", svg, "--plot", plot_png)
    assert done.returncode == 0, done.stderr
    assert "propagateSizeHints" not in done.stderr  # Qt's offscreen chatter stays quiet
    xml.dom.minidom.parse(str(svg))
    assert plot_png.read_bytes().startswith(b"\x89PNG")
    assert _run(tutorial, "--graph", png, "--scale", "1", "--plot", plot_csv).returncode == 0
    assert png.read_bytes().startswith(b"\x89PNG")
    assert plot_csv.read_text().splitlines()[1] == "x,0,1.0,4.5"  # d mean(3(x+2)^2) / dx at 1
    assert _run(tutorial, "--graph", pdf).returncode == 0
    assert pdf.read_bytes().startswith(b"%PDF")
    refused = _run(tutorial, "--plot", tmp_path / "p.pdf")
    assert refused.returncode == 2 and "Unknown plot format '.pdf'" in refused.stderr


def test_complex_tensors_export_as_json_and_plot_their_parts(tmp_path):
    pytest.importorskip("torch")
    script = tmp_path / "complex.py"
    script.write_text("import torch\nz = torch.tensor([1+2j, 3-1j], requires_grad=True)\n"
                      "(z * z.conj()).real.sum().backward()\nprint(z.grad)\n")
    graph, trace, points = tmp_path / "g.json", tmp_path / "t.json", tmp_path / "p.csv"
    result = _run(script, "--engine", "torch", "--graph", graph, "--trace", trace,
                  "--plot", points)
    assert (result.returncode, result.stdout) == (0, "tensor([2.+4.j, 6.-2.j])\n")
    leaf = next(node for node in Graph.loads(graph.read_text()).nodes if node.kind == "leaf")
    assert leaf.value.values.tolist() == [1 + 2j, 3 - 1j]
    assert leaf.grad.values.tolist() == [2 + 4j, 6 - 2j]
    assert json.loads(trace.read_text())["traces"][0]["steps"]
    assert points.read_text() == ("tensor,index,value,gradient\nz.real,0,1.0,2.0\n"
                                  "z.real,1,3.0,6.0\nz.imag,0,2.0,4.0\nz.imag,1,-1.0,-2.0\n")


@pytest.mark.parametrize("option", [
    ("--timeout", "nan"), ("--timeout", "0"), ("--timeout", "-1"), ("--scale", "nan"),
    ("--scale", "0"), ("--scale", "-1"), ("--scale", "1e9"), ("--memory-limit", "1K")])
def test_numbers_that_make_no_sense_are_refused_before_the_run(option, tmp_path):
    script = tmp_path / "s.py"
    script.write_text("open('ran', 'w').write('yes')\n")
    result = subprocess.run([sys.executable, "-m", "playground", "run", str(script), *option,
                             "--graph", str(tmp_path / "g.png")], capture_output=True,
                            text=True, timeout=60, cwd=tmp_path)
    assert result.returncode == 2 and not (tmp_path / "ran").exists()
    assert f"argument {option[0]}: '{option[1]}'" in result.stderr.splitlines()[-1]


@pytest.mark.parametrize("option", ["--graph", "--plot", "--trace", "--animation"])
def test_an_output_that_cannot_be_written_is_refused_before_the_run(option, tmp_path):
    script = tmp_path / "s.py"
    script.write_text("open('ran', 'w').write('yes')\n")
    target = tmp_path / "missing" / ("out.png" if option != "--trace" else "out.json")
    result = subprocess.run([sys.executable, "-m", "playground", "run", str(script), option,
                             str(target)], capture_output=True, text=True, timeout=60,
                            cwd=tmp_path)
    assert result.returncode == 2 and not (tmp_path / "ran").exists()
    assert result.stderr == (f"playground: Cannot write {target}: the folder {target.parent} "
                             "does not exist.\n")


def test_an_output_lost_during_the_run_is_one_sentence_and_leaves_no_partial_file(tmp_path):
    folder = tmp_path / "out"
    folder.mkdir()
    script = tmp_path / "s.py"
    script.write_text("import os, torch\nx = torch.ones(2, requires_grad=True)\n"
                      "(x * 3).sum().backward()\n"
                      f"os.rmdir({str(folder)!r})\nprint('done')\n")
    result = _run(script, "--graph", folder / "g.svg")
    assert (result.returncode, result.stdout) == (1, "done\n")
    assert result.stderr.startswith("playground: an output was not written: ")
    assert len(result.stderr.splitlines()) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.py"]


def test_an_exception_prints_the_users_traceback_and_exits_1(tmp_path):
    script = tmp_path / "broken.py"
    script.write_text("import torch\nx = torch.ones(3)\ny = x @ torch.ones(2)\n")
    result = _run(script)
    assert result.returncode == 1 and result.stderr.startswith("Traceback (most recent call")
    assert f'File "{script}", line 3, in <module>' in result.stderr
    assert "RuntimeError: inconsistent tensor size" in result.stderr
    assert "playground/" not in result.stderr.replace(str(tmp_path), "")


@pytest.mark.parametrize(("call", "said"), [
    ("x.ormqr(x, x)", "'ormqr' in the built-in NumPy engine; if real torch has it, "
                      "switch the engine to torch"),
    # a letter from one the engine has, but torch's own: the way out, not "Did you mean"
    ("x.resize(2, 2)", "'resize' in the built-in NumPy engine; if real torch has it, switch "
                       "the engine to torch"),  # (resize_ is the engine's)
    ("x.sizee()", "'sizee'. Did you mean: 'size'?"),
])
def test_a_tensor_method_the_numpy_engine_lacks_names_the_way_out(tmp_path, call, said):
    script = tmp_path / "lacking.py"
    script.write_text(f"import torch\nx = torch.ones(4)\n{call}\n")
    result = _run(script)
    assert result.returncode == 1
    assert result.stderr.rstrip().endswith(
        f"AttributeError: 'Tensor' object has no attribute {said}")


@pytest.mark.parametrize(("code", "said"), [
    ("from torch.autograd import Lacking\n",
     "ImportError: cannot import name 'Lacking' from 'torch.autograd'"),
    ("import torch.lacking\n", "ModuleNotFoundError: No module named 'torch.lacking'"),
    ("import torch\ntorch.nn.Lacking\n",
     "AttributeError: module 'torch.nn' has no attribute 'Lacking'"),
    ("import torch\ntorch.utils.data.Lacking\n",
     "AttributeError: module 'torch.utils.data' has no attribute 'Lacking'"),
    ("import torch\ntorch.cuda.graphs\n",
     "AttributeError: module 'torch.cuda' has no attribute 'graphs'"),
    ("import torch\ntorch.cuda.amp.common\n",
     "AttributeError: module 'torch.cuda.amp' has no attribute 'common'"),
])
def test_what_a_torch_module_lacks_is_said_with_torchs_name(tmp_path, code, said):
    script = tmp_path / "lacking.py"
    script.write_text(code)
    result = _run(script)
    assert result.returncode == 1
    assert result.stderr.rstrip().endswith(
        f"{said} in the built-in NumPy engine; if real torch has it, switch the engine to torch")
    assert "playground" not in result.stderr


@pytest.mark.parametrize(("code", "status", "words"), [
    ("import os\nos._exit(3)\n", 3, "exit code 3"),
    ("import ctypes\nctypes.string_at(0)\n", 137, "segmentation fault"),
    ("while True:\n    pass\n", 124, "time limit"),
    ("import sys\nsys.exit(4)\n", 4, ""),
])
def test_endings_that_are_not_exceptions(tmp_path, code, status, words):
    script = tmp_path / "ending.py"
    script.write_text(code)
    result = _run(script, "--timeout", 1)
    assert result.returncode == status and words in result.stderr


def test_left_over_threads_do_not_keep_the_command_alive(tmp_path):
    script = tmp_path / "threads.py"
    script.write_text("import threading, time\n"
                      "threading.Thread(target=lambda: time.sleep(1000)).start()\n"
                      "print('done')\n")
    result = _run(script, timeout=30)
    assert result.returncode == 0 and result.stdout == "done\n"


def _seed_script(path, folder):
    script = folder / (path.stem + ".py")
    script.write_text("\n".join(c for c in code_cells(path) if not uses_matplotlib(c)))
    return script


@pytest.mark.parametrize("path", tutorial_files(), ids=tutorial_id)
def test_seed_tutorials_run_on_both_engines(path, tmp_path):
    script = _seed_script(path, tmp_path)
    numpy_run = _run(script, "--graph", tmp_path / "numpy.json")
    torch_run = _run(script, "--engine", "torch", "--graph", tmp_path / "torch.json")
    assert numpy_run.returncode == 0 and torch_run.returncode == 0, numpy_run.stderr
    if "randn" in script.read_text():
        # Each engine draws its own random numbers, and a `while norm < 1000` loop then runs a
        # different number of times: tests/engines compares these with the same numbers fed in.
        return
    printed = {normalize(run.stdout) for run in (numpy_run, _python(script), torch_run)}
    assert len(printed) == 1, printed
    numpy_graph = Graph.loads((tmp_path / "numpy.json").read_text())
    torch_graph = Graph.loads((tmp_path / "torch.json").read_text())
    assert [(n.kind, n.label, n.names) for n in numpy_graph.nodes] == [
        (n.kind, n.label, n.names) for n in torch_graph.nodes]
    assert numpy_graph.edges == torch_graph.edges


def test_backward_animation_headless(tutorial, tmp_path):
    from PIL import Image

    gif, folder = tmp_path / "backward.gif", tmp_path / "frames"
    assert _run(tutorial, "--animation", gif).returncode == 0
    with Image.open(gif) as animation:
        assert animation.n_frames > 8  # 7 steps, and travelling frames between them
    assert _run(tutorial, "--animation", folder).returncode == 0
    assert sorted(p.name for p in folder.iterdir())[:2] == ["step-000.png", "step-001.png"]
    nothing = tmp_path / "forward_only.py"
    nothing.write_text("import torch\nx = torch.ones(2, requires_grad=True) * 2\n")
    refused = _run(nothing, "--animation", tmp_path / "none.gif")
    assert refused.returncode == 0 and "nothing to replay" in refused.stderr


def test_an_error_inside_torchs_backward_shows_torchs_frames_as_python_does(tmp_path):
    pytest.importorskip("torch")
    script = tmp_path / "twice.py"
    script.write_text("import torch\nx = torch.ones(2, requires_grad=True)\nz = x.sin().sum()\n"
                      "z.backward()\nz.backward()\n")
    theirs, ours = _python(script), _run(script, "--engine", "torch")
    assert ours.returncode == theirs.returncode == 1
    assert ours.stderr == theirs.stderr
    assert "torch/autograd/graph.py" in ours.stderr  # below the engine's recording wrapper


def test_outputs_into_a_named_pipe_are_streamed_and_the_pipe_stays(tutorial, tmp_path):
    """``--trace FIFO`` (or /dev/null) writes into it; through the atomic write's rename it
    was replaced by a regular file, and as root that would replace the system's /dev/null."""
    import stat
    import threading

    fifo = tmp_path / "trace.fifo"
    os.mkfifo(fifo)
    received = []

    def read() -> None:
        with open(fifo, "rb") as pipe:
            received.append(pipe.read())

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    done = _run(tutorial, "--trace", fifo)
    reader.join(timeout=30)
    assert done.returncode == 0, done.stderr
    assert json.loads(received[0])  # the traces, whole
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    done = _run(tutorial, "--trace", os.devnull)
    assert done.returncode == 0 and stat.S_ISCHR(os.stat(os.devnull).st_mode), done.stderr


def test_magic_lines_are_skipped_only_where_a_statement_starts(tmp_path):
    """A ``%`` line inside a docstring is text, not a magic (every such line became
    ``pass``); ``files = !ls`` and ``t = %timeit -o ...`` are skipped with the note, not a
    SyntaxError."""
    script = tmp_path / "cells.py"
    script.write_text('files = !ls\nt = %timeit -o sum(range(10))\n%time y = 2\n'
                      'doc = """\n%not a magic\n!nor this\n"""\nprint(doc)\n')
    done = _run(script)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "\n%not a magic\n!nor this\n\n"
    assert "files = !ls (line 1), t = %timeit -o sum(range(10)) (line 2), %time y = 2 " \
           "(line 3)" in done.stderr


def test_figures_are_written_to_a_folder_and_savefig_writes_what_python_writes(tmp_path):
    """--figures DIR: each figure the script showed or left open, as figure-N.png (or .svg
    with --figures-format svg); savefig's file is written in any case, byte for byte the one
    python writes."""
    code = ("import torch\nimport matplotlib.pyplot as plt\n"
            "x = torch.linspace(0, 2, 30)\nplt.plot(x, x * x)\nplt.savefig({path!r})\n"
            "plt.show()\nplt.bar(['a', 'b'], [2, 3])\n")
    script, plain_script = tmp_path / "plots.py", tmp_path / "plain.py"
    saved, plain = tmp_path / "saved.png", tmp_path / "plain.png"
    script.write_text(code.format(path=str(saved)))
    plain_script.write_text(code.format(path=str(plain)))
    folder = tmp_path / "out" / "figures"
    done = _run(script, "--figures", folder, "--engine", "numpy")
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in folder.iterdir()) == ["figure-1.png", "figure-2.png"]
    assert all(p.read_bytes().startswith(b"\x89PNG") for p in folder.iterdir())
    python = subprocess.run([sys.executable, str(plain_script)], capture_output=True,
                            env={**os.environ, "MPLBACKEND": "agg"}, timeout=120)
    assert python.returncode == 0, python.stderr
    assert saved.read_bytes() == plain.read_bytes()
    svg_folder = tmp_path / "svg"
    assert _run(script, "--figures", svg_folder, "--figures-format", "svg").returncode == 0
    assert (svg_folder / "figure-2.svg").read_text().startswith("<?xml")
    refused = _run(script, "--figures", saved)
    assert refused.returncode == 2 and "is not a folder" in refused.stderr
    alone = _run(script, "--figures-format", "svg")
    assert alone.returncode == 2 and "--figures-format says how to write --figures DIR" in \
        alone.stderr


def test_engine_auto_takes_torch_only_for_what_the_numpy_engine_lacks(tutorial, tmp_path):
    """--engine auto: a script that needs what the NumPy engine lacks runs on torch, said in
    one line on stderr, its output once, as python's; one the NumPy engine runs (or that
    fails on its own) is the NumPy engine's, said as it says it."""
    lacking = tmp_path / "lacking.py"
    lacking.write_text("import torch\nprint('before')\nx = torch.arange(5.0)\n"
                       "print(x.to('meta').sum())\n")
    taken = _run(lacking, "--engine", "auto")
    assert (taken.returncode, taken.stdout) == (0, _python(lacking).stdout)
    assert taken.stderr == ("playground: the NumPy engine lacks computing with meta tensors "
                            "(device='meta': a shape without values): running the script on "
                            "torch\n")
    kept = _run(tutorial, "--engine", "auto")
    assert (kept.returncode, kept.stdout, kept.stderr) == (0, _python(tutorial).stdout, "")
    failing = tmp_path / "failing.py"
    failing.write_text("import torch\nprint('first')\ntorch.ones(2) @ torch.ones(3)\n")
    own = _run(failing, "--engine", "auto")
    assert (own.returncode, own.stdout) == (1, "first\n")
    assert own.stderr == _run(failing).stderr and "torch" not in own.stderr.splitlines()[0]


ANOMALY = """\
import torch
a = torch.tensor([0., 1.], requires_grad=True)
with torch.autograd.detect_anomaly():
    b = a / a
    try:
        b.sum().backward()
    except RuntimeError as error:
        print("RuntimeError:", error)
print(torch.is_anomaly_enabled())
torch.autograd.set_detect_anomaly(True)
x = torch.tensor([1.], requires_grad=True)
z = x.exp()
w = z * 2
z.mul_(3)
try:
    w.sum().backward()
except RuntimeError as error:
    print("RuntimeError:", str(error)[:40])
"""


def _forward_traceback(stderr: str) -> list[str]:
    """The lines of anomaly mode's warnings from 'Error detected' to torch's tail."""
    lines, inside = [], False
    for line in stderr.splitlines():
        inside = inside or "Error detected in" in line
        if inside:
            lines.append(line.split("UserWarning: ")[-1])
            inside = "(Triggered internally" not in line
    return lines


@pytest.mark.parametrize("engine", ["numpy", "torch"])
def test_anomaly_mode_shows_the_users_forward_lines_as_python_does(tmp_path, engine):
    """detect_anomaly: the same output and the same forward traceback as python (the
    kernel's own frames left out), on both engines."""
    script = tmp_path / "anomaly.py"
    script.write_text(ANOMALY)
    ran, expected = _run(script, "--engine", engine), _python(script)
    assert (ran.returncode, ran.stdout) == (expected.returncode, expected.stdout)
    shown = _forward_traceback(ran.stderr)
    assert shown == _forward_traceback(expected.stderr) and len(shown) == 8
    assert "playground" not in ran.stderr.replace(str(tmp_path), "")


@pytest.mark.parametrize("engine", ["numpy", "torch"])
def test_an_object_that_raises_systemexit_when_looked_at_ends_nothing(tmp_path, engine):
    """The graph is built after the script: a user's object whose named_parameters() (or
    __class__) raises SystemExit is not drawn, and the run ends as python's does."""
    script = tmp_path / "weird.py"
    script.write_text("import torch\nclass Weird:\n    def named_parameters(self):\n"
                      "        raise SystemExit(3)\n"
                      "class Hidden:\n    @property\n    def __class__(self):\n"
                      "        raise SystemExit(4)\n"
                      "weird, hidden = Weird(), Hidden()\n"
                      "x = torch.ones(2, requires_grad=True)\nprint('done')\n")
    ran, expected = _run(script, "--engine", engine), _python(script)
    assert (ran.returncode, ran.stdout, ran.stderr) == (0, expected.stdout, "")


def test_a_script_runs_where_python_runs_it(tmp_path):
    """Its folder first on sys.path (its neighbours import), sys.argv its own (argparse names
    it and parses no kernel arguments), its absolute path in warnings and tracebacks — from
    another folder, named relatively, as people type it."""
    folder = tmp_path / "project"
    folder.mkdir()
    (folder / "model_parts.py").write_text("SIZE = 7\n")
    (folder / "train.py").write_text(
        "import argparse\nimport os\nimport sys\nimport warnings\n"
        "from model_parts import SIZE\n"
        "parser = argparse.ArgumentParser()\nparser.add_argument('--steps', type=int, default=2)\n"
        "options = parser.parse_args()\n"
        "print(SIZE, options.steps, parser.prog, os.path.basename(sys.argv[0]), __file__)\n"
        "warnings.warn('check the learning rate')\n"
        "1 / 0\n")
    ours = subprocess.run([sys.executable, "-m", "playground", "run", "project/train.py"],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    pythons = subprocess.run([sys.executable, "project/train.py"], capture_output=True,
                             text=True, timeout=120, cwd=tmp_path)
    assert pythons.stdout.startswith("7 2 train.py train.py /")
    assert (ours.returncode, ours.stdout, ours.stderr) == \
        (pythons.returncode, pythons.stdout, pythons.stderr)
