"""The wheel: built from a copy of the sources, its one top-level package is ``taas`` with every
package folder in it, and installed into a fresh venv outside the repository it imports and
runs the ``taas`` command from there (not from the source tree)."""

import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("taas", "envs", "agents", "training", "benchmarks")

pytestmark = pytest.mark.packaging


def _run(cmd: list, **kwargs) -> subprocess.CompletedProcess:
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=300, **kwargs)
    assert out.returncode == 0, f"{cmd}\n{out.stdout}\n{out.stderr}"
    return out


def expected_packages() -> set[str]:
    """Every folder with an ``__init__.py`` under the source folders, as its path in the
    wheel (``envs/core`` -> ``taas/envs/core``)."""
    found = set()
    for top in SOURCES:
        for init in (ROOT / top).rglob("__init__.py"):
            rel = init.parent.relative_to(ROOT).as_posix()
            found.add(rel if top == "taas" else f"taas/{rel}")
    return found


def build_wheel(tmp_path: Path) -> Path:
    src = tmp_path / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, src / name)
    junk = shutil.ignore_patterns("__pycache__", "*.egg-info", "*.pyc", "*.nbi", "*.nbc")
    for top in SOURCES:
        shutil.copytree(ROOT / top, src / top, ignore=junk)
    dist = tmp_path / "dist"
    pip = [sys.executable, "-m", "pip"]
    _run([*pip, "wheel", "-q", "--no-deps", "--no-index", "--no-build-isolation", "-w", dist, src])
    (built,) = dist.glob("taas_rl-*.whl")
    return built


def check_contents(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    tops = {n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")}
    assert tops == {"taas"}
    packages = {n.rpartition("/")[0] for n in names if n.endswith("/__init__.py")}
    assert expected_packages() <= packages, expected_packages() - packages
    assert "taas/cli/__init__.py" in names
    assert {"taas/agents/models/mariage.pt", "taas/web/static/index.html"} <= set(names)


def check_install(wheel: Path, tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", venv])
    python = venv / "bin" / "python"
    pip = [sys.executable, "-m", "pip", "--python", python]
    _run([*pip, "install", "-q", "--no-deps", "--no-index", wheel])
    # the dependencies (numpy, pettingzoo, ...) come from this interpreter's site-packages; a
    # path in a .pth file is put on sys.path without running that folder's own .pth files,
    # so the editable install's finder (which maps taas to the repository) stays inactive
    site = Path(_run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"])
                .stdout.strip())
    (site / "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    env = {"PATH": f"{venv / 'bin'}:/usr/bin:/bin", "HOME": str(tmp_path),
           "TAAS_NO_NUMBA": "1"}  # the test is of the package, not of numba's compiler
    code = (
        "import taas; e = taas.make(taas.available_envs()[0]); e.reset(seed=0); "
        "print(taas.__file__); print(taas.__version__)"
    )
    out = _run([python, "-c", code], cwd=tmp_path, env=env).stdout.split()
    assert Path(out[0]).is_relative_to(venv), out
    assert out[1] != "0+unknown"
    listed = _run([venv / "bin" / "taas", "envs"], cwd=tmp_path, env=env).stdout
    ids = _run([python, "-c", "import taas; print(*taas.available_envs())"], cwd=tmp_path,
               env=env).stdout.split()
    assert ids and all(f"{i}\n" in listed for i in ids)
    assert os.access(venv / "bin" / "taas", os.X_OK)


def test_wheel(tmp_path):
    """One test, so that parallel workers never build the wheel twice."""
    wheel = build_wheel(tmp_path)
    check_contents(wheel)
    check_install(wheel, tmp_path)
