"""The game registry: each game's spec is found from its own folder, lookups fail in one clear
line, specs are validated, importing one game imports no other, and no layer above the games
branches on a game's name or imports a game's modules."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import taas
import taas.envs
from taas.envs.core.spec import AgentEntry, GameSpec

ROOT = Path(__file__).resolve().parents[2]
ABOVE_THE_GAMES = ("taas/cli", "taas/play", "taas/web", "taas/tournament", "taas/arena",
                   "training")


def spec(**changes) -> GameSpec:
    fields = dict(name="toy", title="Toy", players="2", envs={"toy_v0": "toy.env"},
                  config="toy:Config", game="toy:Game", observer="toy:Observer")
    return GameSpec(**{**fields, **changes})


def test_every_built_in_game_declares_its_envs_in_its_own_package():
    names = {s.name for s in taas.envs.games()}
    assert {"continental", "mariage", "marriage", "marriage_nepali", "romme"} <= names
    for s in taas.envs.games():
        for env_id, module in s.envs.items():
            assert module.startswith(f"taas.envs.{s.name}.")
            assert taas.envs.spec_for(env_id) is s
            assert taas.envs.env_module(env_id).Config is taas.envs.load(s.config)


def test_lookups_fail_in_one_clear_line():
    with pytest.raises(ValueError, match="romme_v0 is retired: use romme_v1"):
        taas.make("romme_v0")
    with pytest.raises(ValueError, match=r"unknown env 'nosuch_v3'; available: continental_v1"):
        taas.make("nosuch_v3")
    with pytest.raises(ValueError, match="expected a string"):
        taas.envs.spec_for(3)


def test_a_spec_is_checked_when_it_is_made():
    with pytest.raises(ValueError, match="declares no env ids"):
        spec(envs={})
    with pytest.raises(ValueError, match="both current and retired"):
        spec(retired={"toy_v0": "toy_v1"})
    with pytest.raises(ValueError, match="default_opponent 'heuristic' is not one of"):
        spec(default_opponent="heuristic")
    ok = spec(agents={"heuristic": AgentEntry("toy:H", "a toy rule")},
              default_opponent="heuristic", eval_opponent="ismcts:50")
    assert ok.evaluation_opponent() == "ismcts:50"
    with pytest.raises(TypeError):
        ok.envs["toy_v1"] = "x"  # frozen all the way down


def test_register_refuses_a_second_game_with_a_taken_name_or_id():
    toy = taas.envs.register(spec())
    try:
        assert taas.envs.register(spec()) is toy  # the same spec again: a no-op
        with pytest.raises(ValueError, match="already registered"):
            taas.envs.register(spec(title="Another"))
        with pytest.raises(ValueError, match="belong to mariage"):
            taas.envs.register(spec(name="other", envs={"mariage_v1": "x.env"}))
    finally:
        taas.envs.unregister("toy")
    assert "toy_v0" not in taas.available_envs()


def test_importing_one_game_imports_no_other():
    code = ("import sys, taas; env = taas.make('mariage_v1'); env.reset(seed=0); "
            "print(sorted({m.split('.')[2] for m in sys.modules if m.startswith('taas.envs.')}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT.parent, env={"TAAS_NO_NUMBA": "1", "PATH": "/usr/bin:/bin"},
                         timeout=120, check=True).stdout
    assert ast.literal_eval(out.strip()) == ["core", "mariage"]


def _game_words() -> set[str]:
    return {s.name for s in taas.envs.games()}


def test_no_layer_above_the_games_branches_on_a_game_or_imports_one():
    """The registry is the only way up: no ``import taas.envs.<game>``, no comparison or
    ``startswith`` with a game's name in the CLI, tables, tournaments, arena or training."""
    games = _game_words()
    found = []
    for folder in ABOVE_THE_GAMES:
        for path in sorted((ROOT / folder).rglob("*.py")):
            tree = ast.parse(path.read_text())
            for node in ast.walk(tree):
                modules = []
                if isinstance(node, ast.Import):
                    modules = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom) and node.module:
                    modules = [node.module]
                for m in modules:
                    parts = m.split(".")
                    if parts[:2] == ["taas", "envs"] and len(parts) > 2 and parts[2] in games:
                        found.append(f"{path.relative_to(ROOT)}:{node.lineno} imports {m}")
                if isinstance(node, (ast.Compare, ast.Call)):
                    for c in ast.walk(node):
                        if isinstance(c, ast.Constant) and isinstance(c.value, str) and any(
                                c.value.split("_v")[0] == g for g in games):
                            found.append(f"{path.relative_to(ROOT)}:{node.lineno} {c.value!r}")
    assert not found, found
