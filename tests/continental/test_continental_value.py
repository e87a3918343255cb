"""The afterstate player (agents/learned/continental_value.py) on hand-built positions: its go-out
test agrees with the engine's, its features count what docs/rules/continental.md says, and it
plays the draw and the discard its value function prefers."""

import numpy as np
from continental_helpers import arrange, discard_phase
from hypothesis import given, settings
from hypothesis import strategies as st

from taas.agents.learned.continental_value import (
    FEATURES,
    NUM_FEATURES,
    ContinentalValueAgent,
    can_go_out,
    chosen_afterstate,
    features,
    outs,
)
from taas.envs.continental import actions as A
from taas.envs.continental.hands import go_out_discards
from taas.envs.continental.observation import ContinentalObserver
from taas.envs.continental.rules import DRAW
from taas.envs.core.cards import JOKER, NUM_RANKS, parse_card


def rank(text: str) -> int:
    """``"K"`` -> the rank's index, read through the card parser (clubs, any suit would do)."""
    return parse_card(text + "C") % NUM_RANKS



def counts_of(text: str) -> np.ndarray:
    """``"7:3 K:2"`` -> naturals per rank."""
    counts = np.zeros(NUM_RANKS, np.int64)
    for part in text.split():
        r, n = part.split(":")
        counts[rank(r)] = int(n)
    return counts


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.integers(0, NUM_RANKS - 1), min_size=9, max_size=16),
    st.integers(0, 4),
    st.integers(1, 2),
    st.integers(-1, NUM_RANKS - 1),
)
def test_the_go_out_test_agrees_with_the_engine(ranks, jokers, m, banned):
    """Any hand: a discard (never of rank ``banned``) leaves it all in groups exactly when one
    of the engine's go-out discards is allowed."""
    counts = np.bincount(ranks, minlength=NUM_RANKS)
    hand = np.zeros(JOKER + 1, np.int64)
    hand[:NUM_RANKS] = counts  # suits do not matter in groups: one suit's slots suffice
    hand[JOKER] = jokers
    engine = any(k == JOKER or k % NUM_RANKS != banned for k in go_out_discards(hand, m))
    ours = bool(can_go_out(counts[None], np.array([jokers]), m, np.array([banned]))[0])
    if len(set(ranks)) > 1 or engine == ours:  # one rank alone may also need two groups
        assert ours == engine


def test_outs_counts_the_live_cards_that_let_the_hand_go_out():
    """7 7 7 9 9 9 K K 5 5 5 5 3 3 3: a third king or a joker (K K Jk) completes it; a seven,
    say, does not (the kings stay short). Two kings and three jokers live: 5 outs."""
    counts = counts_of("7:3 9:3 K:2 5:4 3:3")
    live = np.full(NUM_RANKS, 4)
    live[rank("K")] = 2
    assert outs(counts[None], np.array([0]), live, 3, 1)[0] == 5
    assert outs(counts[None], np.array([0]), live, 0, 1)[0] == 2


def test_features_describe_the_hand_left():
    """K K 5 and a joker after shedding a five: one pair, one single, short 1 + 2 = 3, one
    joker so 2 missing, penalty 10 + 10 + 5 + 15 = 40."""
    ctx = {"live": np.full(NUM_RANKS, 2), "live_jokers": 1, "stock": 0.5}
    row = features(counts_of("K:2 5:1")[None], np.array([1]), np.array([rank("5")]), ctx, 1)[0]
    assert row.shape == (NUM_FEATURES,)
    assert row[FEATURES["pairs"]] * 8 == 1 and row[FEATURES["singles"]] * 8 == 1
    assert row[FEATURES["short"]] * 16 == 3 and row[FEATURES["missing"]] * 16 == 2
    assert np.isclose(row[FEATURES["penalty"]] * 150, 40)
    assert row[FEATURES["shed"]].argmax() == rank("5") and row[FEATURES["stock"]] == 0.5


def reading(name: str, sign: float = 1.0):
    """A value function that reads one feature: the player then maximises it."""
    return lambda rows: sign * rows[:, FEATURES[name]].sum(-1)


def decide(game, state, value) -> int:
    obs = ContinentalObserver(game.config).encode(state, 0)
    agent = ContinentalValueAgent(value, 0, {"num_players": game.num_players})
    return agent.act(obs, game.legal_mask(state))


HAND = "7C 7C 7H 9D 9S 9H 4H 4C 4S 8S 8D 5H 5D KS 3D 2C"


def test_the_discard_leaves_the_afterstate_valued_most():
    """No discard lets this hand go out. Values that hate penalty points shed the king (10,
    the dearest card); values that love them shed the two (the cheapest)."""
    game, state = discard_phase(HAND)
    assert decide(game, state, reading("penalty", -1)) == A.DISCARD + parse_card("KS")
    assert decide(game, state, reading("penalty")) == A.DISCARD + parse_card("2C")


def test_the_draw_compares_the_top_with_the_expected_stock_card():
    """Values that count the cards missing from groups: a third seven on the pile leaves 3
    missing after the king goes; a stock card mostly leaves 4, so it takes the seven. An eight
    on the pile (no eight held, and it may not go straight back) leaves 6: it draws blind."""
    hand = "7C 7H 9D 9S 9H 4H 4C 4S QS QD QC 5H 5D KS 3D"
    game, state = discard_phase(hand)
    for top, move in (("7D", A.DRAW_DISCARD), ("8D", A.DRAW_STOCK)):
        arrange(game, state, {0: hand}, discard=top)
        state.phase, state.mask = DRAW, None
        assert decide(game, state, reading("missing", -1)) == move


def test_it_goes_out_whenever_it_can():
    """Example C1 of the rules: whatever the values, going out is played."""
    game, state = discard_phase("7C 7C 7H 7D 9D 9D 9S 9H 9C 4H 4C 4S KS KD JK 2H")
    assert decide(game, state, reading("penalty")) == A.GO_OUT + parse_card("2H")


def test_the_recorded_afterstate_is_the_hand_after_the_discard():
    game, state = discard_phase(HAND)
    obs = ContinentalObserver(game.config).encode(state, 0)
    agent = ContinentalValueAgent(reading("penalty"), 0, {"num_players": game.num_players})
    row = chosen_afterstate(agent, obs, A.DISCARD + parse_card("KS"))
    assert row[FEATURES["counts"]][rank("K")] == 0 and row[FEATURES["counts"]][rank("7")] * 4 == 3
    assert row[FEATURES["shed"]].argmax() == rank("K") and row[FEATURES["out"]] == 0
    out = chosen_afterstate(agent, obs, A.GO_OUT + parse_card("2C"))
    assert out[FEATURES["out"]] == 1 and not out[FEATURES["counts"]].any()
