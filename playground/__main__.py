"""Command line entry: ``playground run SCRIPT ...`` runs a script headless in a kernel;
``playground`` alone opens an interactive console on the NumPy engine (the window is issue 4's)."""

from __future__ import annotations

import code
import sys

BANNER = (
    "Autograd Playground console: `torch` here is the built-in NumPy engine (npgrad).\n"
    "Try: x = torch.ones(2, 2, requires_grad=True); y = (x * 3).sum(); y.backward(); x.grad\n"
    "Run a script headless with: playground run SCRIPT (see playground run --help)"
)
USAGE = "usage: playground [run SCRIPT [options]]  (playground run --help for the options)\n"


def open_console() -> int:
    from playground.engines.numpy_engine import torch_is_npgrad

    with torch_is_npgrad():
        import torch

        code.interact(banner=BANNER, local={"torch": torch}, exitmsg="")
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv:
        return open_console()
    if argv[0] == "run":
        from playground.cli import run_command

        return run_command(argv[1:])
    if argv[0] in ("-h", "--help"):
        sys.stdout.write(USAGE)
        return 0
    if argv[0].endswith(".py"):
        from playground.cli import run_command

        return run_command(argv)
    sys.stderr.write(USAGE)
    return 2


if __name__ == "__main__":
    sys.exit(main())
