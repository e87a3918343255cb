"""score_hand: JSON-ready output, the scoring flags each flipped, and bad input."""

from __future__ import annotations

import json

import numpy as np
import pytest

from taas.envs.core.cards import parse_card
from taas.envs.marriage.config import Config
from taas.envs.marriage.scoring import Scorer, score_hand, wild_cards

M5 = "3H 4H 5H JC JD JS 9C 9D 9S KD KD KD 8S AC 2D 4S 6C 7H 10S QD 5D"
VALUE = {"A": 10, "J": 10, "Q": 10, "K": 10}


def value(card: str, wild_rank: str = "8") -> int:
    rank = card[:-1]
    if card == "JK" or rank == wild_rank:
        return 20
    return VALUE.get(rank) or int(rank)


def test_output_is_json_ready_and_consistent():
    out = score_hand(M5, "7D")
    assert json.loads(json.dumps(out)) == out
    assert set(out) == {"wild_rank", "wild_cards", "can_show", "show_discards", "penalty",
                        "melds", "deadwood"}
    assert sum(value(c) for c in out["deadwood"]) == out["penalty"] == 53
    melded = [c for m in out["melds"] for c in m["cards"]]
    assert sorted(melded + out["deadwood"]) == sorted(M5.split())
    assert any(m["as_wild"] == ["8S"] for m in out["melds"])
    assert score_hand(M5.split(), parse_card("7D")) == out  # lists and kinds work too


@pytest.mark.parametrize(
    ("cards", "flags", "expected"),
    [
        # lives_required: one life only
        ("3C 4C 5C QH QH QS", {}, True),
        ("3C 4C 5C QH QH QS", {"lives_required": 2}, False),
        ("3C 4C 5C 9D 10D JD", {"lives_required": 2}, True),
        # max_group_size caps a group of four
        ("3C 4C 5C QH QH QS QD", {}, True),
        ("3C 4C 5C QH QH QS QD", {"max_group_size": 3}, False),
        # wild_scope: 8S is wild only when every suit of the rank is
        ("3C 4C 5C QH QH 8S", {}, True),
        ("3C 4C 5C QH QH 8S", {"wild_scope": "rank_and_suit"}, False),
        ("3C 4C 5C QH QH 8D", {"wild_scope": "rank_and_suit"}, True),
    ],
)
def test_show_flags(cards, flags, expected):
    assert score_hand(cards, "7D", **flags)["can_show"] is expected


@pytest.mark.parametrize(
    ("cards", "flags", "penalty"),
    [
        ("3C 4C 5C JK", {}, 20),  # a spare joker cannot join the only life
        ("3C 4C 5C JK", {"joker_penalty": 15}, 15),
        ("3C 4C 5C 8S", {"joker_penalty": 25}, 25),  # a wild-rank card counts as a joker
        ("3C 4C 5C AS", {"ace_penalty": 1}, 1),
        ("3C 4C 5C KD KD KD 9S", {}, 9),
        ("3C 4C 5C KD KD KD 9S", {"tunnela_bonus": 5}, 4),
        ("3C 4C 5C KD KD KD 9S 9S 9S", {"tunnela_bonus": 5}, -10),
    ],
)
def test_penalty_flags(cards, flags, penalty):
    assert score_hand(cards, "7D", **flags)["penalty"] == penalty


def test_show_discards_for_a_hand_one_over():
    out = score_hand("3C 4C 5C QH QH QS 9D", "7D")
    assert out["show_discards"] is None  # not hand_size + 1 cards
    hand16 = "3C 4C 5C 6C QH QH QS 9D 10D JD 2S 2H 2D KS KH KD 7H"
    out = score_hand(hand16, "7D", decks=2, hand_size=16)
    assert out["can_show"] and out["show_discards"] == ["7H"]


def test_scorer_agrees_with_itself_on_random_hands():
    """show_discards[k] is exactly "the hand less one k can show", over random deals."""
    config = Config()
    rng = np.random.default_rng(0)
    for i in range(30):
        indicator = parse_card(("7D", "KC", "3S")[i % 3])  # few wild sets: each compiles
        wild, _ = wild_cards(config, indicator)
        scorer = Scorer(config, wild)
        shoe = np.full(53, 3)
        shoe[indicator] -= 1
        cards = rng.choice(np.repeat(np.arange(53), shoe), 22, replace=False)
        hand = np.bincount(cards, minlength=53)
        mask = scorer.show_discards(hand)
        for k in np.flatnonzero(hand):
            less = hand.copy()
            less[k] -= 1
            assert mask[k] == scorer.can_show(less)


@pytest.mark.parametrize(
    ("cards", "indicator", "flags", "message"),
    [
        ("3C 4C XX", "7D", {}, "bad card"),
        ("KD KD KD", "7D", {"decks": 2, "num_players": 3}, "more copies"),
        ("JK 3C", "7D", {"printed_jokers": 0}, "more copies"),
        ("7D 7D 7D", "7D", {}, "more copies"),  # the indicator is one of the three 7D
        ("3C", "JK", {}, "redrawn"),
        ("3C", ["7D", "8D"], {}, "exactly one card"),
        ("3C", "7D", {"colour": 1}, "unknown marriage rule"),
        ("3C", "7D", {"ace_penalty": 5}, "ace_penalty"),
    ],
)
def test_bad_input(cards, indicator, flags, message):
    with pytest.raises(ValueError, match=message):
        score_hand(cards, indicator, **flags)


def test_tunnela_bonus_report_is_consistent_and_never_worse():
    """With a bonus, the reported arrangement accounts for the hand and its penalty, and it
    never charges more than the minimum-deadwood arrangement with its own tunnelas counted,
    nor less than that minimum less a bonus per tripled kind."""
    config, plain = Config(tunnela_bonus=15), Config()
    wild, _ = wild_cards(config, parse_card("7D"))
    scorer, base = Scorer(config, wild), Scorer(plain, wild)
    rng = np.random.default_rng(3)
    for _ in range(12):
        kinds = rng.choice(52, 9, replace=False)
        hand = np.zeros(53, np.int64)
        hand[kinds[:3]] = 3  # three tripled kinds, twelve more cards
        hand[kinds[3:]] = 2
        out, ref = scorer.report(hand), base.report(hand)
        melded = [c for m in out["melds"] for c in m["cards"]]
        assert len(melded) + len(out["deadwood"]) == 21
        dead = sum(base.rules.card_value(parse_card(c)) for c in out["deadwood"])
        assert out["penalty"] == dead - 15 * out["tunnelas"]
        assert out["penalty"] <= ref["penalty"] - 15 * ref["tunnelas"]
        assert out["penalty"] >= ref["penalty"] - 15 * 3
