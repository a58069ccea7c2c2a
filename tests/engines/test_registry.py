"""The engine registry: the one list the window, the kernel and the CLI read."""

from __future__ import annotations

import pytest

from playground.cli import build_parser
from playground.engines import registry
from playground.engines.registry import DEFAULT_ENGINE, ENGINES, EngineEntry, entry


def test_the_cli_offers_what_is_registered():
    engine_option = next(a for a in build_parser()._actions if a.dest == "engine")
    assert tuple(engine_option.choices) == (*ENGINES, "auto")  # auto: numpy, torch if need be
    assert engine_option.default == DEFAULT_ENGINE == "numpy"


def test_an_engine_knows_whether_its_package_is_installed_without_importing_it():
    import sys

    imported = "torch" in sys.modules
    assert ENGINES["numpy"].installed and ENGINES["torch"].installed  # (tests install torch)
    assert ("torch" in sys.modules) == imported


def test_entries_make_their_engines_by_name():
    engine = ENGINES["numpy"].load()
    assert engine.name == "numpy" and not ENGINES["numpy"].has_devices
    assert ENGINES["torch"].has_devices and "cuda" in ENGINES["torch"].devices


def test_an_unknown_name_from_an_old_settings_file_means_the_default():
    assert entry("jax").name == DEFAULT_ENGINE


def test_a_registered_engine_is_offered_by_the_window(qtbot, monkeypatch, tmp_path):
    """One registration: the toolbar's toggle lists it (no other list to edit)."""
    monkeypatch.setitem(ENGINES, "mirror", EngineEntry(
        "mirror", "Mirror", "mirror", "playground.engines.numpy_engine", "NumpyEngine"))
    from tests.windows import make_window

    window = make_window(tmp_path)
    qtbot.addWidget(window)
    labels = [window.runs.engine_box.itemText(i) for i in range(window.runs.engine_box.count())]
    assert labels == ["NumPy", "Torch", "Mirror"]
    window.runner.close()


@pytest.mark.parametrize("name", list(ENGINES))
def test_every_entry_names_a_class_that_exists(name):
    module = __import__(ENGINES[name].module, fromlist=[ENGINES[name].class_name])
    assert hasattr(module, ENGINES[name].class_name)
    assert registry.entry(name) is ENGINES[name]
