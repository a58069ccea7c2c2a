"""Builds the layout's optional C core; without a C compiler the app uses its Python twin."""

import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

SKIPPED = """
WARNING: the graph layout's C core was not built ({reason}).
  Autograd Playground works without it: large graphs are laid out in Python, 20-100x slower.
  To build it, install a C compiler and reinstall: build-essential (Debian, Ubuntu),
  `xcode-select --install` (macOS) or Microsoft C++ Build Tools (Windows).
  `playground --version` says which layout core is in use.
"""


class OptionalCore(build_ext):
    """Builds the C core when it can, and says so plainly when it cannot (pip shows this
    only with -v; `python -m build` always shows it)."""

    def build_extension(self, extension) -> None:
        try:
            super().build_extension(extension)
        except Exception as failure:  # noqa: BLE001 - no compiler, no headers, a failed link
            reason = str(failure).strip().splitlines()[-1] if str(failure).strip() else \
                type(failure).__name__
            sys.stderr.write(SKIPPED.format(reason=reason))


setup(
    ext_modules=[Extension("playground.layout._core", ["playground/layout/_core.c"])],
    cmdclass={"build_ext": OptionalCore},
)
