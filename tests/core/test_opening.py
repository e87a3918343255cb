"""The shared opening search (taas.envs.rummy.opening): worked examples counted by hand, the rule
fields it reads, and properties on random hands. The brute-force cross-check under Rommé's
rules is tests/romme/test_romme_melds.py."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from taas.envs.core.cards import JOKER, NUM_RANKS, parse_cards, shoe, shuffled, to_counts
from taas.envs.rummy.melds import ROMME_MELD_VALUES, MeldRules, card_values, wild_mask
from taas.envs.rummy.opening import best_opening, meld_shapes, opening_search

ROMME = MeldRules(
    wild=wild_mask(),
    values=card_values(ace=11),
    group_mode="distinct",
    wild_limit="not_more_than_naturals",
)


def hand(text: str) -> np.ndarray:
    return to_counts(parse_cards(text))


def value(text: str, rules: MeldRules = ROMME, **changes) -> int:
    return best_opening(hand(text), replace(rules, **changes)).value


# --------------------------------------------------------------------------- worked examples


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        ("AS 2S 3S", 6),  # ace low: 1 + 2 + 3
        ("QS KS AS", 31),  # ace high: 10 + 10 + 11
        ("KS KH JK", 30),  # the joker is a third king: 3 x 10
        ("AS AH AD", 33),  # aces in a set are high: 3 x 11
        ("QH KH AH 7S 7D 7C", 52),  # romme.md R1: 31 + 21
        ("AS 2S 3S 10C 10D 10H", 36),  # R2: 6 + 30
        ("AS 2S 3S 4S 10C 10D 10H", 40),  # 10 + 30
        ("8D JK 10D", 27),  # R3: the joker is the 9: 8 + 9 + 10
        ("JK 2C 3C", 9),  # the joker is 4C (2 + 3 + 4), not the ace (1 + 2 + 3)
        ("9H 9H 9S", 0),  # R4: a set needs distinct suits
        ("KS AS 2S", 0),  # no wrap-around by default
        ("JK JK 5H", 0),  # two jokers with one natural card
        ("4H JK 6H JK", 22),  # 4-5-6-7, two jokers with two naturals: 4 + 5 + 6 + 7
        ("AS 2S 3S 4H 5H 6H 2C 2D 2H 2S 3D 3C 3H 9C", 38),  # R10: 6 + 15 + 8 + 9
    ],
)
def test_worked_examples(cards: str, expected: int) -> None:
    opening = best_opening(hand(cards), ROMME)
    assert opening.value == expected
    laid = [c for m in opening.melds for c in m.cards] + list(opening.rest)
    assert (to_counts(laid) == hand(cards)).all()


def test_melds_name_the_jokers_in_place() -> None:
    (meld,) = best_opening(hand("JK 2C 3C"), ROMME).melds
    assert meld.cards == tuple(parse_cards("2C 3C JK")) and meld.as_wild == (False, False, True)
    assert meld.is_run and meld.first == 1  # position 1 is the two
    (meld,) = best_opening(hand("KS JK KH"), ROMME).melds
    assert meld.cards == tuple(parse_cards("KS KH JK")) and not meld.is_run and meld.first == 12


def test_wild_limits_and_touching() -> None:
    assert value("4H JK 6H JK", wild_limit="one_per_meld") == 15  # 4-5-6, one joker kept
    assert value("4H JK JK", wild_limit="none") == 15  # 4-5-6
    assert value("4H JK JK", wild_limit="none", wilds_may_touch=False) == 12  # 3-4-5
    assert value("JK JK JK", wild_limit="none") == 0  # every meld needs a natural card


def test_wraparound() -> None:
    assert value("KS AS 2S", allow_wraparound=True) == 23  # K-A-2: 10 + 11 + 2
    assert value("QS KS AS 2S 3S", allow_wraparound=True) == 36  # Q-K-A-2-3: 10+10+11+2+3


def test_structural_rules() -> None:
    cards = "AS 2S 3S KS KH KD KC"
    assert value(cards) == 46  # A-2-3 (6) + four kings (40)
    assert value(cards, allow_runs=False) == 40
    assert value(cards, allow_groups=False) == 6
    assert value(cards, max_group_size=3) == 36  # a set of three kings (30) + A-2-3
    assert value("KS KH JK", wild=wild_mask(joker=False)) == 0  # the joker is no wild


def test_melds_made_only_of_wilds() -> None:
    free = replace(ROMME, wild_limit="none", allow_all_wild_melds=True)
    assert value("JK JK JK", free) == 33  # three aces (33) beat Q-K-A (31)
    assert value("JK JK JK JK", free) == 44  # four aces
    assert value("JK JK JK JK JK", free) == 51  # 10-J-Q-K-A: 10 + 10 + 10 + 10 + 11
    assert value("JK JK JK JK JK", free, wilds_may_touch=False) == 44  # sets only
    assert value("JK JK JK JK JK JK", free) == 66  # two sets of three aces
    # three aces (33); with 2S 3S the jokers make at most 2-3-4-5-6 (20)
    assert value("JK JK JK 2S 3S", free) == 33
    # a joker as a third seven (21) and three jokers as three aces (33)
    opening = best_opening(hand("JK JK JK JK 7S 7H"), free)
    assert opening.value == 54 and not opening.rest
    assert sorted(len(m.cards) for m in opening.melds) == [3, 3]


# --------------------------------------------------------------------------- the engine API


def test_stop_at_need() -> None:
    search = opening_search(ROMME)
    counts = hand("QH KH AH 7S 7D 7C 2S 5D")
    assert search.best(counts)[0] == 52
    assert search.best(counts, 40)[0] >= 40  # may stop at the first line worth 40
    assert search.best(counts, 53)[0] < 53  # out of reach
    assert search.reaches(counts, 52) and not search.reaches(counts, 53)
    assert search.reaches(hand("2S 5D"), 0) and not search.reaches(hand("2S 5D"), 1)
    # out of reach by the bound alone: only 2S 3S can meld, worth 2 + 3 + 11 with the joker
    assert search.best(hand("2S 3S 5D JK"), 40) == (16, [])


def test_layable_naturals_and_can_open_with() -> None:
    search = opening_search(ROMME)
    counts = hand("QH KH AH 7S 7D 7C 2C JK")
    ids = {search.shapes[i]: i for i in range(len(search.shapes))}
    qka = ids[(True, 1, 11, 3, 0)]  # hearts from position 11 (the queen), three cards
    sevens = ids[(False, -1, 6, 3, 0b1101)]  # 7 of spades, diamonds, clubs
    jqka = ids[(True, 1, 10, 4, 0)]  # JH QH KH AH: the joker stands for the jack
    layable = search.layable(counts)
    assert layable[qka] and layable[sevens] and layable[jqka]
    assert not layable[ids[(True, 1, 9, 5, 0)]]  # 10-A of hearts would need two jokers
    assert search.naturals(counts)[jqka] == 3
    assert search.value[jqka] == 41
    assert search.can_open_with(counts, parse_cards("7S")[0], 40)
    assert search.can_open_with(counts, JOKER, 40)
    assert not search.can_open_with(counts, parse_cards("2C")[0], 40)  # 2C is in no meld


def test_catalogue() -> None:
    shapes = meld_shapes(replace(ROMME, allow_wraparound=True))
    runs = [s for s in shapes if s[0] and s[2] + s[3] <= 14]
    sets = [s for s in shapes if not s[0]]
    assert (len(runs), len(sets), len(shapes)) == (308, 65, 637)  # + 264 runs over the corner
    assert meld_shapes(ROMME) == shapes[:373]  # without wrap-around: a prefix
    assert len(meld_shapes(replace(ROMME, max_group_size=3))) == 308 + 13 * 4
    assert opening_search(ROMME) is opening_search(replace(ROMME))  # built once per rules


def test_unsupported_rules_and_hands() -> None:
    with pytest.raises(NotImplementedError):
        opening_search(replace(ROMME, wild=wild_mask(ranks=[1])))  # wild twos
    with pytest.raises(NotImplementedError):
        opening_search(replace(ROMME, group_mode="any"))
    with pytest.raises(ValueError, match="at most 2"):
        best_opening(hand("7S 7S 7S"), ROMME)


# --------------------------------------------------------------------------- properties

RELAXED = [  # each rule set allows every opening the one before it allows
    ROMME,
    replace(ROMME, wild_limit="none"),
    replace(ROMME, wild_limit="none", allow_wraparound=True),
    replace(ROMME, wild_limit="none", allow_wraparound=True, allow_all_wild_melds=True),
]
STRICTER = [
    replace(ROMME, wild_limit="one_per_meld"),
    replace(ROMME, wilds_may_touch=False),
    replace(ROMME, max_group_size=3),
    replace(ROMME, allow_runs=False),
    replace(ROMME, allow_groups=False),
]


def _random_hands(seed: int, count: int):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        deck = shoe(2, 6).astype(np.int64)
        if rng.random() < 0.5:  # seven neighbouring ranks of two suits: melds are frequent
            low, suits = rng.integers(NUM_RANKS), rng.choice(4, 2, replace=False)
            near = (np.arange(52) % NUM_RANKS - low) % NUM_RANKS < 7
            deck[:52] *= near & np.isin(np.arange(52) // NUM_RANKS, suits)
        yield to_counts(shuffled(deck, rng)[: int(rng.integers(3, 15))])


def _check(opening, counts: np.ndarray, rules: MeldRules) -> None:
    """The melds are disjoint, in the rules, and worth the value; with the rest, the hand."""
    laid = [c for m in opening.melds for c in m.cards] + list(opening.rest)
    assert (to_counts(laid) == counts).all()
    total = 0
    for m in opening.melds:
        wilds = sum(m.as_wild)
        naturals = len(m.cards) - wilds
        assert naturals or rules.allow_all_wild_melds
        assert (
            wilds
            <= {"none": 99, "not_more_than_naturals": naturals, "one_per_meld": 1}[rules.wild_limit]
        )
        if m.is_run:
            assert rules.allow_wraparound or m.first + len(m.cards) <= 14
            assert rules.wilds_may_touch or "11" not in "".join(str(int(w)) for w in m.as_wild)
            total += sum(
                ROMME_MELD_VALUES[p if p <= 13 else p - 13]
                for p in range(m.first, m.first + len(m.cards))
            )
        else:
            assert len(m.cards) <= rules.group_cap()
            total += len(m.cards) * ROMME_MELD_VALUES[13 if m.first == 0 else m.first]
    assert total == opening.value


def test_relaxing_a_rule_never_lowers_the_value() -> None:
    for counts in _random_hands(1, 150):
        values = []
        for rules in RELAXED:
            opening = best_opening(counts, rules)
            _check(opening, counts, rules)
            values.append(opening.value)
        assert values == sorted(values)
        for rules in STRICTER:
            opening = best_opening(counts, rules)
            _check(opening, counts, rules)
            assert opening.value <= values[0]


def test_reaches_answers_as_the_full_search() -> None:
    """The compiled "worth ``need``?" answer equals the exact best value's, under every rule
    set here (those with the wilds-side-by-side rule or melds of wilds only fall back)."""
    for rules in [*RELAXED, *STRICTER]:
        search = opening_search(rules)
        for counts in _random_hands(2, 60):
            best = best_opening(counts, rules).value
            for need in (10, 30, 40, 51):
                assert search.reaches(counts, need) == (best >= need)
