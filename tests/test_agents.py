"""Agent specs, the shared game loop, and the greedy Continental baseline against random."""

import numpy as np
import pytest

import taas.agents
import taas.arena
import taas.envs


def test_available_and_unknown_specs():
    assert {"random", "greedy"} <= set(taas.agents.available("continental_v1"))
    known = r"known: best, greedy, heuristic, ismcts, learned, oracle, ppo, random"
    with pytest.raises(ValueError, match=r"unknown agent spec 'nope'.*" + known):
        taas.agents.make("nope", "continental_v1")
    with pytest.raises(ValueError, match="takes no argument"):
        taas.agents.make("random:5", "continental_v1")


def test_agents_are_seeded_and_only_pick_legal_actions():
    env = taas.envs.make("continental_v1", wrapped=False)  # an illegal action would raise
    picks = []
    for _ in range(2):
        seats = [taas.agents.make("random", "continental_v1", seed=i) for i in range(4)]
        result = taas.arena.play_game(env, seats, seed=5)
        picks.append((result.returns, result.steps))
    assert picks[0] == picks[1]


def test_play_game_checks_the_seat_count():
    with pytest.raises(ValueError, match="3 agents for 4 seats"):
        taas.arena.play_game(
            taas.envs.make("continental_v1"), [taas.agents.RandomAgent(0)] * 3, seed=0
        )


def test_greedy_clearly_beats_random():
    """Greedy in every seat in turn against three random agents: it goes out in most rounds
    and its mean penalty is far below theirs."""
    env = taas.envs.make("continental_v1", wrapped=False)
    greedy_pen, random_pen, wins = [], [], 0
    for seed in range(24):
        seat = seed % 4
        seats = [
            taas.agents.make("random", "continental_v1", seed=100 * seed + i) for i in range(4)
        ]
        seats[seat] = taas.agents.make("greedy", "continental_v1", seed=seed)
        returns = np.array(taas.arena.play_game(env, seats, seed=seed).returns)
        wins += returns[seat] == 0 and returns.min() < 0
        greedy_pen.append(-returns[seat])
        random_pen.extend(-np.delete(returns, seat))
    assert wins >= 20
    assert np.mean(greedy_pen) * 5 < np.mean(random_pen)


def test_a_ppo_agent_without_torch_is_one_line(monkeypatch):
    """``make demo`` installs no torch: ``ppo:mariage`` says what to install (a ValueError the
    CLI prints as one line), not a 30-line import traceback."""
    import sys

    monkeypatch.setitem(sys.modules, "torch", None)  # import torch fails as if not installed
    monkeypatch.delitem(sys.modules, "taas.agents.learned.ppo", raising=False)
    with pytest.raises(ValueError, match=r"agent 'ppo:mariage': ppo agents need torch: from a "
                                         r"checkout, run `make train`") as err:
        taas.agents.make("ppo:mariage", "mariage_v1")
    assert "\n" not in str(err.value)
