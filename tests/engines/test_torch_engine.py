"""The torch engine: device choice, clear sentences for a missing torch or CUDA."""

from __future__ import annotations

import importlib

import pytest

from playground.engines import torch_engine
from playground.engines.base import EngineError
from playground.engines.torch_engine import TorchEngine


def test_auto_device_falls_back_to_the_cpu_and_says_so(torch):
    if torch.cuda.is_available():
        pytest.skip("this machine has CUDA")
    engine = TorchEngine("auto")
    assert engine.device == "cpu"
    assert engine.describe() == f"torch {torch.__version__} · CPU (no CUDA found)"
    assert TorchEngine("cpu").describe() == f"torch {torch.__version__} · CPU"


def test_asking_for_cuda_without_it_is_one_clear_sentence(torch):
    if torch.cuda.is_available():
        pytest.skip("this machine has CUDA")
    with pytest.raises(EngineError, match=r"^CUDA was asked for, but torch finds no CUDA device"):
        TorchEngine("cuda")


def test_a_missing_torch_names_the_install_command(monkeypatch):
    real_import = importlib.import_module

    def without_torch(name, *args):
        if name == "torch":
            raise ModuleNotFoundError("No module named 'torch'")
        return real_import(name, *args)

    monkeypatch.setattr(torch_engine.importlib, "import_module", without_torch)
    with pytest.raises(EngineError) as raised:
        TorchEngine()
    message = str(raised.value)
    assert message == torch_engine.install_hint() and "\n" not in message
    assert "pip install" in message
    if torch_engine._installed_from() != "unknown":  # installed by pip (as the README says)
        assert "[torch]" in message  # its own extra; run from a bare folder, plain torch


@pytest.mark.parametrize("origin, command", [
    ('{"url": "file:///home/me/autograd%20playground", "dir_info": {"editable": true}}',
     'python -m pip install -e "/home/me/autograd playground[torch]"'),
    ("", 'python -m pip install "autograd-playground[torch]"'),      # from PyPI
    ('{"url": "file:///tmp/autograd_playground-0.1.0-py3-none-any.whl", "archive_info": {}}',
     "python -m pip install torch"),                                   # a wheel file
    ("unknown", "python -m pip install torch"),                        # never pip-installed
    ("{not json", "python -m pip install torch")])
def test_the_install_hint_follows_how_the_app_was_installed(origin, command):
    assert f"run `{command}` in the environment" in torch_engine.install_hint(origin)


def test_an_unknown_device_is_refused():
    with pytest.raises(EngineError, match="Unknown device 'tpu'"):
        TorchEngine("tpu")


def test_recording_leaves_torch_as_it_was(torch):
    from playground.engines.trace_recorder import TraceRecorder

    engine = TorchEngine("cpu")
    backward, grad = torch.autograd.backward, torch.autograd.grad
    with engine.activate(), engine.record(TraceRecorder(engine.view().array)):
        assert torch.autograd.backward is not backward
    assert torch.autograd.backward is backward and torch.autograd.grad is grad


def test_saving_a_tensor_leaves_the_process_as_a_new_one_would_find_it():
    """torch.save pickles: copyreg caches ``__slotnames__`` on torch.Tensor the first time,
    which the kernel read as a script's change to torch's classes (every fresh run after a
    script that saved a model went to a new process)."""
    from playground.engines.base import run_code
    from playground.kernel import fingerprint

    engine = TorchEngine("cpu")
    run_code("import torch\nx = torch.ones(2)\n", engine)
    if "__slotnames__" in vars(engine.torch.Tensor):  # (cached by an earlier test here)
        del engine.torch.Tensor.__slotnames__
    before = fingerprint.capture(engine)["engine"]
    run_code("import io, torch\ntorch.save(torch.nn.Linear(2, 1).state_dict(), io.BytesIO())\n",
             engine)
    assert "__slotnames__" in vars(engine.torch.Tensor)  # (what copyreg left)
    assert fingerprint.unchanged(before, fingerprint.capture(engine)["engine"])
