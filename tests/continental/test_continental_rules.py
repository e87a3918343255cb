"""Continental Rummy rules: the worked examples C1–C10 of docs/rules/continental.md and every
config flag."""

import numpy as np
import pytest
from continental_helpers import arrange, discard_phase
from hypothesis import given, settings
from hypothesis import strategies as st

from taas.envs.continental import actions as A
from taas.envs.continental.config import Config
from taas.envs.continental.hands import can_group, go_out_discards, rank_counts
from taas.envs.continental.rules import BUY, DISCARD, DRAW, ContinentalGame, score_hand
from taas.envs.core.cards import JOKER, card_str, parse_card, parse_cards, to_counts


def go_out_cards(game, state) -> set[str]:
    mask = game.legal_mask(state)
    return {card_str(k) for k in range(JOKER + 1) if mask[A.GO_OUT + k]}


def groupable(text: str, min_naturals: int = 1) -> bool:
    hand = to_counts(parse_cards(text))
    return can_group(rank_counts(hand), int(hand[JOKER]), min_naturals)


# -- worked examples ---------------------------------------------------------------------


def test_c1_going_out_the_only_legal_discard():
    game, state = discard_phase("7C 7C 7H 7D 9D 9D 9S 9H 9C 4H 4C 4S KS KD JK 2H")
    assert go_out_cards(game, state) == {"2H"}
    game.apply_action(state, A.GO_OUT + parse_card("2H"))
    assert state.over and state.winner == 0 and state.table.discard[-1] == parse_card("2H")


def test_c2_jokers_fill_two_groups():
    game, state = discard_phase("3C 3D JK QC QD JK 6S 6S 6H 6D 10D 10C 10S 10H 10D 2D")
    assert go_out_cards(game, state) == {"2D"}


def test_c3_cannot_go_out_must_discard():
    game, state = discard_phase("7C 7D 7H 8S 8S 8D 9C 9D 9H JS JH JD KC QD JK AS")
    assert go_out_cards(game, state) == set()
    assert game.legal_mask(state)[A.DISCARD + parse_card("AS")]


def test_c4_runs_do_not_count():
    game, state = discard_phase("5S 6S 7S 9C 9D 9H QS QD QH KC KD KH 2S 2D 2H 4C")
    assert go_out_cards(game, state) == set()


def test_c5_joker_groups_need_a_natural_card():
    assert groupable("JK JK 5H 7C 7C 7H")  # Jk Jk 5♥ is a group
    assert groupable("7C 7C 7H 9S 9S 9D")  # duplicates are normal
    assert not groupable("JK JK JK")  # no natural card
    assert not groupable("JK JK 5H")  # one group only: going out needs two


def test_c6_losers_charge_counts_the_whole_hand():
    hand = "AC 2D 3S 9S 10H JC QD KS JK 8S 8S 8D 5H 5C 6D"
    assert score_hand(parse_cards(hand))["penalty"] == 110
    game, state = discard_phase("7C 7C 7H 7D 9D 9D 9S 9H 9C 4H 4C 4S KS KD JK 2H")
    arrange(game, state, {0: "7C 7C 7H 7D 9D 9D 9S 9H 9C 4H 4C 4S KS KD JK 2H", 1: hand})
    game.apply_action(state, A.GO_OUT + parse_card("2H"))
    assert state.history[-1]["penalties"][:2] == [0, 110]
    assert game.returns(state)[1] == -110


def test_c7_tie_break_round_among_tied_players_only():
    game = ContinentalGame(Config(num_players=4, episode="match", num_rounds=4))
    state = game.new_state(np.random.default_rng(1))
    winning = "7C 7C 7H 7D 9D 9D 9S 9H 9C 4H 4C 4S KS KD JK 2H"
    losers = {1: "2C 3C", 2: "AC", 3: "AD 4D 6D"}  # 5, 1 and 11 points
    arrange(game, state, {0: winning, **{p: h for p, h in losers.items()}})
    state.totals[:] = [75, 85, 74, 85]
    state.rounds_played, state.current, state.phase = 3, 0, DISCARD
    game.apply_action(state, A.GO_OUT + parse_card("2H"))
    assert state.totals.tolist() == [75, 90, 75, 96]
    assert not state.over and state.tiebreak and state.active == [0, 2]
    assert state.hands[[1, 3]].sum() == 0 and state.hands[[0, 2]].sum(axis=1).tolist() == [15, 15]
    assert state.current in (0, 2) and game.shoe(state).sum() == 108
    arrange(game, state, {2: winning, 0: "KC"})
    state.current, state.phase = 2, DISCARD
    game.apply_action(state, A.GO_OUT + parse_card("2H"))
    assert state.over and state.winner == 2 and state.totals.tolist() == [85, 90, 75, 96]


@pytest.mark.parametrize(
    ("large_table", "total", "dealt", "stock"),
    [("third_deck", 162, 120, 41), ("deal_13", 108, 104, 3)],
)
def test_c8_large_table(large_table, total, dealt, stock):
    game = ContinentalGame(Config(num_players=8, large_table=large_table))
    state = game.new_state(np.random.default_rng(0))
    assert game.shoe(state).sum() == total
    assert (
        state.hands.sum() == dealt
        and len(state.table.discard) == 1
        and len(state.table.stock) == stock
    )


def test_c9_reshuffle_when_the_stock_runs_out():
    game, state = discard_phase("7C 7C 7H 7D 9D 9D 9S 9H 9C 4H 4C 4S KS KD JK")
    arrange(game, state, {0: "7C 7C 7H"}, discard="4D JS 9C 2H", stock_top="QH")
    state.hands[1] += to_counts(state.table.stock[:-1]).astype(
        np.int8
    )  # park the rest of the stock
    state.table.stock = state.table.stock[-1:]
    state.phase, state.current = DRAW, 0
    game.apply_action(state, A.DRAW_STOCK)
    assert state.hands[0, parse_card("QH")] == 1
    assert state.table.discard == parse_cards("2H")
    assert sorted(state.table.stock) == sorted(parse_cards("4D JS 9C"))


def test_c10_an_ace_costs_one():
    assert score_hand(parse_cards("AS"))["penalty"] == 1
    assert score_hand(parse_cards("AS KD 9C JK"))["penalty"] == 1 + 10 + 9 + 15


# -- the exact go-out test ----------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(
    ranks=st.lists(st.integers(0, 12), min_size=1, max_size=4, unique=True),
    picks=st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3), st.booleans()), max_size=18),
    min_naturals=st.sampled_from([1, 2]),
)
def test_go_out_discards_matches_one_check_per_discard(ranks, picks, min_naturals):
    hand = np.zeros(JOKER + 1, np.int8)
    for r, suit, joker in picks:
        hand[JOKER if joker else ranks[r % len(ranks)] + 13 * suit] += 1
    slow = set()
    for k in np.flatnonzero(hand):
        rest = hand.copy()
        rest[k] -= 1
        if can_group(rank_counts(rest), int(rest[JOKER]), min_naturals):
            slow.add(int(k))
    assert set(go_out_discards(hand, min_naturals)) == slow


def test_can_group_against_explicit_partitions():
    # one rank: two groups need two natural cards (min 1) and six cards in all
    assert groupable("5H 5S JK JK JK JK") and not groupable("5H JK JK JK JK JK")
    assert groupable("5H 5S 5D 5C 5C 5S") and not groupable("5H 5S 5D 5C 5C")
    assert groupable("5H 5S 5D 5C 5C 5S", min_naturals=2)
    assert not groupable("5H 5S JK JK JK JK", min_naturals=2)


# -- every flag flipped ----------------------------------------------------------------------


def test_jokers_zero_removes_them_from_the_shoe():
    for jokers, total in [(4, 108), (0, 104)]:
        game = ContinentalGame(Config(jokers=jokers))
        assert game.shoe(None).sum() == total and game.shoe(None)[JOKER] == jokers


@pytest.mark.parametrize("hand_size", [12, 13, 15])
def test_hand_size(hand_size):
    game = ContinentalGame(Config(hand_size=hand_size))
    state = game.new_state(np.random.default_rng(2))
    assert state.hands.sum(axis=1).tolist() == [hand_size] * 4


def test_min_naturals_per_group_two():
    hand = "JK JK 5H 7C 7C 7H 9S 9S 9D QH QH QS KC KC KD 2H"
    game, state = discard_phase(hand)
    assert go_out_cards(game, state) == {"2H", "5H"}  # Jk Jk + the other single is a group
    game, state = discard_phase(hand, min_naturals_per_group=2)
    assert go_out_cards(game, state) == set()


def test_must_discard_to_go_out_false_allows_laying_everything():
    hand = "7C 7C 7H 7D 9D 9D 9S 9H 9C 4H 4C 4S KS KD JK KH"
    game, state = discard_phase(hand)
    assert not game.legal_mask(state)[A.GO_OUT_NO_DISCARD]
    assert go_out_cards(game, state)  # with a discard it still can
    game, state = discard_phase(hand, must_discard_to_go_out=False)
    assert game.legal_mask(state)[A.GO_OUT_NO_DISCARD]
    game.apply_action(state, A.GO_OUT_NO_DISCARD)
    assert state.over and state.winner == 0 and state.table.discard == parse_cards("3D")


@pytest.mark.parametrize("forbid", [True, False])
def test_forbid_rediscard_of_drawn_discard(forbid):
    game, state = discard_phase("2C", forbid_rediscard_of_drawn_discard=forbid)
    arrange(game, state, {0: "7C 7C 7H 7D 9D 9D 9S 9H 9C 4H 4C 4S KS KD JK"}, discard="3D 2H")
    state.phase = DRAW
    game.apply_action(state, A.DRAW_DISCARD)
    mask = game.legal_mask(state)
    assert mask[A.DISCARD + parse_card("2H")] == (not forbid)
    assert mask[A.GO_OUT + parse_card("2H")] == (not forbid)  # 2H is the only go-out discard
    assert state.table.taken_by[0, parse_card("2H")] == 1


def test_rediscard_ban_covers_an_identical_copy_and_the_go_out_discard():
    """Holding 9C and taking another 9C: neither copy may be discarded or be the go-out
    discard this turn; other cards of the rank still may."""
    game, state = discard_phase("2C")
    arrange(game, state, {0: "7C 7C 7H 7D 9D 9D 9S 9H 9C 4H 4C 4S KS KD JK"}, discard="3D 9C")
    state.phase = DRAW
    game.apply_action(state, A.DRAW_DISCARD)
    mask = game.legal_mask(state)
    assert not mask[A.DISCARD + parse_card("9C")] and not mask[A.GO_OUT + parse_card("9C")]
    assert mask[A.DISCARD + parse_card("9D")] and mask[A.GO_OUT + parse_card("9D")]
    game.apply_action(state, A.DISCARD + parse_card("9D"))
    assert state.table.drawn_discard == parse_card("9C")  # until the next player draws
    game.apply_action(state, A.DRAW_STOCK)
    assert state.table.drawn_discard == -1


def test_stock_rebuilt_when_a_player_must_draw_after_a_buy_emptied_it():
    """Rules §5.5 after a buy (issue 9 item 6): stock 2S 3S 4S 5S (5S on top), pile 9H. Seat 0
    draws 5S and discards it, seat 2 buys it (+4S 3S), seat 1 draws the last card 2S and
    discards it: the pile 9H 2S gives seat 2 a new stock of 9H."""
    game = ContinentalGame(Config(num_players=4, allow_buying=True))
    state = game.new_state(np.random.default_rng(0))
    state.dealer = 3
    arrange(game, state, {}, discard="9H", stock_top="5S 4S 3S 2S")
    state.hands[3] += to_counts(state.table.stock[:-4]).astype(np.int8)  # park the rest
    state.table.stock = state.table.stock[-4:]
    state.current, state.phase = 0, DRAW
    game.apply_action(state, A.DRAW_STOCK)
    game.apply_action(state, A.DISCARD + parse_card("5S"))
    assert state.phase == BUY and state.current == 2
    game.apply_action(state, A.BUY)
    assert state.table.stock == parse_cards("2S") and state.current == 1
    game.apply_action(state, A.DRAW_STOCK)
    assert state.table.stock == [] and state.table.discard == parse_cards("9H")
    game.apply_action(state, A.DISCARD + parse_card("2S"))
    assert state.current == 2 and state.phase == DRAW
    assert state.table.stock == parse_cards("9H") and state.table.discard == parse_cards("2S")
    assert game.legal_mask(state)[A.DRAW_STOCK]
    game.apply_action(state, A.DRAW_STOCK)
    assert state.hands[2, parse_card("9H")] >= 1


def test_every_flag_of_the_rules_table_is_accepted():
    config = Config(tiebreak_players="tied_only", meld_type="sets")
    assert config.tiebreak_players == "tied_only" and config.meld_type == "sets"
    with pytest.raises(ValueError, match=r"meld_type='sequences'.*\['sets'\]"):
        Config(meld_type="sequences")
    with pytest.raises(ValueError, match=r"tiebreak_players='all'.*\['tied_only'\]"):
        Config(tiebreak_players="all")


def test_allow_buying_asks_the_other_seats_in_order_and_charges_two_cards():
    game, state = discard_phase("7C 7C 7H 7D 9D 9D 9S 9H 9C 4H 4C 4S KS KD JK 2H")
    game.apply_action(state, A.DISCARD + parse_card("2H"))
    assert state.phase == DRAW and state.current == 1  # buying off: next player draws

    game, state = discard_phase(
        "7C 7C 7H 7D 9D 9D 9S 9H 9C 4H 4C 4S KS KD JK 2H", allow_buying=True, num_players=5
    )
    game.apply_action(state, A.DISCARD + parse_card("2H"))
    assert state.phase == BUY and state.current == 2  # the seat after the next player
    assert game.legal_mask(state).nonzero()[0].tolist() == [A.BUY, A.PASS]
    game.apply_action(state, A.PASS)
    assert state.current == 3
    before = int(state.hands[3].sum())
    stock = len(state.table.stock)
    game.apply_action(state, A.BUY)
    assert state.hands[3].sum() == before + 3 and state.hands[3, parse_card("2H")] >= 1
    assert len(state.table.stock) == stock - 2 and state.table.taken_by[3, parse_card("2H")] == 1
    assert state.phase == DRAW and state.current == 1  # the next player then draws normally


def test_buying_stops_when_the_stock_cannot_pay_the_penalty():
    game, state = discard_phase(
        "7C 7C 7H 7D 9D 9D 9S 9H 9C 4H 4C 4S KS KD JK 2H", allow_buying=True
    )
    state.hands[1] += to_counts(state.table.stock[2:]).astype(np.int8)
    state.table.stock = state.table.stock[:2]
    game.apply_action(state, A.DISCARD + parse_card("2H"))
    assert state.phase == DRAW and state.current == 1


def _finish_round(game, state, winner: int) -> None:
    arrange(game, state, {winner: "7C 7C 7H 7D 9D 9D 9S 9H 9C 4H 4C 4S KS KD JK 2H"})
    state.current, state.phase = winner, DISCARD
    game.apply_action(state, A.GO_OUT + parse_card("2H"))


@pytest.mark.parametrize(("num_rounds", "expected"), [(None, 3), (4, 4), (1, 1)])
def test_num_rounds(num_rounds, expected):
    game = ContinentalGame(Config(num_players=3, episode="match", num_rounds=num_rounds))
    state = game.new_state(np.random.default_rng(3))
    dealers = []
    for r in range(expected):
        dealers.append(state.dealer)
        _finish_round(game, state, winner=r % 3)
    assert state.over and state.rounds_played == expected
    assert [(d - dealers[0]) % 3 for d in dealers] == [r % 3 for r in range(expected)]


def test_target_score_ends_the_series_when_a_total_reaches_it():
    game = ContinentalGame(Config(num_players=3, episode="match", target_score=150))
    state = game.new_state(np.random.default_rng(4))
    rounds = 0
    while not state.over:
        _finish_round(game, state, winner=0)
        rounds += 1
    assert state.totals.max() >= 150 and state.winner == 0 and rounds == state.rounds_played
    partial = state.totals - np.array(state.history[-1]["penalties"])
    assert partial.max() < 150  # it did not stop earlier


def test_episode_round_ends_after_one_round():
    game = ContinentalGame(Config(num_players=3))
    state = game.new_state(np.random.default_rng(5))
    _finish_round(game, state, winner=1)
    assert state.over and state.winner == 1 and state.rounds_played == 1


@pytest.mark.parametrize("reward", ["points", "zero_sum", "win"])
def test_rewards(reward):
    game = ContinentalGame(Config(num_players=4, reward=reward))
    state = game.new_state(np.random.default_rng(6))
    _finish_round(game, state, winner=2)
    r = game.returns(state)
    penalties = np.array(state.history[-1]["penalties"])
    if reward == "points":
        assert r.tolist() == (-penalties).tolist()
    elif reward == "zero_sum":
        assert abs(r.sum()) < 1e-9 and r[2] == penalties.mean()
    else:
        assert r.tolist() == [-1 / 3, -1 / 3, 1.0, -1 / 3]


def test_max_turns_per_round_truncates_without_scores():
    game = ContinentalGame(Config(max_turns_per_round=3))
    state = game.new_state(np.random.default_rng(7))
    rng = np.random.default_rng(0)
    while not state.over:
        mask = game.legal_mask(state).copy()
        mask[A.GO_OUT : A.GO_OUT_NO_DISCARD + 1] = 0  # nobody goes out
        game.apply_action(state, int(rng.choice(np.flatnonzero(mask))))
    assert state.truncated and state.turns == 3 and not game.returns(state).any()


@pytest.mark.parametrize(
    "rules",
    [
        {"num_players": 2},
        {"num_players": 9},
        {"jokers": 2},
        {"large_table": "fourth_deck"},
        {"hand_size": 14},
        {"min_naturals_per_group": 3},
        {"allow_buying": 1},
        {"num_rounds": 0},
        {"target_score": -5},
        {"episode": "series"},
        {"reward": "money"},
        {"max_turns_per_round": 0},
    ],
)
def test_invalid_config_values_are_clear_errors(rules):
    (name,) = rules
    with pytest.raises(ValueError, match=name):
        Config(**rules)
