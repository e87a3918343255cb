"""The docs site builds with ``mkdocs build --strict`` (a broken link or anchor, a page left out
of the nav, a docstring mkdocstrings cannot load all fail), every env has its page rendered from
its docstring, and the README stays a front door whose example runs."""

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import taas

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
MISSING = [m for m in ("mkdocs", "material", "mkdocstrings_handlers.python")
           if importlib.util.find_spec(m.split(".")[0]) is None
           or importlib.util.find_spec(m) is None]


def test_the_site_builds_strictly_with_a_page_per_env(tmp_path):
    """One build (it takes seconds) checked for what --strict cannot see: every env's page holds
    its rendered docstring, and the CLI page every subcommand's --help."""
    if MISSING:
        pytest.skip(f"the docs extra is not installed ({', '.join(MISSING)} missing): "
                    "pip install -e '.[docs]'")
    build = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path)],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert build.returncode == 0, build.stdout + build.stderr
    for env_id in taas.available_envs():
        game = re.sub(r"_v\d+$", "", env_id)
        page = tmp_path / "envs" / game / "index.html"
        assert page.exists(), f"docs/envs/{game}.md is missing (and its line in mkdocs.yml's nav)"
        html = page.read_text(encoding="utf-8")
        assert "Version History" in html, f"{env_id}: the env's docstring was not rendered"
        assert f"<code>{env_id}</code>" in html
    cli = (tmp_path / "cli" / "index.html").read_text(encoding="utf-8")
    for sub in ("play", "serve", "tournament", "score"):
        assert f'id="taas-{sub}"' in cli, f"taas {sub} --help is not on the CLI page"


def test_readme_is_a_front_door():
    assert len(README.read_bytes()) <= 12 * 1024, "README over 12 KB: move the detail to docs/"


def test_readme_pettingzoo_loop_runs(capsys):
    """The README's Python example, run as written: a seeded game to its end, whose returns
    are every seat's and settle the deal (Mariage: game points, + to one, - to the other)."""
    (code,) = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    exec(compile(code, "README.md", "exec"), {"__name__": "readme"})
    returns = eval(capsys.readouterr().out)
    assert set(returns) == {"player_0", "player_1"}
    assert sum(returns.values()) == 0 and max(returns.values()) > 0
