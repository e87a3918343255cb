"""The rule-based Mariage agent: always legal, claims at 66, and beats random by a wide margin."""

from __future__ import annotations

import pytest

from taas.agents.base import RandomAgent
from taas.agents.heuristic.mariage import MariageHeuristicAgent
from taas.arena import play_game
from taas.arena.evaluate import duplicate_deals
from taas.envs.mariage import env as mariage_env
from taas.envs.mariage.actions import CLAIM


def test_beats_random_on_duplicate_deals():
    tally = duplicate_deals(
        "mariage_v1", "heuristic", deals=100, seed=10_000, allow_false_claims=False
    )
    assert tally.games == 200 and tally.win_interval[0] > 0.8 and tally.mean_return > 1.0


@pytest.mark.parametrize(
    "rules",
    [
        {},
        {"must_head_trick": True, "marriages_in_closed_phase": True},
        {"episode": "match", "exchange_requires_trick": True},
    ],
)
def test_plays_only_legal_actions_and_never_claims_falsely(rules):
    env = mariage_env.raw_env(**rules)  # the raw env raises on an illegal action
    for seed in range(20):
        result = play_game(env, [MariageHeuristicAgent(seed), RandomAgent(seed)], seed=seed)
        for deal in result.infos["player_0"].get("deals", [result.infos["player_0"]["result"]]):
            assert "player_0 claimed 66 falsely" not in deal["reason"]


def test_claims_as_soon_as_it_can():
    env = mariage_env.raw_env()
    env.reset(seed=0)
    agent = env.agent_selection
    env.state.trick_points[int(agent[-1])] = 66
    env.state.tricks[int(agent[-1])] = 1
    obs = env.observe(agent)
    assert MariageHeuristicAgent(0).act(obs["observation"], obs["action_mask"]) == CLAIM
    mask = obs["action_mask"].copy()
    mask[CLAIM] = 0
    assert MariageHeuristicAgent(0).act(obs["observation"], mask) != CLAIM
