"""Engine conformance of every game, played to the end of rounds and matches.

Uniform random play ends few rummy rounds (in Continental 19 of 20 are truncated), so the
checker never saw scoring, dealer rotation or tie-breaks. Here each game is driven by a policy
that finishes rounds: the Continental greedy agent, the Rommé and Mariage heuristics, and for
Marriage a state policy that shows whenever a valid show is legal and otherwise discards the
card that leaves the least deadwood.

The suite runs a few episodes per config (seconds). For the long run, set
``TAAS_CONFORMANCE_EPISODES`` (episodes per config, e.g. 2000) and ``-n`` workers::

    TAAS_CONFORMANCE_EPISODES=2000 python -m pytest -q -n 2 tests/test_conformance.py
"""

from __future__ import annotations

import os

import numpy as np
import pytest

import taas.agents
import taas.envs
from taas.envs.core.conformance import agent_policy, check_game, play_states, random_policy
from taas.envs.rummy import melds

EPISODES = int(os.environ.get("TAAS_CONFORMANCE_EPISODES", "0"))
ENVS = {env_id.rsplit("_", 1)[0]: env_id for env_id in taas.envs.available_envs()}


def _agents(spec: str):
    def factory(env_id: str, rules: dict, n: int):
        return lambda seed: agent_policy(
            [taas.agents.make(spec, env_id, seed=seed * 8 + i, config=rules) for i in range(n)]
        )

    return factory


def _marriage(env_id: str, rules: dict, n: int):
    """Show when a valid show is legal, else discard the card leaving the least deadwood; draw
    from the stock (the discard pile when the stock is empty)."""
    from taas.envs.marriage import actions as A

    game = taas.envs.make(env_id, wrapped=False, **rules).game

    def policy(state, player, obs, mask):
        if mask[A.DRAW_STOCK] or mask[A.DRAW_DISCARD]:
            return A.DRAW_STOCK if mask[A.DRAW_STOCK] else A.DRAW_DISCARD
        hand = state.hands[player]
        scorer = game.scorer(state)
        shows = np.flatnonzero(scorer.show_discards(hand) & (mask[A.SHOW : A.SHOW_ALL] > 0))
        if shows.size:
            return A.SHOW + int(shows[0])
        if mask[A.SHOW_ALL] and scorer.can_show(hand):
            return A.SHOW_ALL

        def left(k: int) -> int:
            rest = hand.copy()
            rest[k] -= 1
            return melds.deadwood(rest, scorer.rules)

        return A.DISCARD + min(np.flatnonzero(mask[A.DISCARD : A.SHOW]).tolist(), key=left)

    return lambda seed: policy


# (game, rules, policy factory, episodes in the suite, marks)
CASES = [
    ("continental", {"num_players": 3, "allow_buying": True, "episode": "match"},
     _agents("greedy"), 2),
    ("continental", {"num_players": 6, "allow_buying": True}, _agents("greedy"), 3),
    ("continental", {"num_players": 8, "allow_buying": True}, _agents("greedy"), 2),
    ("marriage", {"num_players": 3, "episode": "match", "num_rounds": 3, "lives_required": 2,
                  "tiebreak_players": "tied_only"}, _marriage, 1),
    ("marriage", {"num_players": 4, "lives_required": 2}, _marriage, 2),
    ("romme", {"on_stock_empty": "reshuffle"}, _agents("heuristic"), 3),
    ("romme", {"num_players": 2, "on_stock_empty": "reshuffle"}, _agents("heuristic"), 2),
    ("mariage", {}, _agents("heuristic"), 10),
    ("mariage", {"allow_false_claims": False, "episode": "match"}, _agents("heuristic"), 2),
    ("mariage", {"episode": "match", "match_mode": "three_in_a_row"},
     lambda env_id, rules, n: random_policy, 5),
]


@pytest.mark.parametrize(
    ("game", "rules", "factory", "episodes"),
    [pytest.param(*case, id=f"{case[0]}-{case[1]}") for case in CASES],
)
def test_conformance_to_the_end_of_rounds(game, rules, factory, episodes):
    env_id = ENVS[game]
    env = taas.envs.make(env_id, wrapped=False, **rules)
    g, observer = env.game, env.observer
    n = EPISODES or episodes
    summary = check_game(g, observer, seeds=range(n), policy=factory(env_id, rules, g.num_players))
    assert summary.episodes == n
    assert summary.truncated <= n // 10, f"{summary.truncated} of {n} episodes truncated"


@pytest.mark.parametrize("game", sorted(ENVS))
def test_states_along_a_policy_reach_the_end_of_the_episode(game):
    env_id = ENVS[game]
    env = taas.envs.make(env_id, wrapped=False)
    g = env.game
    factory = _marriage if game == "marriage" else _agents(
        {"continental": "greedy"}.get(game, "heuristic")
    )
    states = list(play_states(g, 1, factory(env_id, {}, g.num_players)(1), env.observer))
    assert states and states[-1] is states[0]  # one live state, moved on
    assert g.is_terminal(states[0]) and not g.is_truncated(states[0])


def test_the_checker_names_a_rejected_action_that_changes_the_state():
    from taas.envs.mariage.actions import CLOSE
    from taas.envs.mariage.rules import MariageGame

    class Leaky(MariageGame):
        def apply_action(self, state, action, player=None):
            if action == CLOSE and not self.legal_mask(state)[CLOSE]:
                state.turns += 1  # a bug: touched before the check
            super().apply_action(state, action, player)

    env = taas.envs.make(ENVS["mariage"], wrapped=False)
    with pytest.raises(AssertionError, match="rejected close changed the state"):
        check_game(Leaky(env.game.config), env.observer, seeds=range(5), exhaustive_every=1)
