"""Rommé rules: the worked examples R1–R14 of docs/rules/romme.md and one test per flag."""

import numpy as np
import pytest
from romme_helpers import DRAW, legal, play, setup

from taas.envs.core.cards import JOKER, parse_cards, to_counts
from taas.envs.romme import actions as A
from taas.envs.romme.config import Config
from taas.envs.romme.rules import PLAY, RommeGame, charge, hand_value
from taas.envs.rummy.opening import best_opening, opening_search


def value(text: str, **rules) -> int:
    return best_opening(to_counts(parse_cards(text)), Config(**rules).meld_rules()).value


def shape_value(text: str) -> int:
    return int(opening_search(Config().meld_rules()).value[A.meld_action(text) - A.MELD])


# -- R1-R4: opening values and validity -------------------------------------------------------
def test_r1_opening_reached():
    assert shape_value("QH-AH") == 31 and shape_value("7SDC") == 21
    game, state = setup({0: "QH KH AH 7S 7D 7C 2S 5H 9D 9C 4S 8H JS JD"})
    play(game, state, "meld QH-AH")
    assert state.pending_value == 31 and not state.opened[0]
    assert "discard 2S" not in legal(game, state) and "abandon" in legal(game, state)
    play(game, state, "meld 7SDC")
    assert state.opened[0] and "discard 2S" in legal(game, state)


def test_r2_low_ace_and_inclusive_minimum():
    assert value("AS 2S 3S 10C 10D 10H") == 36
    assert value("AS 2S 3S 4S 10C 10D 10H") == 40
    game, state = setup({0: "AS 2S 3S 10C 10D 10H 5H 9D 9C 8H JS QD KC 6C"})
    assert not any(a.startswith("meld") for a in legal(game, state))  # 36 < 40
    game, state = setup({0: "AS 2S 3S 4S 10C 10D 10H 5H 9D 9C 8H JS QD KC"})
    play(game, state, "meld AS-4S")
    assert state.pending_value == 10
    play(game, state, "meld 10HDC")
    assert state.opened[0]


def test_r3_jokers_worth_the_card_they_stand_for():
    assert value("8D JK 10D") == 27
    assert shape_value("AC-3C") == 6 and shape_value("2C-4C") == 9
    assert value("JK 2C 3C") == 9
    assert shape_value("KSHD") == 30
    game, state = setup({0: "JK 2C 3C 9H 9S 9D 5S 7H JD QS KH 4D 6H 8C"})
    assert {"meld AC-3C", "meld 2C-4C"} <= legal(game, state)  # placement is the action


def test_r4_validity():
    # 9H 9H 9S: suits repeated, no set; 5-card sets are not in the catalogue
    hand = "9H 9H 9S 2C 4D 6S 8H 10C QD KS AH 3H 5C 7D"
    assert not any(a.startswith("meld") for a in legal(*setup({0: hand}, opened=(0,))))
    assert not any(len(A.shape_kinds(i)) > 4 for i in range(A.NUM_SHAPES) if not A.SHAPES[i][0])
    hand = "KS AS 2S 9H 9D 4C 6C 8D 10H QH JC 5D 3H 7C"
    assert "meld KS-2S" not in legal(*setup({0: hand}, opened=(0,)))
    assert value("QS KS AS") == 31
    assert value("JK JK 5H") == 0
    assert value("4H JK 6H JK") == 22


# -- R5-R9, R11, R14: charges -------------------------------------------------------------------
def test_r5_loser_who_opened():
    assert charge(hand_value(to_counts(parse_cards("AS JK 5D"))), True, Config())[0] == 36


def test_r6_two_players_never_opened():
    cfg = Config(num_players=2)
    assert charge(hand_value(to_counts(parse_cards("KS QD 9C 7H"))), False, cfg)[0] == 50
    assert charge(hand_value(to_counts(parse_cards("3C 4D 6S"))), False, cfg)[0] == 38


def test_r7_four_players_one_never_opened():
    cfg = Config(num_players=4)
    assert [charge(v, o, cfg)[0] for v, o in ((14, True), (23, True), (95, False))] == [14, 23, 100]


HAND_RUMMY = "AS 2S 3S 4S 5S 10C 10D 10H JH QH KH 9D 9C 9S"


def _hand_rummy(p3_opened: bool, **rules):
    game, state = setup(
        {0: HAND_RUMMY, 1: "KS QS JD 8C 7H 2C", 2: "2D 3D 5C 8D"},
        opened=(2,) if p3_opened else (),
        num_players=3,
        **rules,
    )
    state.totals[:] = [120, 50, 30]
    play(game, state, "meld AS-5S", "meld 10HDC", "meld JH-KH", "meld 9SDC")
    return game, state


def test_r8_hand_rummy_three_players():
    _game, state = _hand_rummy(False, episode="match")
    assert state.over and state.history[0]["hand_rummy"]
    assert [e["charge"] for e in state.history[0]["players"]] == [0, 200, 200]
    assert state.totals.tolist() == [120, 250, 230] and state.winners == [0]


def test_r9_same_finish_but_someone_had_opened():
    _game, state = _hand_rummy(True)
    assert not state.history[0]["hand_rummy"]
    values = [e["hand_value"] for e in state.history[0]["players"]]
    assert values == [0, 47, 18]
    assert [e["charge"] for e in state.history[0]["players"]] == [0, 72, 18]


R10 = "AS 2S 3S 4H 5H 6H 2C 2D 2H 2S 3D 3C 3H 9C"


def test_r10_hand_rummy_blocked_by_the_minimum():
    assert value(R10) == 38
    game, state = setup({0: R10})
    moves = legal(game, state)
    assert not any(a.startswith("meld") for a in moves) and "discard 9C" in moves


def test_r10_hand_rummy_ignores_opening_min():
    game, state = setup({0: R10}, hand_rummy_ignores_opening_min=True, num_players=2)
    play(game, state, "meld AS-3S", "meld 4H-6H", "meld 2SHDC", "meld 3HDC")
    assert legal(game, state) == {"abandon", "discard 9C"}
    play(game, state, "discard 9C")
    assert state.over and state.history[0]["hand_rummy"]
    assert state.history[0]["players"][1]["charge"] == 200
    game, state = setup({0: R10}, hand_rummy_ignores_opening_min=True, opened=(1,))
    assert not any(a.startswith("meld") for a in legal(game, state))  # not a Hand-Rommé


def test_r11_blocked_round_three_players():
    game, state = setup(
        {0: "5S 7D", 1: "3H 4C", 2: "KS QH JD 10C"}, opened=(0, 1), num_players=3, stock_size=0
    )
    state.hands[0] = to_counts(parse_cards("5S 7D 3D"))
    table = state.table
    table.start(table.stock, table.discard[:-1])  # the 3D is player 0's, drawn as the last card
    game.refresh_public(state)  # the hand was edited by hand
    play(game, state, "discard 3D")
    entry = state.history[0]
    assert entry["blocked"] and entry["winners"] == [1]
    assert [e["charge"] for e in entry["players"]] == [12, 0, 65]


def test_r12_end_of_game_and_tie():
    game, state = setup(
        {0: "5S 7D 9C 3H", 1: "2C 3C 4C 6D 7H"}, opened=(0, 1), num_players=2, episode="match"
    )
    state.totals[:] = [90, 60]
    state.hands[1] = to_counts(parse_cards("2C 3C 4C"))
    state.table.start(state.table.stock, state.table.discard + parse_cards("6D 7H"))
    state.current = 1
    game.refresh_public(state)  # the hand was edited by hand
    play(game, state, "meld 2C-4C")  # player 1 goes out; player 0 pays 24 -> 114
    assert state.over and state.totals.tolist() == [114, 60] and state.winners == [1]
    game, state = setup(
        {0: "2C 3C 4C", 1: "2H 8H", 2: "4S 6D"}, opened=(0, 1, 2), num_players=3, episode="match"
    )
    state.totals[:] = [210, 140, 140]
    play(game, state, "meld 2C-4C")
    assert not state.over and state.rounds_played == 1  # B and C tie on 150: another round
    assert state.totals.tolist() == [210, 150, 150]
    game, state = setup(
        {0: "2C 3C 4C", 1: "2H 10H", 2: "KS QH JD"},
        opened=(0, 1, 2),
        num_players=3,
        episode="match",
    )
    state.totals[:] = [210, 150, 150]
    play(game, state, "meld 2C-4C")
    assert state.over and state.totals.tolist() == [210, 162, 180] and state.winners == [1]


def test_r13_joker_exchange():
    game, state = setup({0: "6C 9H 9S 2D 4D"}, melds=((1, "5C JK 7C"),), opened=(0, 1))
    assert "exchange @0 6" in legal(game, state)
    play(game, state, "exchange @0 6")
    moves = legal(game, state)
    assert not any(a.startswith("discard") for a in moves)  # the joker must be used
    assert "meld 9SHD" in moves
    play(game, state, "meld 9SHD")
    assert any(a.startswith("discard") for a in legal(game, state))
    assert str(state.melds[0]) == "5♣ 6♣ 7♣"
    game, state = setup({0: "8D 8C 2D 5H"}, melds=((1, "8S 8H JK"),), opened=(0, 1))
    assert {"exchange @0 D", "exchange @0 C"} <= legal(game, state)
    game, state = setup({0: "8D 8C 2D 3D 9S"}, melds=((1, "8S 8H 8D JK"),), opened=(0, 1))
    moves = legal(game, state)
    assert "exchange @0 C" in moves and "exchange @0 D" not in moves


def test_r14_ace_in_hand():
    assert hand_value(to_counts(parse_cards("AS 2S"))) == 13
    assert hand_value(to_counts(parse_cards("JK AS 10H QD 5C"))) == 56


# -- lay-offs and going out ---------------------------------------------------------------------
def test_lay_off_names_meld_and_end_and_going_out_by_melding():
    game, state = setup({0: "8C JK 2D"}, melds=((1, "5C 6C 7C"), (1, "8S 8H 8D")), opened=(0, 1))
    moves = legal(game, state)
    assert {"lay_off @0 high", "lay_off @1 C", "lay_off JK @0 low", "lay_off JK @1"} <= moves
    assert "lay_off @0 low" not in moves  # that end takes the 4C
    play(game, state, "lay_off @0 high")
    assert str(state.melds[0]) == "5♣ 6♣ 7♣ 8♣"
    play(game, state, "lay_off JK @0 low")
    assert str(state.melds[0]) == "Jk 5♣ 6♣ 7♣ 8♣"
    game, state = setup({0: "2D 3D 4D"}, opened=(0,), num_players=2)
    play(game, state, "meld 2D-4D")
    assert state.over and state.winners == [0]


# -- flags ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("jokers,total", [(6, 110), (4, 108), (0, 104)])
def test_flag_jokers(jokers, total):
    game, state = setup({}, jokers=jokers)
    assert int(game.shoe(state).sum()) == total


@pytest.mark.parametrize("size", [13, 11, 14])
def test_flag_hand_size(size):
    from taas.envs.romme.rules import RommeGame

    game = RommeGame(Config(hand_size=size))
    state = game.new_state(np.random.default_rng(1))
    assert state.hands.sum(axis=1).tolist() == [size] * 4


def test_flag_first_player_extra_card():
    from taas.envs.romme.rules import RommeGame

    game = RommeGame(Config(first_player_extra_card=True))
    state = game.new_state(np.random.default_rng(1))
    assert int(state.hands[state.current].sum()) == 14 and not state.table.discard
    assert not game.legal_mask(state)[A.DRAW_STOCK]


def test_flag_opening_min():
    hand = "AS 2S 3S 10C 10D 10H 5H 9D 9C 8H JS QD KC 6C"
    assert not any(a.startswith("meld") for a in legal(*setup({0: hand})))
    assert "meld AS-3S" in legal(*setup({0: hand}, opening_min=30))


def test_flag_allow_wraparound():
    hand = "KS AS 2S 9H 9D 4C 6C 8D 10H QH JC 5D 3H 7C"
    game, state = setup({0: hand}, opened=(0,), allow_wraparound=True)
    assert "meld KS-2S" in legal(game, state)
    game, state = setup({0: "3S 5H"}, melds=((1, "QS KS AS"),), opened=(0,), allow_wraparound=True)
    assert "lay_off @0 high" not in legal(game, state)


@pytest.mark.parametrize(
    "limit,two_jokers_one_natural,two_of_four",
    [("not_more_than_naturals", False, True), ("any", True, True), ("one_per_meld", False, False)],
)
def test_flag_joker_limit(limit, two_jokers_one_natural, two_of_four):
    assert (value("JK JK 5H", joker_limit=limit) > 0) == two_jokers_one_natural
    assert (value("4H JK 6H JK", joker_limit=limit) == 22) == two_of_four


def test_flag_jokers_may_touch():
    assert value("4H JK JK 7H") == 22
    assert value("4H JK JK 7H", jokers_may_touch=False) == 0
    game, state = setup({0: "JK 2D"}, melds=((1, "5C 6C JK"),), opened=(0,), jokers_may_touch=False)
    assert "lay_off JK @0 high" not in legal(game, state)
    play(game, state, "lay_off JK @0 low")
    assert str(state.melds[0]) == "Jk 5♣ 6♣ Jk"


def test_flag_discard_draw_requires_opening():
    hand = "7S 7D 7C JH QH KH 2C 4D 6S 8H 10C 5H 9D"
    assert "take" in legal(*setup({0: hand}, phase=DRAW, discard="AH 2D"))
    rules = {"discard_draw_requires_opening": True, "phase": DRAW}
    assert "take" not in legal(*setup({0: hand}, discard="AH 2D", **rules))  # 2D is no use
    game, state = setup({0: hand}, discard="2D AH", **rules)
    play(game, state, "take", "meld JH-KH", "meld 7SDC")  # 51, but without the AH
    assert not state.opened[0] and not any(a.startswith("discard") for a in legal(game, state))
    play(game, state, "abandon", "meld JH-AH")  # 41 with the AH: opened
    assert state.opened[0]


def test_flag_lay_off_on_opening_turn():
    hand = "QH KH AH 7S 7D 7C JH 2D 4S"
    for flag in (True, False):
        game, state = setup({0: hand}, lay_off_on_opening_turn=flag)
        play(game, state, "meld QH-AH", "meld 7SDC")
        assert ("lay_off @0 low" in legal(game, state)) == flag


def test_flag_exchanged_joker_must_be_used():
    game, state = setup(
        {0: "6C 9H 9S 2D 4D"},
        melds=((1, "5C JK 7C"),),
        opened=(0, 1),
        exchanged_joker_must_be_used=False,
    )
    play(game, state, "exchange @0 6")
    assert {"discard JK", "discard 2D"} <= legal(game, state)


def test_flag_exchange_before_opening():
    hand = "6C 9H 9S 9D QS KS 2D 4H 8C 10H JD 3S 5S 7H"
    assert "exchange @0 6" not in legal(*setup({0: hand}, melds=((1, "5C JK 7C"),)))
    game, state = setup({0: hand}, melds=((1, "5C JK 7C"),), exchange_before_opening=True)
    assert "exchange @0 6" in legal(game, state)
    play(game, state, "exchange @0 6")
    assert "meld QS-AS" in legal(game, state)  # the joker opens: QS KS JK 31 + 9s 27


def test_flag_may_discard_joker():
    hand = "JK 2D 5H 9C 4S 8H 10C QD KS AH 3H 6C 7D 9S"
    assert "discard JK" in legal(*setup({0: hand}))
    assert "discard JK" not in legal(*setup({0: hand}, may_discard_joker=False))


def test_flag_must_discard_to_go_out():
    game, state = setup({0: "2D 3D 4D"}, opened=(0,), must_discard_to_go_out=True)
    assert "meld 2D-4D" not in legal(game, state)
    game, state = setup({0: "2D 3D 4D 9S"}, opened=(0,), must_discard_to_go_out=True)
    play(game, state, "meld 2D-4D", "discard 9S")
    assert state.over and state.winners == [0]


def test_flag_forbid_rediscard_of_drawn_discard():
    for flag in (True, False):
        game, state = setup(
            {0: "2D 5H 9C 4S 8H 10C QD KS AH 3H 6C 7D 9S"},
            phase=DRAW,
            discard="JC",
            forbid_rediscard_of_drawn_discard=flag,
        )
        play(game, state, "take")
        assert ("discard JC" in legal(game, state)) == (not flag)


def test_flag_on_stock_empty():
    hand = "2D 5H 9C 4S 8H 10C QD KS AH 3H 6C 7D 9S"
    game, state = setup({0: hand}, phase=DRAW, stock_size=1, discard="4D 5D JC")
    play(game, state, "draw", "discard 2D")
    assert state.over and state.history[0]["blocked"]
    game, state = setup(
        {0: hand}, phase=DRAW, stock_size=1, discard="4D 5D JC", on_stock_empty="reshuffle"
    )
    play(game, state, "draw")
    table = state.table
    assert not state.over and len(table.stock) >= 2 and table.discard == parse_cards("JC")


@pytest.mark.parametrize(
    "scoring,points,expected",
    [("flat", 200, [0, 200, 200]), ("flat", 150, [0, 150, 150]), ("double", 200, [0, 144, 86])],
)
def test_flag_hand_rummy_scoring_and_points(scoring, points, expected):
    _game, state = _hand_rummy(False, hand_rummy_scoring=scoring, hand_rummy_points=points)
    assert [e["charge"] for e in state.history[0]["players"]] == expected


def test_flags_never_opened_surcharge_and_cap():
    assert charge(95, False, Config())[0] == 100
    assert charge(95, False, Config(never_opened_cap=500))[0] == 120  # half of 300 caps at 150
    assert charge(40, False, Config(never_opened_surcharge=10))[0] == 50
    assert charge(40, False, Config(num_players=2))[0] == 50  # half the target: 50


def test_flag_blocked_tie():
    for tie, winners in (("all_win", [0, 1]), ("none_win", [])):
        game, state = setup(
            {0: "5S 7D 3D", 1: "3H 9C", 2: "KS QH JD 10C"},
            opened=(0, 1),
            num_players=3,
            stock_size=0,
            blocked_tie=tie,
        )
        play(game, state, "discard 3D")
        assert state.history[0]["winners"] == winners


def test_flag_target_per_opponent():
    assert Config(num_players=3).target == 200
    assert Config(num_players=6, target_per_opponent=50).target == 250


@pytest.mark.parametrize(
    "reward,expected",
    [("points", [0, -72, -18]), ("zero_sum", [30, -42, 12]), ("win", [1.0, -0.5, -0.5])],
)
def test_flag_reward(reward, expected):
    game, state = _hand_rummy(True, reward=reward)
    assert np.allclose(game.returns(state), expected)


def test_flag_episode_and_max_turns():
    game, state = _hand_rummy(False, episode="round")
    assert state.over
    game, state = setup({0: "2D 5H 9C 4S 8H 10C QD KS AH 3H 6C 7D 9S JC"}, max_turns_per_round=1)
    play(game, state, "discard 2D")
    assert state.over and state.truncated and not game.returns(state).any()


def test_bad_config_and_actions():
    with pytest.raises(ValueError, match="jokers"):
        Config(jokers=5)
    with pytest.raises(ValueError, match="num_players"):
        Config(num_players=7)
    with pytest.raises(ValueError, match="joker_limit"):
        Config(joker_limit="two")
    game, state = setup({0: "2D 5H"}, opened=(0,))
    with pytest.raises(ValueError, match="illegal action"):
        game.apply_action(state, A.DRAW_STOCK)
    with pytest.raises(ValueError, match="not an action id"):
        game.apply_action(state, A.NUM_ACTIONS)


# -- romme_v1: the player chooses the meld and the end; an exchanged joker is used; no re-discard
def test_lay_off_chooses_the_meld_to_go_out():
    """§4.4: a card goes on any meld that takes it. 8H fits the older set and the run; only
    the run lets P0 lay 8H then 9H and go out on the KC (v0 put 8H on the set)."""
    game, state = setup(
        {0: "8H 9H"},
        melds=((1, "8S 8D 8C"), (2, "5H 6H 7H")),
        opened=(0, 1, 2),
        phase=DRAW,
        stock_top="KC",
    )
    play(game, state, "draw")
    assert {"lay_off @0 H", "lay_off @1 high"} <= legal(game, state)
    play(game, state, "lay_off @1 high", "lay_off @1 high", "discard KC")
    assert str(state.melds[1]) == "5♥ 6♥ 7♥ 8♥ 9♥" and str(state.melds[0]) == "8♠ 8♦ 8♣"
    assert state.over and state.winners == [0]


def test_joker_lay_off_at_either_end_of_a_run():
    game, state = setup(
        {0: "JK 3H"}, melds=((2, "5H 6H 7H"),), opened=(0, 2), phase=DRAW, stock_top="KC"
    )
    play(game, state, "draw")
    assert {"lay_off JK @0 low", "lay_off JK @0 high"} <= legal(game, state)
    play(game, state, "lay_off JK @0 low", "lay_off @0 low", "discard KC")
    assert str(state.melds[0]) == "3♥ Jk 5♥ 6♥ 7♥" and state.winners == [0]


def test_exchanged_joker_must_be_used_in_the_same_turn():
    """P0 swaps 8D for the set's joker; laying off 8C then would fill the set and strand the
    joker (no meld in 2D 5C KH), so it is not offered, nor is any discard, until the joker is
    back on the table."""
    game, state = setup(
        {0: "8D 8C 2D 5C"}, melds=((1, "8S 8H JK"),), opened=(0, 1), phase=DRAW, stock_top="KH"
    )
    play(game, state, "draw", "exchange @0 D")
    moves = legal(game, state)
    assert "lay_off @0 C" not in moves and not any(a.startswith("discard") for a in moves)
    assert moves == {"lay_off JK @0"}
    play(game, state, "lay_off JK @0")
    assert "discard JK" not in legal(game, state) and "discard KH" in legal(game, state)


def test_exchange_offered_only_if_the_joker_can_be_used():
    melds = ((1, "8S 8H 8D JK"),)
    game, state = setup({0: "8C 2D 5C KH"}, melds=melds, opened=(0, 1))
    assert "exchange @0 C" not in legal(game, state)  # the full set takes no joker back
    game, state = setup({0: "8C 2D 3D KH"}, melds=melds, opened=(0, 1))
    assert "exchange @0 C" in legal(game, state)  # 2D 3D JK is a run
    game, state = setup({0: "8C 2D 3D KH"}, melds=melds, opened=(0, 1))
    play(game, state, "exchange @0 C")
    assert legal(game, state) == {"meld AD-3D", "meld 2D-4D"}


def test_card_taken_from_the_pile_is_never_discarded_again():
    """§0: not even as the last card of a go-out. Laying off 9C would leave only the KS just
    taken, which no meld takes: not offered. v0 let the ban lapse and P0 go out on KS."""
    melds = ((1, "9S 9H 9D"), (2, "5H 6H 7H"))
    game, state = setup({0: "9C"}, melds=melds, opened=(0,), phase=DRAW, discard="KS")
    play(game, state, "take")
    assert legal(game, state) == {"discard 9C"}
    game, state = setup(
        {0: "9C"}, melds=melds, opened=(0,), phase=DRAW, discard="KS", rediscard_ban_lapses=True
    )
    play(game, state, "take", "lay_off @0 C", "discard KS")
    assert state.over and state.winners == [0]
    # taking a card that can be laid off: 9C then 8H, out without a discard
    game, state = setup({0: "9C"}, melds=melds, opened=(0,), phase=DRAW, discard="8H")
    play(game, state, "take")
    assert legal(game, state) == {"discard 9C", "lay_off @0 C", "lay_off @1 high"}
    play(game, state, "lay_off @0 C", "lay_off @1 high")
    assert state.over and state.winners == [0]


def test_taking_the_discard_needs_a_card_left_to_discard():
    game, state = setup({0: "KD"}, opened=(0,), phase=DRAW, discard="KD")
    assert legal(game, state) == {"draw"}  # KD KD: both barred, nothing to meld or lay off


def test_exchange_names_the_meld_when_two_jokers_stand_for_the_card():
    melds = ((1, "8S 8H JK"), (2, "6D 7D JK"))  # both jokers can be the 8D
    game, state = setup({0: "8D 2C 5S KH"}, melds=melds, opened=(0, 1, 2))
    assert {"exchange @0 D", "exchange @1 8"} <= legal(game, state)
    play(game, state, "exchange @1 8")
    assert str(state.melds[1]) == "6♦ 7♦ 8♦" and str(state.melds[0]) == "8♠ 8♥ Jk"


def test_quick_exchange_check_agrees_with_the_trial():
    """The mask settles most exchanges without a trial copy (one joker owed afterwards, another
    meld takes a joker, a card left to discard); wherever it does, the trial agrees."""
    game = RommeGame(Config(num_players=2))
    rng, quick = np.random.default_rng(1), 0
    for seed in range(6):
        state = game.new_state(np.random.default_rng(seed))
        while not state.over:
            for a in state.offers[2].tolist() if state.phase == PLAY else ():
                if game._exchange_then_joker_off(state, a):
                    quick += 1
                    assert game._alive_after(state, a)
            game.apply_action(state, int(rng.choice(np.flatnonzero(game.legal_mask(state)))))
    assert quick


def test_quick_lay_off_check_agrees_with_the_trial():
    """While one exchanged joker is owed, the mask settles most lay-offs without a trial copy
    (the owed joker laid with a card left to discard, or a natural laid while another meld
    takes a joker); wherever it does, the trial agrees. Both kinds of lay-off are seen."""
    game = RommeGame(Config(num_players=3))
    rng, quick = np.random.default_rng(2), {True: 0, False: 0}
    for seed in range(12):
        state = game.new_state(np.random.default_rng(seed))
        while not state.over:
            if state.phase == PLAY and game.owed_jokers(state) == 1:
                for a, k in zip(*(x.tolist() for x in state.offers[:2]), strict=True):
                    if game._lay_off_then_end(state, a):
                        quick[k == JOKER] += 1
                        assert game._alive_after(state, a)
            game.apply_action(state, int(rng.choice(np.flatnonzero(game.legal_mask(state)))))
    assert quick[True] and quick[False], quick
