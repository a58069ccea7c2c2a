"""``playground run SCRIPT``: run a script in a kernel, headless, and export its graph/trace."""

from __future__ import annotations

import argparse
import math
import os
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

# Only what starting the kernel needs is imported up front: the rest (NumPy with it) loads
# while the kernel loads its engine, in parallel with it (benchmarks/startup.py).
from playground.engines.registry import DEFAULT_ENGINE, ENGINES
from playground.files import atomic_write
from playground.kernel.launch import default_memory_limit, launch
from playground.model.figure import add_vectors

if TYPE_CHECKING:
    from playground.model import RunResult

_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)i?b?\s*$", re.IGNORECASE)
_UNITS = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}
AUTO = "auto"  # --engine auto: the NumPy engine, torch where the script needs what it lacks
LEAST_MEMORY = 256 << 20  # below this even the numpy engine's imports fail
MOST_SCALE = 16.0         # pixels per point: a big graph at 16x is already ~1 GB of pixels


class UsageError(Exception):
    """A bad command line: one sentence, exit status 2."""


def parse_size(text: str) -> int:
    """'2G', '512M', '1.5g', '1000000' -> bytes; '0' means no limit."""
    match = _SIZE.match(text)
    if not match:
        raise argparse.ArgumentTypeError(f"'{text}' is not a size like 512M or 2G")
    return int(float(match.group(1)) * _UNITS[match.group(2).lower()])


def _positive(most: float):
    """An argparse type: a finite number above 0 and at most ``most``."""
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"'{text}' is not a number") from None
        if not 0 < value <= most:  # also false for nan
            bound = f" and at most {most:g}" if math.isfinite(most) else ""
            raise argparse.ArgumentTypeError(f"'{text}' must be above 0{bound}")
        return value
    return parse


def _memory_size(text: str) -> int:
    size = parse_size(text)
    if 0 < size < LEAST_MEMORY:
        raise argparse.ArgumentTypeError(
            f"'{text}' is too little: the kernel needs at least {LEAST_MEMORY >> 20} MB "
            "to start (0 means no limit)")
    return size


class _Parser(argparse.ArgumentParser):
    """Lists the export formats in its help from the exporters' registry, which needs Qt:
    loaded only when the help is shown, not for every run."""

    def format_help(self) -> str:
        from playground.ui.exporters import format_list

        for action in self._actions:
            if action.help and ("{graph}" in action.help or "{plots}" in action.help):
                action.help = action.help.format(graph=format_list("graph"),
                                                 plots=format_list("plots"))
        return super().format_help()


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="playground run",
        description="Run a PyTorch-style script in a kernel process, as `python SCRIPT` would "
                    "with torch, and write its autograd graph and backward traces.",
        epilog="Exit status: the script's (0, or 1 on an exception, or its sys.exit code); 2 for "
               "a bad command line or an unavailable engine; 124 on timeout; 137 when the "
               "kernel process dies.")
    parser.add_argument("script", help="the .py file to run, or a notebook (.ipynb, markdown "
                                       "with ```python blocks): its code cells in order")
    parser.add_argument("--engine", choices=(*ENGINES, AUTO), default=DEFAULT_ENGINE,
                        help="numpy: the built-in engine (default); torch: real torch; auto: "
                             "numpy, and torch when the script needs what numpy lacks")
    parser.add_argument("--device", choices=("auto", "cpu", "cuda"), default="auto",
                        help="for the torch engine: auto picks CUDA when present")
    parser.add_argument("--graph", metavar="FILE",
                        help="write the graph: {graph} (the drawn ones as in the window; .json "
                             "is the documented schema)")
    parser.add_argument("--plot", metavar="FILE",
                        help="write the value-vs-gradient plots: {plots} (.csv: the points)")
    parser.add_argument("--figures", metavar="DIR",
                        help="write each matplotlib figure the script showed or left open as "
                             "DIR/figure-N.png (plt.savefig files are written in any case)")
    parser.add_argument("--figures-format", choices=("png", "svg"),
                        help="with --figures: png (the default) or svg")
    parser.add_argument("--animation", metavar="FILE_OR_FOLDER",
                        help="write the backward animation: an animated .gif, or a folder of "
                             "numbered PNGs (one per step)")
    parser.add_argument("--scale", type=_positive(MOST_SCALE), default=2.0,
                        help="pixels per point for --graph .png (default 2, at most 16)")
    parser.add_argument("--trace", metavar="FILE", help="write the backward traces as JSON")
    parser.add_argument("--timeout", type=_positive(float("inf")), metavar="S",
                        help="stop the script after S seconds")
    parser.add_argument("--memory-limit", type=_memory_size, metavar="SIZE",
                        default=default_memory_limit(),
                        help="kernel memory cap, e.g. 2G (default: half the RAM; 0: none)")
    return parser


def _check_outputs(arguments: argparse.Namespace) -> None:
    """Every output can be written, checked before the script runs (not after a long run)."""
    for path, subject, what in ((arguments.graph, "graph", "graph"),
                                (arguments.plot, "plots", "plot")):
        if path is None:
            continue
        from playground.ui.exporters import format_list, formats  # Qt: only when exporting

        suffix = Path(path).suffix.lower()
        if suffix not in formats(subject):
            raise UsageError(f"Unknown {what} format '{suffix}': write {format_list(subject)}.")
    for path in (arguments.graph, arguments.plot, arguments.trace, arguments.animation):
        if path is not None:
            _check_writable(Path(path), folder_allowed=path == arguments.animation)
    if arguments.figures is not None:
        _check_folder(Path(arguments.figures))
    elif arguments.figures_format is not None:
        raise UsageError("--figures-format says how to write --figures DIR: name the folder.")


def _check_folder(folder: Path) -> None:
    """A folder the figures can go to: there and writable, or one that can be made."""
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"{folder} is not a folder: name a folder for the figures.")
    existing = next(parent for parent in (folder, *folder.parents) if parent.exists())
    if not os.access(existing, os.W_OK):
        raise UsageError(f"Cannot write figures to {folder}: {existing} is not writable.")


def _check_writable(path: Path, folder_allowed: bool) -> None:
    if path.is_dir() and not (folder_allowed and path.suffix.lower() != ".gif"):
        raise UsageError(f"{path} is a folder: name a file to write.")
    if path.exists() and not path.is_file() and not path.is_dir():  # a device or a pipe:
        if not os.access(path, os.W_OK):                             # written as a stream
            raise UsageError(f"Cannot write {path}: it is read-only.")
        return
    parent = path.parent
    if not parent.is_dir():
        raise UsageError(f"Cannot write {path}: the folder {parent} does not exist.")
    if not os.access(parent, os.W_OK):
        raise UsageError(f"Cannot write {path}: the folder {parent} is not writable.")
    if path.exists() and not os.access(path, os.W_OK):
        raise UsageError(f"Cannot write {path}: it is read-only.")


def _read_script(path: str) -> str:
    """A script as it is; a notebook (.ipynb, markdown, a text dump) as its cells in order."""
    from playground.model.source_file import SourceError, read_source

    try:
        return read_source(Path(path), text_limit=None)[0]
    except SourceError as error:
        raise UsageError(str(error)) from None


def _write_outputs(result: RunResult, arguments: argparse.Namespace) -> None:
    graph = result.graph
    graph_format = None
    if arguments.graph:
        from playground.ui.exporters import exporter_for

        graph_format = exporter_for("graph", arguments.graph)
    if graph is not None and graph_format is not None and not graph_format.drawn:
        graph_format().write(None, graph, Path(arguments.graph), arguments.scale)
    drawn = arguments.graph if graph_format is not None and graph_format.drawn else None
    if drawn or arguments.plot or arguments.animation:
        _draw_outputs(result, drawn, arguments.plot, arguments.scale, arguments.animation)
    if arguments.figures is not None:
        write_figures(result.figures, Path(arguments.figures), arguments.figures_format or "png")

    if arguments.trace:
        from playground.model.trace import dumps as traces_dumps

        atomic_write(arguments.trace, traces_dumps(result.traces))


def write_figures(figures, folder: Path, kind: str = "png") -> list[Path]:
    """The kernel's images of the figures as ``folder/figure-N.png`` (or ``.svg``: a figure
    too large for SVG is written as PNG, and said so)."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for figure in figures:
        data = figure.svg if kind == "svg" else figure.png
        suffix = kind
        if data is None:
            sys.stderr.write(f"playground: figure {figure.number} has no SVG "
                             f"({figure.no_svg or 'none came'}): written as PNG\n")
            data, suffix = figure.png, "png"
        path = folder / f"figure-{figure.number}.{suffix}"
        atomic_write(path, data)
        written.append(path)
    return written


def _draw_outputs(result: RunResult, graph_path: str | None, plot_path: str | None,
                  scale: float, animation_path: str | None = None) -> None:
    """SVG/PNG/PDF graphs and the plots, rendered offscreen by the window's own widgets."""
    from playground.model import Graph

    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import qInstallMessageHandler

    from playground.ui.app import make_application
    from playground.ui.exporters import render_graph_file, render_plots_file

    qInstallMessageHandler(_quiet_qt)
    make_application("light")
    graph = result.graph or Graph()
    if graph_path:
        render_graph_file(graph, graph_path, scale)
    if plot_path:
        render_plots_file(graph, plot_path)
    if animation_path:
        from playground.ui.animation import AnimationError, render_animation_file

        try:
            render_animation_file(graph, result.traces, animation_path)
        except AnimationError as error:
            sys.stderr.write(f"playground: no animation written: {error}\n")


def _quiet_qt(kind, context, message: str) -> None:
    """Qt's warnings (the offscreen platform's, a painter's on a file that could not be
    opened) are not the user's business: the failure is said in one sentence of ours."""
    from PySide6.QtCore import QtMsgType

    if kind in (QtMsgType.QtCriticalMsg, QtMsgType.QtFatalMsg):
        sys.stderr.write(f"qt: {message}\n")


def _report(result: RunResult) -> int:
    """Print the error like Python would, or one sentence; return the exit status. The
    kernel's notes (IPython lines it skipped) come first, as the window's console shows
    them."""
    for note in result.notes:
        sys.stderr.write(f"playground: {note}\n")
    error = result.error
    if error is None:
        return 0
    if error.kind == "exit" and error.exception_type == "SystemExit":
        return error.exit_code or 0
    if error.kind in ("exception", "syntax", "memory") and error.traceback:
        sys.stderr.write(error.traceback)
        if error.kind == "memory" and "kernel's limit" in error.message:
            sys.stderr.write(f"playground: {error.message} --memory-limit raises it.\n")
        # python ends with 130 (killed by SIGINT) on a KeyboardInterrupt nobody caught
        return 130 if error.exception_type == "KeyboardInterrupt" else 1
    sys.stderr.write(f"playground: {error.message}\n")
    return {"timeout": 124, "crash": 137, "interrupted": 130}.get(
        error.kind, error.exit_code if error.kind == "exit" and error.exit_code else 1)


def _stream(stream: str, text: str) -> None:
    target = sys.stdout if stream == "stdout" else sys.stderr
    target.write(text)
    target.flush()


def run_command(argv: list[str]) -> int:
    arguments = build_parser().parse_args(argv)
    try:
        _check_outputs(arguments)
    except UsageError as error:
        sys.stderr.write(f"playground: {error}\n")
        return 2
    auto = arguments.engine == AUTO
    held: list[tuple[str, str]] = []  # under auto, the NumPy run's output until it is kept
    result = _run_on(DEFAULT_ENGINE if auto else arguments.engine, arguments,
                     (lambda stream, text: held.append((stream, text))) if auto else _stream)
    if isinstance(result, int):
        return result
    missing = result.error.missing if result.error is not None else ""
    if auto and missing and ENGINES["torch"].installed:
        sys.stderr.write(f"playground: the NumPy engine lacks {missing}: running the script "
                         "on torch\n")
        result = _run_on("torch", arguments, _stream)
        if isinstance(result, int):
            return result
    else:
        for stream, text in held:
            _stream(stream, text)
    status = _report(result)
    if missing and not ENGINES["torch"].installed:
        from playground.engines.torch_engine import install_hint

        sys.stderr.write(f"playground: the NumPy engine lacks {missing}, and torch is not "
                         f"installed: {install_hint()} adds it (then --engine auto uses it)\n")
    try:
        _write_outputs(result, arguments)
    except (OSError, ValueError) as error:  # a disk that filled, a file that vanished, ...
        sys.stderr.write(f"playground: an output was not written: {error}\n")
        return status or 1
    return status


def _run_on(engine: str, arguments: argparse.Namespace, on_output) -> RunResult | int:
    """The script's run on ``engine`` (its output to ``on_output``), or the exit status when
    it could not run at all."""
    launched = launch(engine, arguments.device, arguments.memory_limit, completions=False)
    from playground.kernel.client import Kernel, KernelError

    try:
        code = _read_script(arguments.script)
        kernel = Kernel(engine, arguments.device, arguments.memory_limit,
                        completions=False, launched=launched)
    except (UsageError, KernelError) as error:
        launched.kill()  # (Kernel has already ended a kernel that failed to start)
        launched.wait()
        sys.stderr.write(f"playground: {error}\n")
        return 2
    with kernel:
        # (python names the script by its absolute path in tracebacks and warnings)
        result = kernel.run(code, os.path.abspath(arguments.script), fresh=True,
                            on_output=on_output,
                            timeout=arguments.timeout)
        if arguments.figures_format == "svg" and result.figures:  # drawn after the result
            run = result.figures[0].run
            add_vectors(result.figures, run, kernel.later.vectors(run) or [])
    return result
