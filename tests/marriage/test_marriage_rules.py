"""Engine rules of Marriage: deal, indicator, turn flow, show, dublee swap, stock, session."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taas.envs.core.cards import JOKER, NUM_KINDS, parse_card, parse_cards, to_counts
from taas.envs.marriage import actions as A
from taas.envs.marriage.config import Config
from taas.envs.marriage.env import raw_env
from taas.envs.marriage.rules import DISCARD, DRAW, MarriageGame
from taas.envs.marriage.scoring import wild_cards

M3 = "3H 4H 5H 6H  9S 10S JS QS KS  KD KD KD  6C 6D 8H  2C JK 4C  QH QH QS"  # shows (wild 8)
M4 = "7H 8H 9H  AS AD AC  2C 2D 2S  4C 4H 4S  6C 6D 6S  10C 10D 10S  QS QD QC"  # 162, no life
M5 = "3H 4H 5H JC JD JS 9C 9D 9S KD KD KD 8S AC 2D 4S 6C 7H 10S QD 5D"  # loser pays 53
M9 = "2C 2C 2C 5D 5D 5D 7S 7S 7S 9H 9H 9H JC JC JC QD QD QD KS KS KS"  # no life: 159


def scripted(hands: dict[int, str], stock: str = "", pile: str = "", current: int = 0,
             phase: int = DRAW, indicator: str = "7D", seed: int = 0, **flags):
    """A game and a state with the given hands, stock and pile (both listed bottom to top)."""
    game = MarriageGame(Config(**flags))
    s = game.new_state(np.random.default_rng(seed))
    s.hands[:] = 0
    for p, cards in hands.items():
        s.hands[p] = to_counts(parse_cards(cards))
    s.table.start(parse_cards(stock), parse_cards(pile))
    s.indicator = parse_card(indicator)
    s.wild, s.wild_rank = wild_cards(game.config, s.indicator)
    s.current, s.phase, s.mask = current, phase, None
    return game, s


def legal(game, s) -> set[str]:
    return {game.action_to_str(a) for a in np.flatnonzero(game.legal_mask(s))}


def act(game, s, name: str) -> None:
    ids = {game.action_to_str(a): a for a in range(game.num_actions)}
    game.apply_action(s, ids[name])


@pytest.mark.parametrize(
    ("flags", "hand", "stock", "jokers"),
    [
        ({}, 21, 159 - 84 - 2, 3),
        ({"num_players": 3}, 21, 94, 3),  # docs/rules/marriage.md: 3 players leave 94 in stock
        ({"num_players": 6}, 21, 31, 3),  # docs/rules/marriage.md: 6 players leave 31
        ({"decks": 2, "num_players": 3}, 13, 106 - 39 - 2, 2),
        ({"decks": 2, "hand_size": 16}, 16, 106 - 64 - 2, 2),
        ({"printed_jokers": 0}, 21, 156 - 84 - 2, 0),
    ],
)
def test_deal(flags, hand, stock, jokers):
    game = MarriageGame(Config(**flags))
    for seed in range(5):
        s = game.new_state(np.random.default_rng(seed))
        n = game.num_players
        assert s.hands.sum(axis=1).tolist() == [hand] * n
        assert len(s.table.stock) == stock and len(s.table.discard) == 1
        assert game.shoe(s).sum() == 52 * game.config.decks + jokers
        assert np.array_equal(sum(game.zones(s).values()), game.shoe(s))
        assert s.current == (s.dealer + 1) % n and s.phase == DRAW


def _first_joker_indicator(flags: dict) -> tuple:
    game = MarriageGame(Config(**flags))
    for seed in range(400):
        s = game.new_state(np.random.default_rng(seed))
        if s.indicator == JOKER or s.jokers_redrawn:
            return game, s
    raise AssertionError("no joker indicator in 400 deals")


def test_joker_indicator_is_redrawn():
    game, s = _first_joker_indicator({})
    assert s.jokers_redrawn >= 1 and s.indicator != JOKER
    assert np.array_equal(sum(game.zones(s).values()), game.shoe(s))
    assert s.table.stock.count(JOKER) >= 1


@pytest.mark.parametrize(("rule", "rank", "wilds"), [("aces_wild", 0, 5), ("printed_only", -1, 1)])
def test_joker_indicator_variants(rule, rank, wilds):
    _, s = _first_joker_indicator({"printed_joker_indicator": rule})
    assert s.indicator == JOKER and s.jokers_redrawn == 0
    assert s.wild_rank == rank and s.wild.sum() == wilds


def test_draw_then_discard_passes_the_turn():
    game, s = scripted({0: "2S 3S", 1: "4H"}, stock="9D KC", pile="5C")
    assert legal(game, s) == {"draw", "take"}
    act(game, s, "draw")
    assert s.phase == DISCARD and s.hands[0].sum() == 3 and s.table.stock == [parse_card("9D")]
    assert {"discard 2S", "discard 3S", "discard KC"} <= legal(game, s)
    act(game, s, "discard 2S")
    assert s.current == 1 and s.phase == DRAW and s.table.discard[-1] == parse_card("2S")
    assert s.discarded_by[0, parse_card("2S")] == 1
    with pytest.raises(ValueError, match="illegal action"):
        act(game, s, "discard 3S")


@pytest.mark.parametrize("forbid", [True, False])
def test_rediscard_of_taken_discard(forbid):
    game, s = scripted({0: "2S 9C"}, stock="4D", pile="3H 9C",
                       forbid_rediscard_of_drawn_discard=forbid)
    act(game, s, "take")
    assert s.taken_by[0, parse_card("9C")] == 1 and s.table.discard == [parse_card("3H")]
    assert ("discard 9C" in legal(game, s)) is not forbid
    assert "discard 2S" in legal(game, s)


def test_show_is_offered_only_when_valid_and_ends_the_round():
    hands = {0: M3, 1: M5, 2: M4, 3: M9}
    game, s = scripted(hands, stock="2D 7C", pile="5S")
    act(game, s, "draw")
    shows = {a for a in legal(game, s) if a.startswith("show")}
    assert "show 7C" in shows and "show 4C" not in shows
    with pytest.raises(ValueError, match="illegal action"):
        act(game, s, "show 4C")
    act(game, s, "show 7C")
    assert game.is_terminal(s) and not game.is_truncated(s) and game.current_player(s) == -1
    assert game.returns(s).tolist() == [0, -53, -162, -159]
    result = game.info(s, 1)["rounds"][-1]
    assert result["winner"] == 0 and result["penalties"] == [0, 53, 162, 159]
    loser = result["players"][1]
    assert loser["penalty"] == 53 and loser["melds"]
    assert sum(len(m["cards"]) for m in loser["melds"]) + len(loser["deadwood"]) == 21
    assert sum(len(m["cards"]) for m in result["players"][0]["melds"]) == 21


@pytest.mark.parametrize(
    ("reward", "expected"),
    [
        ("points", [0, -53, -162, -159]),
        ("zero_sum", [93.5, 40.5, -68.5, -65.5]),
        ("win", [1, -1 / 3, -1 / 3, -1 / 3]),
    ],
)
def test_round_rewards(reward, expected):
    game, s = scripted({0: M3 + " 7C", 1: M5, 2: M4, 3: M9}, stock="2D", phase=DISCARD,
                       reward=reward)
    act(game, s, "show 7C")
    assert game.returns(s) == pytest.approx(expected)


def test_invalid_show_under_penalize():
    cheap = "2S 3H 4D 5C 2H 3D 4C 5S 2D 3C 4S"  # worth 33 < 100
    game, s = scripted({0: M4 + " KH", 1: cheap + " 9C", 2: M5}, stock="2D 3D 4D",
                       phase=DISCARD, num_players=3, invalid_show="penalize")
    shows = {a for a in legal(game, s) if a.startswith("show ")}
    assert len(shows) == len(np.flatnonzero(s.hands[0]))  # every held kind is offered
    act(game, s, "show KH")
    assert s.dead == [0] and s.fixed_penalty[0] == 162  # max(100, 162)
    assert np.array_equal(s.revealed[0], to_counts(parse_cards(M4)))
    assert s.current == 1 and s.table.discard[-1] == parse_card("KH")
    act(game, s, "draw")
    act(game, s, "show 9C")  # the rest (with 4D) is worth 41: charged 100
    assert game.is_terminal(s)  # only player 2 is left: player 2 wins
    result = game.info(s, 2)["rounds"][-1]
    assert result["winner"] == 2 and result["penalties"] == [162, 100, 0]


def test_invalid_show_is_forbidden_by_default():
    game, s = scripted({0: M4 + " KH"}, stock="2D", phase=DISCARD)
    assert not [a for a in legal(game, s) if a.startswith("show")]


def test_show_without_discard_needs_all_cards_melded():
    game, s = scripted({0: M3 + " QD", 1: M5}, stock="2D", phase=DISCARD, num_players=3,
                       show_requires_discard=False)
    assert "show" in legal(game, s) and "show QD" not in legal(game, s)
    act(game, s, "show")
    assert game.is_terminal(s) and s.hands[0].sum() == 22
    game, s = scripted({0: M3 + " 7C"}, stock="2D", phase=DISCARD, show_requires_discard=False)
    assert "show" not in legal(game, s)


def test_m10_dublee_swap_takes_the_first_wild_from_the_stock():
    game, s = scripted({0: "9C 9C 8S 8S JK JK 3H"}, stock="2D JK 5S 4H 3S", pile="6D",
                       phase=DISCARD)
    swaps = {a for a in legal(game, s) if a.startswith("dublee")}
    assert swaps == {"dublee_swap 9C"}  # 8S 8S and JK JK are wild pairs
    act(game, s, "dublee_swap 9C")
    assert s.set_aside[0, parse_card("9C")] == 2 and s.hands[0, parse_card("9C")] == 0
    assert s.hands[0, JOKER] == 3 and s.hands[0].sum() == 6
    assert s.table.stock == parse_cards("2D 5S 4H 3S") and s.table.discard == [parse_card("6D")]
    assert s.current == 1 and s.phase == DRAW


def test_dublee_swap_without_wild_in_stock_takes_the_top_card():
    game, s = scripted({0: "9C 9C 3H"}, stock="2D 5S", pile="6D", phase=DISCARD)
    act(game, s, "dublee_swap 9C")
    assert s.hands[0, parse_card("5S")] == 1 and s.table.stock == [parse_card("2D")]


def test_no_dublee_variant():
    game, s = scripted({0: "9C 9C 3H"}, stock="2D 5S", phase=DISCARD, dublee_swap=False)
    assert not [a for a in legal(game, s) if a.startswith("dublee")]


def test_stock_exhaustion_reshuffles_the_pile_but_its_top():
    game, s = scripted({0: "2S"}, stock="5S", pile="2C 3C 4C")
    act(game, s, "draw")
    assert sorted(s.table.stock) == parse_cards("2C 3C") and s.table.discard == [parse_card("4C")]
    assert s.table.pile.sum() == 1


def test_deadlock_ends_the_round_void():
    game, s = scripted({0: "9C 9C 3H", 1: M5}, stock="JK", pile="4C", phase=DISCARD)
    act(game, s, "dublee_swap 9C")
    assert game.is_terminal(s) and not game.is_truncated(s)
    assert game.returns(s).tolist() == [0, 0, 0, 0]
    assert game.info(s, 0)["rounds"][-1]["void"]


def test_swap_needs_a_stock():
    game, s = scripted({0: "9C 9C 3H"}, stock="", pile="4C", phase=DISCARD)
    assert not [a for a in legal(game, s) if a.startswith("dublee")]


def test_max_turns_truncates():
    game, s = scripted({0: "2S 3S", 1: "4H 5H"}, stock="9D 9D 9D 9D", pile="5C",
                       num_players=3, max_turns_per_round=2)
    for name in ("draw", "discard 2S", "draw", "discard 4H"):
        act(game, s, name)
    assert game.is_terminal(s) and game.is_truncated(s) and game.returns(s).tolist() == [0] * 3


def force_show(game, s, winner: int, losers: dict[int, str]) -> None:
    """Give ``winner`` the M3 show (plus 7C) in its discard phase and the losers their hands."""
    for p, cards in losers.items():
        s.hands[p] = to_counts(parse_cards(cards))
    s.hands[winner] = to_counts(parse_cards(M3 + " 7C"))
    s.indicator = parse_card("7D")
    s.wild, s.wild_rank = wild_cards(game.config, s.indicator)
    s.current, s.phase, s.mask = winner, DISCARD, None
    act(game, s, "show 7C")


def test_session_totals_and_settlement():
    flags = {"num_players": 3, "episode": "match", "num_rounds": 2}
    for settle in (False, True):
        game, s = scripted({}, **flags, settle_each_round=settle)
        force_show(game, s, 0, {1: M5, 2: M4})
        assert not game.is_terminal(s) and s.rounds_played == 1
        assert s.hands.sum(axis=1).tolist() == [21, 21, 21]  # the next round is dealt
        assert game.returns(s).tolist() == ([0, -53, -162] if settle else [0, 0, 0])
        force_show(game, s, 2, {0: M9, 1: M5})
        assert game.is_terminal(s) and s.winner == 1
        assert s.totals.tolist() == [159, 106, 162]
        assert game.returns(s).tolist() == [-159, -106, -162]


@pytest.mark.parametrize("who", ["all", "tied_only"])
def test_tiebreak_round(who):
    flags = {"episode": "match", "num_rounds": 2, "tiebreak_players": who, "reward": "win"}
    game, s = scripted({}, **flags)
    force_show(game, s, 0, {1: M5, 2: M5, 3: M5})  # [0, 53, 53, 53]
    force_show(game, s, 1, {0: M5, 2: M4, 3: M4})  # [53, 53, 215, 215]: 0 and 1 tie
    assert not game.is_terminal(s) and s.tiebreak and s.tied == [0, 1]
    assert s.active == ([0, 1, 2, 3] if who == "all" else [0, 1])
    assert sum(s.hands[p].sum() > 0 for p in range(4)) == len(s.active)
    force_show(game, s, 1, {0: M5} | ({2: M5, 3: M5} if who == "all" else {}))
    assert game.is_terminal(s) and s.winner == 1
    assert game.returns(s) == pytest.approx([-1 / 3, 1, -1 / 3, -1 / 3])


def test_target_score_ends_the_session_early():
    game, s = scripted({}, num_players=3, episode="match", num_rounds=10, target_score=150)
    force_show(game, s, 0, {1: M5, 2: M4})
    assert game.is_terminal(s) and s.rounds_played == 1 and s.winner == 0


def test_two_players_only_behind_the_flag():
    with pytest.raises(ValueError, match="num_players"):
        Config(num_players=2)
    game = MarriageGame(Config(num_players=2, allow_two_players=True))
    s = game.new_state(np.random.default_rng(1))
    assert s.hands.sum(axis=1).tolist() == [21, 21]


@pytest.mark.parametrize(
    ("flags", "field"),
    [
        ({"num_players": 7}, "num_players"),
        ({"decks": 2, "num_players": 5}, "num_players"),
        ({"decks": 4}, "decks"),
        ({"hand_size": 16}, "hand_size"),
        ({"decks": 2, "hand_size": 21}, "hand_size"),
        ({"printed_jokers": 1}, "printed_jokers"),
        ({"wild_scope": "suit"}, "wild_scope"),
        ({"printed_joker_indicator": "ignore"}, "printed_joker_indicator"),
        ({"lives_required": 3}, "lives_required"),
        ({"lives_required": True}, "lives_required"),
        ({"dublee_swap": 1}, "dublee_swap"),
        ({"invalid_show": "allow"}, "invalid_show"),
        ({"ace_penalty": 11}, "ace_penalty"),
        ({"joker_penalty": -1}, "joker_penalty"),
        ({"max_group_size": 2}, "max_group_size"),
        ({"num_rounds": 0}, "num_rounds"),
        ({"tiebreak_players": "some"}, "tiebreak_players"),
        ({"deadlock": "replay"}, "deadlock"),
        ({"ruleset": "nepali_traditional"}, "ruleset"),
        ({"episode": "game"}, "episode"),
        ({"reward": "money"}, "reward"),
        ({"max_turns_per_round": 0}, "max_turns_per_round"),
        ({"jokers": 3}, "unknown marriage rule"),
    ],
)
def test_bad_config_names_the_field(flags, field):
    with pytest.raises(ValueError, match=field):
        raw_env(**flags)


def test_action_layout_is_static():
    assert A.NUM_ACTIONS == 162
    names = [A.action_to_str(a) for a in range(A.NUM_ACTIONS)]
    assert len(set(names)) == A.NUM_ACTIONS
    assert names[0] == "draw" and names[1] == "take"
    assert names[A.DISCARD + parse_card("10H")] == "discard 10H"
    assert names[A.SHOW + JOKER] == "show JK" and names[A.SHOW_ALL] == "show"
    assert names[A.DUBLEE_SWAP + parse_card("9C")] == "dublee_swap 9C"
    with pytest.raises(ValueError):
        A.action_to_str(A.NUM_ACTIONS)


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([3, 4, 6]))
def test_hand_sizes_between_turns(seed, players):
    """Live hands hold the deal size between turns and one more after the draw; dublees are set
    aside in pairs; the discard pile's counts match its cards."""
    game = MarriageGame(Config(num_players=players, max_turns_per_round=150))
    rng = np.random.default_rng(seed)
    s = game.new_state(rng)
    while not game.is_terminal(s):
        sizes = s.hands.sum(axis=1)
        for p in s.active:
            extra = p == s.current and s.phase == DISCARD
            assert sizes[p] == 21 + extra
        assert (s.set_aside % 2 == 0).all()
        assert np.array_equal(s.table.pile, np.bincount(s.table.discard, minlength=NUM_KINDS))
        game.apply_action(s, int(rng.choice(np.flatnonzero(game.legal_mask(s)))))


WRAP_SHOW = "KS AS 2S  KD KD KD  6C 6D 8H  2C JK 4C  QH QH QS  9C 9D 9H  5D 5H 5C"  # life: K-A-2


@pytest.mark.parametrize("wrap", [False, True])
def test_flag_allow_wraparound_makes_k_a_2_a_life(wrap):
    game, s = scripted({0: WRAP_SHOW, 1: M5, 2: M4, 3: M9}, stock="2D 7C", pile="5S",
                       allow_wraparound=wrap)
    act(game, s, "draw")
    assert ("show 7C" in legal(game, s)) is wrap
    if not wrap:
        return
    act(game, s, "show 7C")
    result = game.info(s, 0)["rounds"][-1]
    assert result["winner"] == 0 and result["penalties"] == [0, 53, 162, 159]
    lives = [m["cards"] for m in result["players"][0]["melds"] if m["life"]]
    assert lives == [["KS", "AS", "2S"]]
