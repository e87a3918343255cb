"""The worked examples M1–M11 of docs/rules/marriage.md, as table-driven tests."""

from __future__ import annotations

import numpy as np
import pytest

from taas.envs.core.cards import JOKER, card_str, parse_card
from taas.envs.marriage.config import Config
from taas.envs.marriage.scoring import score_hand, wild_cards

M3 = "3H 4H 5H 6H  9S 10S JS QS KS  KD KD KD  6C 6D 8H  2C JK 4C  QH QH QS"
M4 = "7H 8H 9H  AS AD AC  2C 2D 2S  4C 4H 4S  6C 6D 6S  10C 10D 10S  QS QD QC"
M5 = "3H 4H 5H JC JD JS 9C 9D 9S KD KD KD 8S AC 2D 4S 6C 7H 10S QD 5D"
M7 = "AH 2C 2D 2S 5C 5D 5S 7C 7D 7S 9C 9D 9S JC JD JS KC KD KS 4H 6H"
M9 = "2C 2C 2C 5D 5D 5D 7S 7S 7S 9H 9H 9H JC JC JC QD QD QD KS KS KS"


def wild_names(indicator: str, **flags) -> list[str]:
    wild, _ = wild_cards(Config(**flags), parse_card(indicator))
    return [card_str(c) for c in np.flatnonzero(wild)]


def test_m1_wild_rank_is_every_card_of_the_next_rank_plus_printed_jokers():
    assert wild_names("7D") == ["8S", "8H", "8D", "8C", "JK"]
    # 12 wild-rank cards in 3 decks + 3 printed jokers = 15 wild cards
    wild, rank = wild_cards(Config(), parse_card("7D"))
    shoe = np.full(53, 3)
    assert rank == 7 and int(shoe[wild].sum()) == 15


@pytest.mark.parametrize(
    ("indicator", "flags", "expected"),
    [
        ("KC", {}, ["AS", "AH", "AD", "AC", "JK"]),
        ("AH", {}, ["2S", "2H", "2D", "2C", "JK"]),
        ("7D", {"wild_scope": "rank_and_suit"}, ["8D", "JK"]),
        ("JK", {"printed_joker_indicator": "aces_wild"}, ["AS", "AH", "AD", "AC", "JK"]),
        ("JK", {"printed_joker_indicator": "printed_only"}, ["JK"]),
    ],
)
def test_m2_indicator_wraps_and_variants(indicator, flags, expected):
    assert wild_names(indicator, **flags) == expected


def test_m2_joker_indicator_is_redrawn_by_default():
    with pytest.raises(ValueError, match="redraw"):
        wild_cards(Config(), JOKER)


@pytest.mark.parametrize("lives", [1, 2])
def test_m3_valid_show_discards_the_extra_card(lives):
    out = score_hand(M3 + " 7C", "7D", lives_required=lives)
    assert out["wild_rank"] == "8"
    assert out["can_show"] and "7C" in out["show_discards"]
    shown = score_hand(M3, "7D", lives_required=lives)
    assert shown["can_show"] and shown["penalty"] == 0 and shown["deadwood"] == []
    assert sum(len(m["cards"]) for m in shown["melds"]) == 21
    assert sum(m["life"] for m in shown["melds"]) >= lives


def test_m4_wild_in_its_natural_place_is_not_a_life():
    assert not score_hand(M4, "7D")["can_show"]
    assert score_hand(M4, "7D", wild_in_natural_place_is_pure=True)["can_show"]


@pytest.mark.parametrize(
    ("flags", "penalty"), [({}, 53), ({"ace_penalty": 1}, 44), ({"lives_required": 2}, 53)]
)
def test_m5_loser_deadwood_is_the_global_optimum(flags, penalty):
    assert score_hand(M5, "7D", **flags)["penalty"] == penalty


@pytest.mark.parametrize(("flags", "penalty"), [({}, 162), ({"ace_penalty": 1}, 135)])
def test_m6_loser_without_a_life_counts_everything(flags, penalty):
    out = score_hand(M4, "7D", **flags)
    assert out["penalty"] == penalty
    assert len(out["deadwood"]) == 21


def test_m7_wild_rank_card_counts_twenty():
    out = score_hand(M7, "KC")
    assert out["wild_rank"] == "A"
    assert out["penalty"] == 159


@pytest.mark.parametrize(
    ("cards", "flags", "valid"),
    [
        ("JK JK 5H", {}, True),
        ("JK JK 8S", {}, True),
        ("JK JK JK", {}, False),
        ("JK JK JK", {"allow_all_wild_melds": True}, True),
        ("QH QH QS", {}, True),
        ("KD KD KD", {}, True),
        ("6C 6D 8H", {}, True),
        ("7H 8H 9H", {}, True),
        ("5S 5S", {}, False),
        ("KS AS 2S", {}, False),
        ("KS AS 2S", {"allow_wraparound": True}, True),
        ("KS JK 2S", {"allow_wraparound": True}, True),
    ],
)
def test_m8_meld_validity_next_to_a_life(cards, flags, valid):
    """Each meld beside a separate life: the hand can show exactly when the meld is valid."""
    assert score_hand("3C 4C 5C " + cards, "7D", **flags)["can_show"] is valid


@pytest.mark.parametrize(
    ("cards", "flags", "life"),
    [
        ("QS KS AS", {}, True),
        ("AS 2S 3S", {}, True),
        ("KS AS 2S", {}, False),
        ("KS AS 2S", {"allow_wraparound": True}, True),
        ("QS KS AS 2S 3S", {"allow_wraparound": True}, True),
        ("KD KD KD", {}, False),
        ("KD KD KD", {"tunnela_counts_as_life": True}, True),
        ("7H 8H 9H", {}, False),
        ("7H 8H 9H", {"wild_in_natural_place_is_pure": True}, True),
        ("JK JK 5H", {}, False),
    ],
)
def test_m8_which_melds_are_lives(cards, flags, life):
    """Alone, a meld can show only if it is a life."""
    assert score_hand(cards, "7D", **flags)["can_show"] is life


def test_m9_seven_tunnelas_cannot_show():
    out = score_hand(M9, "3S")
    assert out["wild_rank"] == "4"
    assert not out["can_show"] and out["penalty"] == 159
    assert score_hand(M9, "3S", tunnela_counts_as_life=True)["can_show"]


def test_m11_a_fully_melded_22_card_hand_still_shows_with_a_discard():
    out = score_hand(M3 + " QD", "7D")  # Q♥ Q♥ Q♠ Q♦: a 4-card group
    assert {"QD", "KS", "3H", "6H"} <= set(out["show_discards"])
    assert score_hand(M3 + " QD", "7D", show_requires_discard=False)["can_show"]
    assert not score_hand(M3 + " 7C", "7D", show_requires_discard=False)["can_show"]
