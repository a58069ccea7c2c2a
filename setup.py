"""Builds the layout's optional C core; without a C compiler the app uses its Python twin."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "playground.model._layout_core",
            ["playground/model/_layout_core.c"],
            # A failed build (no compiler, no Python headers) only warns: layout.py and
            # ranking.py then run the same algorithms in Python, slower.
            optional=True,
        )
    ]
)
