"""Fixtures shared by the npgrad tests: the real torch oracle and the engine under test."""

from __future__ import annotations

import pytest

import playground.npgrad as npgrad


@pytest.fixture(scope="session")
def torch():
    import torch as real
    real.set_num_threads(1)
    return real


@pytest.fixture
def engine():
    return npgrad
