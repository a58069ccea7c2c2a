"""Builds the optional C cores (the graph layout's, the NumPy engine's float32 kernels);
without a C compiler the app uses their Python twins."""

import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

SKIPPED = """
WARNING: {name} was not built ({reason}).
  Autograd Playground works without it: {fallback}
  To build it, install a C compiler and reinstall: build-essential (Debian, Ubuntu),
  `xcode-select --install` (macOS) or Microsoft C++ Build Tools (Windows).
  `playground --version` says which C cores are in use.
"""


# What each optional module is, and what runs without it.
WITHOUT = {
    "playground.layout._core": (
        "the graph layout's C core",
        "large graphs are laid out in Python, 20-100x slower."),
    "playground.npgrad._kernels": (
        "the NumPy engine's C kernel module",
        "sigmoid and silu compute torch's float32 bits in NumPy, 20-90x slower, float32 "
        "layer norms 2-10x slower, whole sums 5-15x slower, and large arithmetic is split "
        "between Python threads (a third slower)."),
}
# The kernels round each float32 step once, as torch's vector code: no a*b+c contracted.
UNIX_FLAGS = {"playground.npgrad._kernels": ["-ffp-contract=off"]}


class OptionalCore(build_ext):
    """Builds the C core when it can, and says so plainly when it cannot (pip shows this
    only with -v; `python -m build` always shows it)."""

    def build_extension(self, extension) -> None:
        if self.compiler.compiler_type == "unix":  # gcc, clang: no contraction into FMAs
            extension.extra_compile_args = [*extension.extra_compile_args, *UNIX_FLAGS.get(
                extension.name, [])]
        try:
            super().build_extension(extension)
        except Exception as failure:  # noqa: BLE001 - no compiler, no headers, a failed link
            reason = str(failure).strip().splitlines()[-1] if str(failure).strip() else \
                type(failure).__name__
            name, fallback = WITHOUT[extension.name]
            sys.stderr.write(SKIPPED.format(name=name, reason=reason, fallback=fallback))


setup(
    ext_modules=[Extension("playground.layout._core", ["playground/layout/_core.c"]),
                 Extension("playground.npgrad._kernels", ["playground/npgrad/_kernels.c",
                                                            "playground/npgrad/_split_pool.c",
                                                            "playground/npgrad/_row_moments.c",
                                                            "playground/npgrad/_row_sum.c",
                                                            "playground/npgrad/_vector_calls.c",
                                                            "playground/npgrad/_blas_calls.c",
                                                            "playground/npgrad/_softmax_rows.c",
                                                            "playground/npgrad/_library_open.c"],
                           # (dlopen is in libdl before glibc 2.34)
                           libraries=[] if sys.platform == "win32" else ["m", "dl"])],
    cmdclass={"build_ext": OptionalCore},
)
