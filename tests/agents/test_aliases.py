"""The aliases every game answers: ``learned`` (its shipped learned player) and ``best`` (its
strongest within 0.2 s a move) resolve through the game's spec, build, and play a legal move;
one a game does not declare fails in one clear line."""

import numpy as np
import pytest

import taas.agents
import taas.envs
from taas.envs.core.spec import AgentEntry, GameSpec


def first_move(env_id: str, spec: str) -> tuple[int, np.ndarray]:
    """The move ``spec`` picks at the first decision of deal 0, and that decision's mask."""
    env = taas.envs.make(env_id, wrapped=False)
    env.reset(seed=0)
    agent = taas.agents.make(spec, env_id, seed=0)
    seat = env.possible_agents.index(env.agent_selection)
    mask = env.observe(env.agent_selection)["action_mask"]
    if agent.uses_state:
        return agent.act_state(env.unwrapped.game, env.unwrapped.state, seat), mask
    return agent.act(env.observe(env.agent_selection)["observation"], mask), mask


@pytest.mark.parametrize("env_id", taas.envs.available_envs())
@pytest.mark.parametrize("alias", taas.agents.ALIASES)
def test_every_declared_alias_builds_and_plays_a_legal_move(env_id, alias):
    spec = taas.envs.spec_for(env_id)
    target = getattr(spec, alias)
    if target is None:
        pytest.skip(f"{env_id} declares no {alias}")
    assert taas.agents.resolve(alias, env_id) == target
    assert taas.agents.offered(env_id)[alias].about.startswith(f"= {target}: ")
    action, mask = first_move(env_id, alias)
    assert mask[action] == 1


def test_every_game_names_a_best_player_and_every_shipped_model_a_learned_one():
    for spec in taas.envs.games():
        assert spec.best is not None, spec.name
        assert (spec.learned is None) == (spec.model is None), spec.name


@pytest.mark.parametrize("env_id", taas.envs.available_envs())
def test_every_learned_player_reads_its_own_observation_alone(env_id):
    """A shipped learned player is an observation agent: it is handed its seat's observation
    and mask, never the engine state (whose hidden cards the envs' own tests keep out of
    every observation), so what it learned with a critic that saw every hand cannot leak."""
    if taas.envs.spec_for(env_id).learned is None:
        pytest.skip(f"{env_id} ships no learned player")
    pytest.importorskip("torch", reason="learned players need torch (the train extra)")
    agent = taas.agents.make("learned", env_id, seed=0)
    assert not agent.uses_state and not hasattr(agent, "act_state")


def test_a_misused_alias_fails_in_one_clear_line():
    # a game without a learned player: tests/toy/test_toy_game.py
    with pytest.raises(ValueError, match="the alias 'best' takes no argument"):
        taas.agents.make("best:3", "mariage_v1")
    with pytest.raises(ValueError, match="unknown agent spec 'bestest'"):
        taas.agents.make("bestest", "mariage_v1")
    with pytest.raises(ValueError, match="'learned' is an alias every game answers"):
        taas.agents.register("learned", AgentEntry("taas.agents.base:RandomAgent", "x"))


def spec(**changes) -> GameSpec:
    fields = dict(name="toy", title="Toy", players="2", envs={"toy_v0": "toy.env"},
                  config="toy:Config", game="toy:Game", observer="toy:Observer")
    return GameSpec(**{**fields, **changes})


def test_a_spec_checks_its_aliases_name_agents_it_offers():
    assert spec(best="random").best == "random"
    with pytest.raises(ValueError, match="best 'heuristic' is not one of its agents"):
        spec(best="heuristic")
    with pytest.raises(ValueError, match="best 'ismcts:50' is not one of"):
        spec(best="ismcts:50")  # no determinizer: no search
    assert spec(best="ismcts:50", determinizer="toy.determinize").best == "ismcts:50"
    with pytest.raises(ValueError, match="learned 'ppo:toy' is not one of"):
        spec(learned="ppo:toy")  # no model ships
    assert spec(learned="ppo:toy", model="toy").learned == "ppo:toy"
    with pytest.raises(ValueError, match=r"agent names \['best'\] are reserved aliases"):
        spec(agents={"best": AgentEntry("toy:B", "a toy")})


def test_taas_agents_lists_what_each_alias_stands_for(capsys):
    from taas.cli import main

    assert main(["agents", "marriage_nepali_v0"]) == 0
    rows = [line.split()[:3] for line in capsys.readouterr().out.splitlines()]
    assert ["best", "=", "ismcts:0.2s:"] in rows
    assert ["learned", "=", "ppo:marriage_nepali:"] in rows
