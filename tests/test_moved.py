"""The names that moved in taas 0.2 still import from their old homes, for one minor version,
with a DeprecationWarning, and are the very objects of the new homes."""

import importlib

import pytest

import taas.agents
import taas.arena
from taas._moved import MOVED


@pytest.mark.parametrize("old", sorted(MOVED))
def test_an_old_module_name_warns_and_forwards(old):
    new = importlib.import_module(MOVED[old])
    with pytest.warns(DeprecationWarning, match=f"{old} moved to {MOVED[old]}"):
        stand_in = importlib.import_module(old)
    name = next(n for n in new.__all__) if hasattr(new, "__all__") else next(
        n for n, v in vars(new).items() if not n.startswith("_") and callable(v)
        and getattr(v, "__module__", None) == new.__name__)
    assert getattr(stand_in, name) is getattr(new, name)


def test_old_attribute_homes_warn_and_forward():
    from taas.agents.learned import ppo
    from taas.agents.search import ismcts

    for package, attr, obj in (
        (taas.agents, "play_game", taas.arena.play_game),
        (taas.agents, "single_agent_env", taas.arena.single_agent_env),
        (importlib.import_module("taas.agents.base"), "GameResult", taas.arena.GameResult),
        (importlib.import_module("taas.agents.search"), "SearchAgent", ismcts.SearchAgent),
        (importlib.import_module("taas.agents.learned"), "PPOAgent", ppo.PPOAgent),
    ):
        with pytest.warns(DeprecationWarning, match="moved to"):
            assert getattr(package, attr) is obj
    with pytest.raises(AttributeError):
        taas.agents.no_such_name  # noqa: B018
