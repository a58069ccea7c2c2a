"""The wheel built from the checkout installs in a fresh virtual environment and works from
anywhere: ``playground run``, ``--screenshot`` and every example, outside the checkout."""

from __future__ import annotations

import os
import shutil
import site
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted(p.name for p in (ROOT / "resources" / "examples").glob("*.py"))
# One worker takes this module (pyproject's --dist loadgroup): one build, not one a worker.
pytestmark = pytest.mark.xdist_group("wheel")


def _source_copy(folder: Path) -> Path:
    """The checkout without its build products: a build there leaves the checkout's build/
    alone (two builds in it at once broke each other, and its leftovers broke the next)."""
    source = folder / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
        "build", "dist", ".venv", "*.egg-info", "__pycache__", ".git", "*.so", "*.pyd"))
    return source


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """``python -m build --wheel`` of the checkout (no isolation: no download)."""
    folder = tmp_path_factory.mktemp("dist")
    source = _source_copy(tmp_path_factory.mktemp("checkout"))
    built = subprocess.run([sys.executable, "-m", "build", "--wheel", "--no-isolation",
                            "--outdir", str(folder), str(source)], capture_output=True, text=True)
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    (found,) = folder.glob("autograd_playground-*.whl")
    return found


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory) -> Path:
    """A fresh venv holding the wheel; its dependencies are read from this test environment's
    site-packages (a path, not a copy: the checkout's editable install is not activated)."""
    environment = tmp_path_factory.mktemp("fresh") / "venv"
    venv.EnvBuilder(with_pip=True).create(environment)
    python = environment / ("Scripts" if os.name == "nt" else "bin") / "python"
    own_packages = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True).stdout.strip()
    (Path(own_packages) / "dependencies.pth").write_text(
        "\n".join(site.getsitepackages()) + "\n")
    done = subprocess.run([str(python), "-m", "pip", "install", "--no-deps", "--no-index", "-q",
                           str(wheel)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    return python


def _outside(python: Path, *arguments: str, folder: Path, timeout: float = 180):
    environment = {key: value for key, value in os.environ.items()
                   if key not in ("PYTHONPATH", "PYTHONHOME")}
    environment["QT_QPA_PLATFORM"] = "offscreen"
    command = python.with_name("playground")
    return subprocess.run([str(command), *arguments], cwd=folder, capture_output=True,
                          text=True, timeout=timeout, env=environment)


def test_the_wheel_ships_the_examples_and_the_icon(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {f"playground/resources/examples/{name}" for name in EXAMPLES} <= names
    assert "playground/resources/icon.svg" in names


def test_the_wheel_holds_every_package_of_the_checkout(wheel):
    # pyproject.toml names its packages one by one: a new one left out fails only where
    # it is imported (torch.nn.modules.module on the NumPy engine, say)
    packages = {str(init.parent.relative_to(ROOT)) for init in
                (ROOT / "playground").rglob("__init__.py") if "__pycache__" not in init.parts}
    with zipfile.ZipFile(wheel) as archive:
        shipped = {str(Path(name).parent) for name in archive.namelist()
                   if name.endswith("/__init__.py")}
    assert packages <= shipped, sorted(packages - shipped)


def test_the_installed_wheel_is_the_one_that_runs(installed, tmp_path):
    where = subprocess.run([str(installed), "-c", "import playground; print(playground.__file__)"],
                           cwd=tmp_path, capture_output=True, text=True, check=True).stdout
    assert Path(where.strip()).is_relative_to(installed.parents[1])


def test_the_installed_app_runs_a_script_and_draws_its_window(installed, tmp_path):
    script = tmp_path / "mine.py"
    script.write_text("import torch\nx = torch.tensor([1.0, 2.0], requires_grad=True)\n"
                      "(x * x).sum().backward()\nprint(x.grad)\n")
    result = _outside(installed, "run", "mine.py", "--graph", "graph.svg", folder=tmp_path)
    assert (result.returncode, result.stdout) == (0, "tensor([2., 4.])\n"), result.stderr
    assert (tmp_path / "graph.svg").read_text().lstrip().startswith("<?xml")
    shot = _outside(installed, "--screenshot", "window.png", "mine.py", folder=tmp_path)
    assert shot.returncode == 0, shot.stderr
    assert (tmp_path / "window.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("example", EXAMPLES)
def test_every_example_the_wheel_ships_runs_from_it(installed, tmp_path, example):
    # the example as the installed package holds it, run by the installed app
    found = subprocess.run(
        [str(installed), "-c", "from importlib.resources import files; "
         f"print(files('playground.resources') / 'examples' / {example!r})"],
        cwd=tmp_path, capture_output=True, text=True, check=True).stdout.strip()
    assert Path(found).is_relative_to(installed.parents[1])
    result = _outside(installed, "run", found, folder=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip(), "an example prints what it shows"


@pytest.mark.skipif(os.name == "nt", reason="CC names the compiler on POSIX")
def test_without_a_c_compiler_the_build_says_so_and_the_app_too(tmp_path):
    source = _source_copy(tmp_path)
    built = subprocess.run([sys.executable, "-m", "build", "--wheel", "--no-isolation",
                            "--outdir", str(tmp_path / "dist"), str(source)],
                           capture_output=True, text=True, env=dict(os.environ, CC="false"))
    assert built.returncode == 0, built.stderr[-3000:]
    said = built.stdout + built.stderr
    assert "WARNING: the graph layout's C core was not built" in said
    assert "large graphs are laid out in Python, 20-100x slower" in said
    assert "WARNING: the NumPy engine's C kernel module was not built" in said
    assert "sigmoid and silu compute torch's float32 bits in NumPy" in said
    (wheel,) = (tmp_path / "dist").glob("*.whl")
    assert not [name for name in zipfile.ZipFile(wheel).namelist()
                if ("layout/_core" in name.replace(chr(92), '/') or "npgrad/_kernels" in
                    name.replace(chr(92), '/')) and name.endswith((".so", ".pyd"))]
    # the app says which core it runs with
    version = subprocess.run([sys.executable, "-m", "playground", "--version"],
                             capture_output=True, text=True, cwd=tmp_path)
    assert version.returncode == 0 and version.stdout.startswith("autograd-playground ")
    assert "layout core: C (built at install)" in version.stdout  # this checkout built it
    assert "NumPy engine's kernels: C (built at install)" in version.stdout
    without = subprocess.run(
        [sys.executable, "-c", "import sys; sys.modules['playground.layout._core'] = None\n"
         "sys.modules['playground.npgrad._kernels'] = None\n"
         "from playground.__main__ import describe_installation\n"
         "print(describe_installation())"], capture_output=True, text=True, cwd=tmp_path)
    assert "layout core: Python: the C core was not built" in without.stdout
    assert "NumPy engine's kernels: NumPy: the C kernels were not built" in without.stdout
