"""Background work in the kernel stands aside while a run is in progress (kernel/yielding.py),
never inside an import."""

from __future__ import annotations

import importlib.util
import os
import sys
import threading
import time

from playground.kernel.yielding import run_in_progress, safe_to_wait, yielding_to_runs

PACKAGE_CODE = '''
import os
import sys

from playground.kernel.yielding import safe_to_wait

FOLDERS = (f"{os.sep}busywork{os.sep}",)
SAFE_WHILE_IMPORTED = safe_to_wait(sys._getframe(), FOLDERS)


def step(counter):
    counter[0] += 1


def safe_here():
    return safe_to_wait(sys._getframe(), FOLDERS)
'''


def _load_package_module(tmp_path):
    folder = tmp_path / "busywork"
    folder.mkdir()
    (folder / "work.py").write_text(PACKAGE_CODE)
    spec = importlib.util.spec_from_file_location("busywork_work", folder / "work.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_background_work_waits_while_a_run_is_in_progress(tmp_path):
    work = _load_package_module(tmp_path)
    counter, stop = [0], threading.Event()

    def busy() -> None:
        while not stop.is_set():
            work.step(counter)

    thread = threading.Thread(target=yielding_to_runs, args=(("busywork",), busy), daemon=True)
    thread.start()
    try:
        time.sleep(0.05)
        assert counter[0] > 0  # it works while no run is in progress
        with run_in_progress():
            time.sleep(0.05)  # (a step under way when the run began ends)
            held = counter[0]
            time.sleep(0.2)
            assert counter[0] == held  # it waited for the run
        time.sleep(0.05)
        assert counter[0] > held  # and goes on after it
    finally:
        stop.set()
        thread.join(5)
    assert not thread.is_alive()
    assert sys.getprofile() is None  # (the test's own thread was never profiled)


def test_it_never_waits_inside_an_import(tmp_path):
    work = _load_package_module(tmp_path)
    assert work.SAFE_WHILE_IMPORTED is False  # its module lock might be the script's next
    assert work.safe_here() is True


def test_code_outside_the_packages_never_waits(tmp_path):
    assert safe_to_wait(sys._getframe(), (f"{os.sep}tests{os.sep}",)) is True  # (its folder)
    assert safe_to_wait(sys._getframe(), (f"{os.sep}busywork{os.sep}",)) is False
