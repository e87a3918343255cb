"""Observations: what each slice says, and no leak of hidden cards (opponent hand, talon order)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from mariage_helpers import game, play, position

import taas.agents
from taas.envs.core.conformance import agent_policy, play_states
from taas.envs.mariage.actions import CLAIM, CLOSE, MARRY, NUM_CARDS, bits, cards_of, parse
from taas.envs.mariage.observation import LAYOUT, SIZE, MariageObserver
from taas.envs.mariage.rules import FOLLOW, MariageGame, MariageState


def cards(obs: np.ndarray, key: str) -> set[int]:
    return set(np.flatnonzero(obs[LAYOUT[key]]).tolist())


def test_layout_covers_the_vector_once():
    spans = sorted((s.start, s.stop) for s in LAYOUT.values())
    assert spans[0][0] == 0 and spans[-1][1] == SIZE
    assert all(a[1] == b[0] for a, b in itertools.pairwise(spans))


def test_exchange_marriage_and_lead_are_seen_by_the_opponent():
    g = game()
    obs = MariageObserver()
    s = position(g, "7D KH QH 9S 8S 7S", "AH 10H AC JC 9D 7C", indicator="JD")
    o1 = obs.encode(s, 1)
    assert cards(o1, "indicator") == set(parse("JD")) and cards(o1, "trump") == {2}
    assert cards(o1, "hand") == set(parse("AH 10H AC JC 9D 7C"))
    play(g, s, "exchange marryH QH")
    o1, o0 = obs.encode(s, 1), obs.encode(s, 0)
    assert cards(o1, "indicator") == set(parse("7D"))
    assert cards(o1, "opp_known") == set(parse("JD KH"))
    assert cards(o1, "lead") == cards(o1, "played_opp") == set(parse("QH"))
    assert cards(o1, "marriages_opp") == {1} and cards(o0, "marriages_me") == {1}
    assert o1[LAYOUT["points"]][4] == pytest.approx(20 / 100)  # opp's marriage, pending
    assert o1[LAYOUT["points"]][5] == 0  # ... so not in the opp's score
    assert o1[LAYOUT["my_turn"]][0] == 1 and o0[LAYOUT["my_turn"]][0] == 0
    assert cards(o0, "phase") == {FOLLOW}
    assert o0[LAYOUT["talon"]][0] == pytest.approx(1.0)


def test_close_turns_the_indicator_down_but_it_is_remembered():
    g = game()
    obs = MariageObserver()
    s = position(g, "7D KH QH 9S 8S 7S", "AH 10H AC JC 9D 7C", indicator="JD")
    play(g, s, "close")
    o0, o1 = obs.encode(s, 0), obs.encode(s, 1)
    assert not cards(o1, "indicator") and cards(o1, "indicator_out") == set(parse("JD"))
    assert o0[LAYOUT["talon_state"]].tolist() == [1, 0, 0]
    assert o1[LAYOUT["talon_state"]].tolist() == [0, 1, 0]
    assert o1[LAYOUT["no_trick_at_close"]][0] == 1


def hidden_variant(s: MariageState, observer: int, rng: np.random.Generator) -> MariageState:
    """The same state with the cards ``observer`` cannot see dealt differently: the opponent's
    unseen cards and the face-down talon cards are shuffled together."""
    opp = 1 - observer
    unseen = s.hands[opp] & ~s.known[opp]
    pool = cards_of(unseen) + s.talon[1:]
    rng.shuffle(pool)
    n = bin(unseen).count("1")
    v = s.clone()
    v.hands[opp] = (s.hands[opp] & s.known[opp]) | bits(pool[:n])
    v.talon = s.talon[:1] + pool[n:]
    return v


def advance(seed: int, until) -> tuple:
    """Random play without claims or closes from deal seeds ``seed * 100, ...`` until
    ``until(game, state)`` holds (the first deal that gets there)."""
    g = game()
    for attempt in range(seed * 100, seed * 100 + 100):
        s = g.new_state(np.random.default_rng(attempt))
        rng = np.random.default_rng(attempt)
        while not g.is_terminal(s):
            if until(g, s):
                return g, s
            mask = g.legal_mask(s).copy()
            mask[CLAIM] = mask[CLOSE] = 0
            g.apply_action(s, int(rng.choice(np.flatnonzero(mask))))
    raise AssertionError("no deal reached the situation")


SITUATIONS = {
    "open": lambda g, s: len(s.talon) <= 14,
    "close": lambda g, s: g.legal_mask(s)[CLOSE] and len(s.talon) <= 12,
    "marriage": lambda g, s: g.legal_mask(s)[MARRY:MARRY + 4].any(),
    "follow": lambda g, s: s.phase == FOLLOW and len(s.talon) <= 10,
}


@pytest.mark.parametrize("situation", sorted(SITUATIONS))
@pytest.mark.parametrize("seed", range(6))
def test_states_differing_in_hidden_cards_look_the_same(situation, seed):
    g, s = advance(seed, SITUATIONS[situation])
    if situation == "close":
        play(g, s, "close")
    if situation == "marriage":
        g.apply_action(s, int(np.flatnonzero(g.legal_mask(s)[MARRY:MARRY + 4])[0]) + MARRY)
    observer = MariageObserver()
    rng = np.random.default_rng(seed)
    for player in (0, 1):
        base = observer.encode(s, player)
        for _ in range(5):
            v = hidden_variant(s, player, rng)
            assert np.array_equal(observer.encode(v, player), base)
        # the test can fail: the same shuffle seen from the other seat changes that seat's hand
        v = hidden_variant(s, player, np.random.default_rng(seed + 100))
        if v.hands[1 - player] != s.hands[1 - player]:
            other = 1 - player
            assert not np.array_equal(observer.encode(v, other), observer.encode(s, other))


def test_no_leak_at_any_state_of_heuristic_matches():
    """The heuristic closes, exhausts the talon and plays on into later deals, where random
    play rarely gets: every state along its matches hides what it should."""
    g = game(episode="match", allow_false_claims=False)
    observer = MariageObserver()
    rng = np.random.default_rng(0)
    for seed in (0,):
        agents = [taas.agents.make("heuristic", MariageGame.env_id, seed=seed * 2 + i)
                  for i in range(2)]
        states = 0
        for s in play_states(g, seed, agent_policy(agents), observer):
            player = s.to_move
            assert np.array_equal(observer.encode(hidden_variant(s, player, rng), player),
                                  observer.encode(s, player))
            states += 1
        assert s.deal_no > 0 and states > 50


def test_observation_never_holds_the_opponents_unseen_cards():
    _, s = advance(7, SITUATIONS["follow"])
    observer = MariageObserver()
    for player in (0, 1):
        o = observer.encode(s, player)
        secret = s.hands[1 - player] & ~s.known[1 - player]
        shown = set()
        for key in ("hand", "indicator", "lead", "opp_known", "played_opp", "played_me"):
            shown |= cards(o, key)
        assert not shown & set(cards_of(secret))
        assert len(cards(o, "hand")) + len(cards(o, "played_me")) <= NUM_CARDS


def test_every_feature_lies_in_exact_unit_bounds_even_at_the_extremes():
    obs = MariageObserver()
    assert (obs.low == 0).all() and (obs.high == 1).all()
    g = game(last_trick_bonus=True)
    s = position(g, "AS", "7C", indicator="7S", full=False)
    # the most a score can be: all 120 card points, all four marriages, the last-trick bonus
    s.trick_points, s.marriage_points, s.bonus, s.tricks = [120, 0], [100, 0], [10, 0], [16, 0]
    # a long match keeps counting: nothing bounds raw points or a streak in game-points mode
    s.game_points, s.raw_points, s.streak = [40, 6], [9_000, 1_200], [25, 0]
    o = obs.encode(s, 0)
    assert ((o >= 0) & (o <= 1)).all()
    assert o[LAYOUT["points"]][:3] == pytest.approx([1, 1, 1])
    match = o[LAYOUT["match"]]
    assert match == pytest.approx(np.tanh([40 / 7, 6 / 7, 9, 1.2, 25 / 3, 0]))
    assert match[1] < match[0] and match[3] < match[2]  # the squash keeps the order
