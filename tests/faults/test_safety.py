"""No data loss and no surprises: SIGKILL while typing and while saving, user-only files,
nothing unpickled, no listening sockets."""

from __future__ import annotations

import ast
import os
import random
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from playground.ui.recovery import RecoveryStore, atomic_write
from playground.ui.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
AUTOSAVE_S = 3.0  # the window's autosave interval (AUTOSAVE_MS)

TYPIST = r"""
import sys, time
from pathlib import Path
from PySide6.QtCore import QTimer
from playground.ui.recovery import RecoveryStore
from playground.ui.app import make_application
from playground.ui.main_window import MainWindow
from playground.ui.settings import Settings

folder, text = Path(sys.argv[1]), Path(sys.argv[2]).read_text()
application = make_application("light")
window = MainWindow(settings=Settings(folder / "settings.json"),
                    recovery=RecoveryStore(folder / "recovery.json"))
window.show()
window.editor.clear()  # the new document's starter script goes; the typing is all there is
while window.runner.is_starting:  # the kernel starts in the background
    application.processEvents()
    time.sleep(0.01)
log = open(folder / "typed.log", "w")
log.write(f"kernel {window.runner.kernel.process.pid}\n")
typed = [0]

def type_one():
    window.editor.insertPlainText(text[typed[0]])
    typed[0] += 1
    log.write(f"{time.monotonic()} {typed[0]}\n")
    log.flush()

QTimer(window, interval=15, timeout=type_one).start()
application.exec()
"""

SAVER = r"""
import sys
from pathlib import Path
from playground.ui.recovery import atomic_write

target = Path(sys.argv[1])
versions = [Path(sys.argv[2]).read_text(), Path(sys.argv[3]).read_text()]
count = 0
while True:
    atomic_write(target, versions[count % 2])
    count += 1
    if count == 1:
        print("saving", flush=True)
"""


def _environment(folder: Path) -> dict:
    return dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(ROOT),
                XDG_CONFIG_HOME=str(folder / "config"), XDG_DATA_HOME=str(folder / "data"))


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_killed_while_typing_loses_at_most_the_last_seconds(qtbot, tmp_path):
    text = "".join(f"w{n} = torch.tensor([{n}.0], requires_grad=True)\n" for n in range(400))
    (tmp_path / "text.txt").write_text(text)
    app = subprocess.Popen([sys.executable, "-c", TYPIST, str(tmp_path), str(tmp_path /
                           "text.txt")], env=_environment(tmp_path))
    log = tmp_path / "typed.log"
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:  # type for 7 s: two autosaves at least
            lines = log.read_text().splitlines() if log.exists() else []
            if len(lines) > 2 and float(lines[-1].split()[0]) - float(lines[1].split()[0]) > 7:
                break
            time.sleep(0.1)
        app.send_signal(signal.SIGKILL)
        app.wait(10)
    finally:
        if app.poll() is None:
            app.kill()
    lines = log.read_text().splitlines()
    kernel = int(lines[0].split()[1])
    typed = [(float(t), int(n)) for t, n in (line.split() for line in lines[1:] if line)]
    killed_at, count = typed[-1]
    recovered = RecoveryStore(tmp_path / "recovery.json").load()
    assert recovered is not None, "nothing was autosaved"
    assert text[:count].startswith(recovered["text"])
    # everything typed up to one autosave interval (and a little) before the kill is there
    kept_by = max(n for t, n in typed if t <= killed_at - AUTOSAVE_S - 0.5)
    assert len(recovered["text"]) >= kept_by
    # the orphaned kernel notices its parent is gone and ends: no leaked process
    deadline = time.monotonic() + 10
    while _alive(kernel) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _alive(kernel)
    # and the next start offers the text back
    from playground.ui.main_window import MainWindow

    restarted = MainWindow(settings=Settings(tmp_path / "settings.json"),
                           recovery=RecoveryStore(tmp_path / "recovery.json"))
    qtbot.addWidget(restarted)
    restarted.document.ask_restore = lambda saved: "restore"
    assert restarted.document.offer_recovery()
    assert restarted.editor.toPlainText() == recovered["text"]


def test_killed_while_saving_leaves_the_old_or_the_new_file(tmp_path):
    target = tmp_path / "lesson.py"
    first, second = "a = 1\n" * 700_000, "b = 2\n" * 700_000  # 4 MB each: writes take a while
    (tmp_path / "first.txt").write_text(first)
    (tmp_path / "second.txt").write_text(second)
    target.write_text("original\n")
    chooser = random.Random(8)
    for _ in range(8):
        saver = subprocess.Popen([sys.executable, "-c", SAVER, str(target), str(tmp_path /
                                 "first.txt"), str(tmp_path / "second.txt")],
                                 env=_environment(tmp_path), stdout=subprocess.PIPE, text=True)
        assert saver.stdout.readline() == "saving\n"
        time.sleep(chooser.uniform(0.0, 0.3))
        saver.send_signal(signal.SIGKILL)
        saver.wait(10)
        saver.stdout.close()
        content = target.read_text()
        assert content in (first, second), f"a mix of {len(content)} characters"
    # killed mid-write, a hidden temporary file may stay; a later save clears it
    for leftover in tmp_path.glob(".lesson.py.playground-save-*.tmp"):
        os.utime(leftover, (time.time() - 120, time.time() - 120))  # a while ago
    atomic_write(target, "final\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["first.txt", "lesson.py",
                                                          "second.txt"]


def test_settings_and_recovery_files_are_the_users_only(qtbot, tmp_path):
    from playground.ui.main_window import MainWindow

    settings = Settings(tmp_path / "config" / "settings.json")
    recovery = RecoveryStore(tmp_path / "data" / "recovery.json")
    window = MainWindow(settings=settings, recovery=recovery)
    qtbot.addWidget(window)
    window.editor.insertPlainText("secret = 'only mine'\n")
    window.document.save_recovery()
    window._save_settings()
    for path in (settings.path, recovery.path):
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
        assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700, path.parent
    # a user's own file keeps its permissions when saved, and a new one gets the usual ones
    shared = tmp_path / "shared.py"
    shared.write_text("x = 1\n")
    shared.chmod(0o644)
    atomic_write(shared, "x = 2\n")
    assert stat.S_IMODE(shared.stat().st_mode) == 0o644
    atomic_write(tmp_path / "new.py", "y = 1\n")
    assert stat.S_IMODE((tmp_path / "new.py").stat().st_mode) == 0o666 & ~_umask()


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current


def test_settings_are_plain_json_and_a_bad_file_means_defaults(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text("@Variant(\\0\\0\\0\\x7fPySide::PyObjectWrapper ... not json")
    assert Settings(path).value("engine", "numpy") == "numpy"
    settings = Settings(path)
    settings.setValue("geometry", b"\x01\x02")
    settings.setValue("recent_files", ["/a.py"])
    with pytest.raises(TypeError):
        settings.setValue("object", object())  # only what JSON holds: nothing to unpickle
    settings.sync()
    again = Settings(path)
    assert bytes(again.value("geometry")) == b"\x01\x02"
    assert again.value("recent_files") == ["/a.py"]


UNSAFE_MODULES = {"pickle", "cPickle", "dill", "cloudpickle", "shelve", "marshal", "socket",
                  "socketserver", "http.server", "xmlrpc.server"}
UNSAFE_NAMES = {"QSettings", "QTcpServer", "QLocalServer", "QUdpSocket"}  # QSettings unpickles


def _unsafe_uses(tree: ast.AST) -> list[str]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names if alias.name in UNSAFE_MODULES]
        elif isinstance(node, ast.ImportFrom) and node.module in UNSAFE_MODULES:
            found.append(node.module)
        elif isinstance(node, ast.Name | ast.alias) and getattr(
                node, "id", getattr(node, "name", "")) in UNSAFE_NAMES:
            found.append(getattr(node, "id", getattr(node, "name", "")))
        elif isinstance(node, ast.Attribute) and node.attr in UNSAFE_NAMES:
            found.append(node.attr)
        elif isinstance(node, ast.Call):
            call = ast.unparse(node.func)
            if call in ("torch.load", "np.load", "numpy.load") and not any(
                    k.arg == "allow_pickle" and isinstance(k.value, ast.Constant)
                    and k.value.value is False for k in node.keywords):
                found.append(f"{call} without allow_pickle=False")
    return found


# The kernel copies a figure the script showed with pickle, in the script's own process, and
# reads the copy back there: no byte crosses a process (the window never unpickles).
# The NumPy engine's torch.save and torch.load pickle what a script asks them to, in the
# script's own process, as torch's do (load rebuilds only tensors, numbers and containers
# unless the script passes weights_only=False).
KERNEL_OWN_COPIES = {"playground/engines/inline_figures.py: pickle",
                     "playground/npgrad/_serialization.py: pickle"}


def test_no_code_path_unpickles_or_opens_sockets():
    offenders = []
    for source in sorted((ROOT / "playground").rglob("*.py")):
        tree = ast.parse(source.read_text(encoding="utf-8"))
        offenders += [f"{source.relative_to(ROOT)}: {use}" for use in _unsafe_uses(tree)
                      if f"{source.relative_to(ROOT)}: {use}" not in KERNEL_OWN_COPIES]
    assert offenders == []
    assert _unsafe_uses(ast.parse("import pickle\nfrom PySide6.QtCore import QSettings\n"
                                  "np.load(f)\n")) == ["pickle", "QSettings",
                                                        "np.load without allow_pickle=False"]


COMPLETER = r"""
import pickle
import sys

def refuse(*args, **kwargs):
    raise AssertionError("unpickled")

pickle.load = pickle.loads = refuse
import playground.npgrad as torch
from playground.kernel.child import completions

weights = torch.ones(2, requires_grad=True)
found = completions("weights.requires_gr", 1, 19, {"weights": weights}, torch)
print(" ".join(name for name, _ in found))
"""


def test_completion_neither_unpickles_nor_writes_a_parse_cache(tmp_path):
    """jedi's parser (parso) would pickle parsed modules to the cache folder and load them
    back in the next kernel; a kernel killed mid-write left a truncated file behind."""
    environment = dict(_environment(tmp_path), XDG_CACHE_HOME=str(tmp_path / "cache"))
    for _ in range(2):  # the second kernel would find the first one's cache
        done = subprocess.run([sys.executable, "-c", COMPLETER], env=environment,
                              capture_output=True, text=True, timeout=120, check=True)
        assert "requires_grad" in done.stdout.split(), done.stderr
    assert list((tmp_path / "cache").rglob("*.pkl")) == []


def _listening_inodes() -> set[str]:
    """Socket inodes in the LISTEN state (TCP/UDP bound for listening, or unix listening)."""
    found = set()
    for table in ("tcp", "tcp6"):
        path = Path("/proc/net") / table
        if path.exists():
            for row in path.read_text().splitlines()[1:]:
                fields = row.split()
                if fields[3] == "0A":
                    found.add(fields[9])
    for table in ("udp", "udp6"):
        path = Path("/proc/net") / table
        if path.exists():
            found.update(row.split()[9] for row in path.read_text().splitlines()[1:])
    unix = Path("/proc/net/unix")
    if unix.exists():
        for row in unix.read_text().splitlines()[1:]:
            fields = row.split()
            if int(fields[3], 16) & 0x10000:  # __SO_ACCEPTCON: listening
                found.add(fields[6])
    return found


def _socket_inodes(pid: int) -> set[str]:
    inodes = set()
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    return inodes


def test_neither_the_app_nor_its_kernel_listens_on_a_socket(qtbot, tmp_path):
    from playground.ui.main_window import MainWindow

    window = MainWindow(settings=Settings(tmp_path / "s.json"),
                        recovery=RecoveryStore(tmp_path / "r.json"))
    qtbot.addWidget(window)
    window.show()
    with qtbot.waitSignal(window.runner.finished, timeout=60000):
        window.editor.setPlainText("import torch\nx = torch.ones(2, requires_grad=True)\n"
                                   "(x * 2).sum().backward()\n")
        window.runs.run_all()
    listening = _listening_inodes()
    for pid in (os.getpid(), window.runner.kernel.process.pid):
        assert not _socket_inodes(pid) & listening, f"process {pid} listens on a socket"


SIGNALLED = r"""
import sys, time
from pathlib import Path
from PySide6.QtCore import QTimer
from playground.ui.app import open_window

folder = Path(sys.argv[1])
application, window = open_window(None, "light")
window.editor.setPlainText(
    "import os, signal\nfor name in ('SIGTERM', 'SIGHUP', 'SIGINT', 'SIGSTOP'):\n"
    "    for target in (os.getppid(), -os.getpgid(os.getppid()), -1):\n"
    "        try:\n            os.kill(target, getattr(signal, name))\n"
    "        except PermissionError:\n            print('refused', name)\n"
    "print('sent')\n")

def run_when_ready():
    if window.runner.is_starting:
        QTimer.singleShot(50, run_when_ready)
    else:
        window.runs.run_action.trigger()

def report():
    # Written whole and renamed, so the test never reads a half-written file.
    (folder / "console.tmp").write_text(window.console.toPlainText())
    (folder / "console.tmp").replace(folder / "console.txt")

QTimer.singleShot(100, run_when_ready)
QTimer(window, interval=100, timeout=report).start()
application.exec()
"""


def _seccomp_available() -> bool:
    import platform

    return platform.machine() in ("x86_64", "aarch64")


@pytest.mark.skipif(not (sys.platform.startswith("linux") and _seccomp_available()),
                    reason="the kernel's seccomp filter is Linux's, on x86-64 and arm64")
def test_a_script_cannot_end_or_stop_the_app_with_a_signal_but_the_desktop_still_can(
        tmp_path):
    """SIGSTOP froze the window for good (it cannot be caught): the kernel may not send any
    signal to the app (to its pid, its group, or -1), and the script hears PermissionError;
    the console keeps updating, so the app was never stopped."""
    app = subprocess.Popen([sys.executable, "-c", SIGNALLED, str(tmp_path)],
                           env=_environment(tmp_path))
    console = tmp_path / "console.txt"
    try:
        deadline = time.monotonic() + 60
        notices = [f"refused {name}\n" * 3 for name in ("SIGTERM", "SIGHUP", "SIGINT",
                                                         "SIGSTOP")]
        shown = ""
        while not ("sent" in shown and all(notice in shown for notice in notices)):
            assert app.poll() is None, "the script's signal ended the app"
            assert time.monotonic() < deadline, f"the console never showed it all: {shown!r}"
            time.sleep(0.1)
            shown = console.read_text() if console.exists() else ""
        time.sleep(0.5)
        assert app.poll() is None
        app.send_signal(signal.SIGTERM)  # from outside (a logout, `kill`): it ends the app
        assert app.wait(10) == -signal.SIGTERM
    finally:
        if app.poll() is None:
            app.kill()
