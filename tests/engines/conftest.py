"""The oracle and the engine module, for engine tests that patch them."""

import pytest

import playground.npgrad as npgrad


@pytest.fixture(scope="session")
def torch():
    import torch as real

    return real


@pytest.fixture
def engine():
    return npgrad
