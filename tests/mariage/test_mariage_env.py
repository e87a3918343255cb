"""mariage_v1 through PettingZoo: API and seed tests, engine conformance, errors, info."""

from __future__ import annotations

import functools

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from taas.envs.core.conformance import check_game
from taas.envs.mariage import env as mariage_env
from taas.envs.mariage.actions import CLAIM, NUM_ACTIONS, action_to_str
from taas.envs.mariage.config import Config
from taas.envs.mariage.observation import SIZE, MariageObserver
from taas.envs.mariage.rules import MariageGame

CONFIGS = [
    {}, {"must_head_trick": True}, {"allow_false_claims": False}, {"last_trick_bonus": True},
    {"episode": "match"},
]


@pytest.mark.parametrize("rules", CONFIGS)
def test_pettingzoo_api_and_seed(rules):
    api_test(mariage_env.env(**rules), num_cycles=300)
    seed_test(functools.partial(mariage_env.env, **rules), num_cycles=300)


@pytest.mark.parametrize("rules", [
    *CONFIGS,
    {"episode": "match", "match_mode": "three_in_a_row", "reward": "win"},
    {"episode": "match", "match_mode": "raw_points", "match_target": 300,
     "allow_false_claims": False},
    {"marriages_in_closed_phase": True, "exchange_requires_trick": True,
     "exchange_min_facedown": 2, "allow_false_claims": False},
])
def test_conformance(rules):
    config = Config(**rules)
    check_game(MariageGame(config), MariageObserver(config), seeds=range(4))


def test_spaces_and_agents():
    env = mariage_env.raw_env()
    env.reset(seed=0)
    assert env.possible_agents == ["player_0", "player_1"]
    assert env.action_space("player_0").n == NUM_ACTIONS == 39
    assert env.observation_space("player_1")["observation"].shape == (SIZE,)


def test_illegal_action_raises_in_raw_env_and_ends_wrapped_env():
    env = mariage_env.raw_env(allow_false_claims=False)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="illegal action 38 \\(claim\\)"):
        env.step(CLAIM)
    wrapped = mariage_env.env(allow_false_claims=False)
    wrapped.reset(seed=0)
    agent = wrapped.agent_selection
    wrapped.step(CLAIM)
    assert wrapped.terminations[agent] and wrapped.rewards[agent] == -1


def test_bad_rules_raise_value_error():
    with pytest.raises(ValueError, match="unknown mariage rule"):
        mariage_env.env(must_head=True)
    with pytest.raises(ValueError, match="match_mode"):
        mariage_env.raw_env(match_mode="1001")


def test_info_explains_the_result_and_rewards_are_zero_sum():
    env = mariage_env.raw_env(render_mode="ansi")
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    total = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        total[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    result = info["result"]
    assert result["winner"] in (0, 1) and result["game_points"] in (1, 2, 3)
    assert result["reason"].startswith(f"player_{result['winner']} wins")
    assert total[f"player_{result['winner']}"] == result["game_points"]
    assert sum(total.values()) == 0
    assert info["config"]["must_head_trick"] is False
    assert "wins" in env.render()


def test_action_names():
    names = [action_to_str(a) for a in range(NUM_ACTIONS)]
    assert names[0] == "play AS" and names[1] == "play 10S" and names[31] == "play 7C"
    assert names[32:] == ["marry S", "marry H", "marry D", "marry C", "exchange", "close", "claim"]
    with pytest.raises(ValueError):
        action_to_str(NUM_ACTIONS)


def test_info_scores_are_current_at_every_step():
    env = mariage_env.raw_env(allow_false_claims=False)
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    seen = set()
    for _agent in env.agent_iter():
        obs, _, term, trunc, info = env.last()
        engine = env.game
        assert info["scores"] == [engine.score(env.state, 0), engine.score(env.state, 1)]
        seen.add(tuple(info["scores"]))
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert len(seen) > 2
