"""The Linux desktop entry and icon: valid files, installed where desktops look, runnable."""

import configparser
import os
import shlex
import shutil
import subprocess
import xml.etree.ElementTree as ElementTree

import pytest

from playground.__main__ import main
from playground.desktop_entry import ENTRY_NAME, install


def _entry(path) -> configparser.SectionProxy:
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str  # desktop keys are case-sensitive
    parser.read(path, encoding="utf-8")
    return parser["Desktop Entry"]


def test_install_writes_an_entry_that_runs_this_installation(tmp_path):
    entry_path, icon_path = install(tmp_path)
    assert entry_path == tmp_path / "applications" / f"{ENTRY_NAME}.desktop"
    assert icon_path == tmp_path / "icons/hicolor/scalable/apps" / f"{ENTRY_NAME}.svg"
    entry = _entry(entry_path)
    assert entry["Type"] == "Application"
    assert entry["Name"] == "Autograd Playground"
    assert entry["Icon"] == icon_path.stem
    assert "Education" in entry["Categories"].split(";")
    command = shlex.split(entry["Exec"])
    assert command[-1] == "%f"  # the file manager passes one file: it is opened, never run
    assert os.access(command[0], os.X_OK)
    assert entry["TryExec"] == command[0]
    assert "application/x-ipynb+json" in entry["MimeType"].split(";")


def test_the_command_in_the_entry_starts_playground(tmp_path):
    entry_path, _ = install(tmp_path)
    command = shlex.split(_entry(entry_path)["Exec"])[:-1]
    shown = subprocess.run([*command, "--help"], capture_output=True, text=True, timeout=60)
    assert shown.returncode == 0
    assert shown.stdout.startswith("usage: playground")


def test_the_icon_is_a_square_svg(tmp_path):
    _, icon_path = install(tmp_path)
    root = ElementTree.parse(icon_path).getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert root.get("width") == root.get("height")
    assert root.find("{http://www.w3.org/2000/svg}title").text == "Autograd Playground"


@pytest.mark.skipif(shutil.which("desktop-file-validate") is None,
                    reason="desktop-file-utils is not installed")
def test_the_entry_passes_desktop_file_validate(tmp_path):
    entry_path, _ = install(tmp_path)
    checked = subprocess.run(["desktop-file-validate", str(entry_path)],
                             capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_playground_install_desktop_uses_the_users_data_folder(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert main(["--install-desktop"]) == 0
    written = capsys.readouterr().out.splitlines()
    assert written == [f"wrote {tmp_path / 'applications' / (ENTRY_NAME + '.desktop')}",
                       f"wrote {tmp_path / 'icons/hicolor/scalable/apps' / (ENTRY_NAME + '.svg')}"]
