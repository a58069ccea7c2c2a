"""Command line entry: ``playground SCRIPT`` runs a tutorial script on the NumPy engine, and
``playground`` alone opens an interactive console on it (the desktop window is issue 4's)."""

from __future__ import annotations

import argparse
import code
import runpy
import sys

from playground.engines.numpy_engine import torch_is_npgrad

BANNER = (
    "Autograd Playground console: `torch` here is the built-in NumPy engine (npgrad).\n"
    "Try: x = torch.ones(2, 2, requires_grad=True); y = (x * 3).sum(); y.backward(); x.grad"
)


def run_script(path: str) -> int:
    """Run ``path`` as ``__main__`` with ``import torch`` resolving to the engine."""
    with torch_is_npgrad():
        sys.argv = [path]
        try:
            runpy.run_path(path, run_name="__main__")
        except SystemExit as exit_request:
            return exit_request.code if isinstance(exit_request.code, int) else 0
    return 0


def open_console() -> int:
    with torch_is_npgrad():
        import torch  # noqa: F401 - the engine, bound for the console user

        code.interact(banner=BANNER, local={"torch": sys.modules["torch"]}, exitmsg="")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="playground", description=__doc__.splitlines()[0])
    parser.add_argument("script", nargs="?", help="a .py tutorial script to run")
    arguments = parser.parse_args(argv)
    if arguments.script:
        return run_script(arguments.script)
    return open_console()


if __name__ == "__main__":
    sys.exit(main())
