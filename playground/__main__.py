"""Command line entry: ``playground [FILE]`` opens the window (a file is opened, never run);
``playground run SCRIPT ...`` runs a script headless; ``playground --console`` a text console."""

from __future__ import annotations

import code
import sys

BANNER = (
    "Autograd Playground console: `torch` here is the built-in NumPy engine (npgrad).\n"
    "Try: x = torch.ones(2, 2, requires_grad=True); y = (x * 3).sum(); y.backward(); x.grad\n"
    "Run a script headless with: playground run SCRIPT (see playground run --help)"
)
USAGE = ("usage: playground [FILE] [--dark|--light] | playground run SCRIPT [options]\n"
         "       playground --screenshot FILE.png [SCRIPT] | playground --console\n"
         "       playground --version (and which C cores and torch it has)\n"
         "       playground --install-desktop (adds the app to your desktop's menu)\n"
         "  (playground run --help lists the run options)\n")


def open_console() -> int:
    from playground.engines.numpy_engine import NumpyEngine

    engine = NumpyEngine()
    with engine.activate():  # ``import torch`` typed in the console gets npgrad too
        code.interact(banner=BANNER, local={"torch": engine.torch_module()}, exitmsg="")
    return 0


def describe_installation() -> str:
    """The version, and what this installation has: the layout's C core, torch."""
    import importlib.metadata
    import platform

    from playground.engines.torch_engine import install_hint
    from playground.layout.core import compiled
    from playground.npgrad import _compiled

    try:
        version = importlib.metadata.version("autograd-playground")
    except importlib.metadata.PackageNotFoundError:
        version = "(not installed)"
    core = "C (built at install)" if compiled is not None else (
        "Python: the C core was not built (no C compiler when the app was installed); large "
        "graphs are laid out many times slower. Install a C compiler and reinstall to build it.")
    kernels = "C (built at install)" if _compiled.kernels is not None else (
        "NumPy: the C kernels were not built; sigmoid, silu and the fused multiply-adds "
        "compute torch's float32 bits many times slower, and large arithmetic is split "
        "between Python threads, a third slower.")
    try:
        torch = f"torch {importlib.metadata.version('torch')}"
    except importlib.metadata.PackageNotFoundError:
        torch = install_hint()
    return (f"autograd-playground {version} (Python {platform.python_version()}, "
            f"{sys.platform})\nlayout core: {core}\nNumPy engine's kernels: {kernels}\n"
            f"NumPy engine's math: {_engine_math()}\ntorch engine: {torch}\n")


def _engine_math() -> str:
    """Whether the NumPy engine computes with torch's own routines (found, not loaded)."""
    from playground.npgrad._vml import switched_off, torch_library_path

    if switched_off():
        return "rounded once, NumPy's matrix products (PLAYGROUND_VML=off)"
    path = torch_library_path()
    if path is None:
        return ("rounded once, NumPy's matrix products (torch is not installed: with it, "
                "torch's own exp, log, matrix products... to the last bit)")
    return f"torch's own MKL and Sleef routines, from {path}"


def _can_open_qt() -> bool:
    """False, having said why in one paragraph, where Qt would abort with a generic one."""
    from playground.display_check import display_problem

    problem = display_problem()
    if problem:
        sys.stderr.write(problem + "\n")
    return problem is None


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "run":
        from playground.cli import run_command

        return run_command(argv[1:])
    if argv and argv[0] == "--console":
        return open_console()
    if argv == ["--version"]:
        sys.stdout.write(describe_installation())
        return 0
    if argv and argv[0] == "--install-desktop":
        from playground.desktop_entry import install

        for path in install():
            sys.stdout.write(f"wrote {path}\n")
        return 0
    theme = "system"
    if "--dark" in argv or "--light" in argv:
        theme = "dark" if "--dark" in argv else "light"
        argv = [a for a in argv if a not in ("--dark", "--light")]
    if argv and argv[0] == "--screenshot":
        if len(argv) not in (2, 3):
            sys.stderr.write("usage: playground --screenshot FILE.png [SCRIPT] [--dark|--light]\n")
            return 2
        if not _can_open_qt():
            return 1
        from playground.ui.app import screenshot

        return screenshot(argv[1], argv[2] if len(argv) == 3 else None, theme)
    if argv and argv[0] in ("-h", "--help"):
        sys.stdout.write(USAGE)
        return 0
    if len(argv) > 1 or (argv and argv[0].startswith("-")):
        sys.stderr.write(USAGE)
        return 2
    if not _can_open_qt():
        return 1
    from playground.kernel.launch import head_start

    kernel = head_start()  # loads its engine while this process loads Qt
    from playground.ui.app import launch

    return launch(argv[0] if argv else None, theme, kernel)


if __name__ == "__main__":
    sys.exit(main())
