"""Runs round the corner (``MeldRules.allow_wraparound``): hand-built cases, and a seeded
cross-check against the reference search (meld_reference.py) on hands rich in the J..4 of one
suit and in wilds, where corner runs matter."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from meld_reference import (
    _gen_runs,
    arc_runs,
    check_arrangement,
    ref_can_meld_all,
    ref_deadwood,
    ref_show_discards,
)
from test_melds import discards, hand, marriage

from taas.envs.core.cards import JOKER, NUM_KINDS, kind, parse_cards
from taas.envs.core.jit import HAVE_NUMBA
from taas.envs.rummy.melds import (
    Arrangement,
    Meld,
    can_meld_all,
    deadwood,
    min_deadwood,
    show_discards,
)


def wrap(wild_rank: int | None = None, lives: int = 1, **kw):
    return marriage(wild_rank=wild_rank, lives=lives, allow_wraparound=True, **kw)


def card(text: str) -> int:
    return parse_cards(text)[0]


def corner_melds(arrangement: Arrangement) -> list[Meld]:
    return [m for m in arrangement.melds if m.is_run and m.first + len(m.cards) > 14]


@pytest.mark.parametrize(("cards", "lives", "kw", "valid"), [
    ("KS AS 2S", 1, {}, True),  # a life
    ("QS KS AS 2S 3S", 1, {}, True),
    ("JS QS KS AS 2S", 1, {}, True),
    ("KS AS 2S 3S 4S", 1, {}, True),
    ("KS JK 2S", 0, {}, True),  # the joker stands for the ace
    ("KS JK 2S", 1, {}, False),  # ... so the run is not pure
    ("JK JK 2S", 0, {}, True),
    ("KS AS 3S", 0, {}, False),  # a gap and no wild
    ("QS KS AS 2S 3S 7H 8H 9H", 2, {}, True),
    ("KS AS 2S", 1, {"wild_rank": 0}, False),  # aces wild: the ace stands for itself, impure
    ("KS AS 2S", 0, {"wild_rank": 0}, True),
    ("KS AS 2S", 1, {"wild_rank": 0, "wild_in_natural_place_is_pure": True}, True),
    ("KS KS AS AS 2S 2S", 2, {}, True),  # two K-A-2 lives in one suit (3 decks)
    ("KS KS KS AS AS AS 2S 2S 2S", 3, {}, True),
    ("KS KS KS AS AS AS 2S 2S 2S", 3, {"allow_runs": False}, False),
])
def test_corner_runs_are_runs_only_with_the_flag(cards: str, lives: int, kw: dict,
                                                 valid: bool) -> None:
    kw = {"wild_rank": None, **kw}
    flat = marriage(lives=lives, **kw)
    rules = replace(flat, allow_wraparound=True)
    assert can_meld_all(hand(cards), rules) == valid
    assert ref_can_meld_all(hand(cards), rules) == valid
    if valid:
        arrangement = min_deadwood(hand(cards), rules, complete=True)
        check_arrangement(hand(cards), rules, arrangement)
        assert arrangement.penalty == 0
    # none of these hands melds without the corner (except those without a corner run)
    assert can_meld_all(hand(cards), flat) == (valid and cards.startswith("JK JK"))


def test_the_wild_standing_for_the_ace() -> None:
    arrangement = min_deadwood(hand("KS JK 2S"), wrap(lives=0), complete=True)
    assert arrangement.melds == (
        Meld((card("KS"), JOKER, card("2S")), True, False, (False, True, False), 12),)


def test_a_thirteen_card_run_round_the_corner() -> None:
    full = "4S 5S 6S 7S 8S 9S 10S JS QS KS AS 2S 3S"
    assert can_meld_all(hand(full), wrap())
    # two 2s: 2..Q and K-A-2, only round the corner
    two = "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS 2S"
    assert can_meld_all(hand(two), wrap())
    assert not can_meld_all(hand(two), marriage(wild_rank=None))
    check_arrangement(hand(two), wrap(), min_deadwood(hand(two), wrap(), complete=True))
    # the checker takes a 13-card run round the corner and rejects a 14th card
    run = Meld(tuple(parse_cards(full)), True, True, (False,) * 13, 3)
    check_arrangement(hand(full), wrap(), Arrangement(0, (run,), ()))
    with pytest.raises(AssertionError):
        check_arrangement(hand(full), marriage(wild_rank=None), Arrangement(0, (run,), ()))
    long = Meld(tuple(parse_cards(two)), True, False, (False,) * 14, 1)
    with pytest.raises(AssertionError):
        check_arrangement(hand(two), wrap(lives=0), Arrangement(0, (long,), ()))


def test_the_only_life_goes_round_the_corner() -> None:
    text = "KS AS 2S 7H 7D 7C 9C 9D 9H"
    assert can_meld_all(hand(text), wrap())
    assert not can_meld_all(hand(text), marriage(wild_rank=None))
    # as a loser: without the corner no life, so the whole hand counts
    loser = hand(text + " 5D")
    assert deadwood(loser, wrap()) == ref_deadwood(loser, wrap()) == 5
    assert deadwood(loser, marriage(wild_rank=None)) == 10 + 10 + 2 + 21 + 27 + 5
    arrangement = min_deadwood(loser, wrap())
    check_arrangement(loser, wrap(), arrangement)
    assert [m.is_life for m in corner_melds(arrangement)] == [True]


def test_a_corner_run_absorbs_a_spare_wild() -> None:
    # 3H 4H 5H is the life; the corner run K-Jk-2 takes the second joker (K-A-2-3)
    text = "3H 4H 5H KS JK 2S JK"
    assert can_meld_all(hand(text), wrap())
    assert ref_can_meld_all(hand(text), wrap())
    assert not can_meld_all(hand(text), marriage(wild_rank=None))
    arrangement = min_deadwood(hand(text), wrap(), complete=True)
    check_arrangement(hand(text), wrap(), arrangement)
    (corner,) = corner_melds(arrangement)
    assert len(corner.cards) == 4 and corner.as_wild == (False, True, False, True)
    # a pure corner run counted as the life cannot take it
    assert not can_meld_all(hand("KS AS 2S JK"), wrap())
    assert discards("KS AS 2S JK", wrap()) == {JOKER}


def test_two_lives_round_one_corner() -> None:
    rules = wrap(lives=2)
    assert can_meld_all(hand("KS AS 2S KS AS 2S"), rules)
    assert not can_meld_all(hand("KS AS 2S KS AS JK"), rules)
    assert can_meld_all(hand("KS AS 2S KS AS JK"), wrap(lives=1))  # K-A-Jk: Q-K-A or K-A-2
    assert can_meld_all(hand("KS AS 2S 3S 4S 5S"), rules)  # K-A-2 | 3-4-5
    assert not can_meld_all(hand("KS AS 2S 3S 4S 5S"), marriage(wild_rank=None))
    assert not can_meld_all(hand("KS AS 2S 3S 4S 5S"), wrap(lives=3))


def test_the_only_discard_that_works_needs_the_corner() -> None:
    text = "KS AS 2S 7H 8H 9H 5C"
    assert discards(text, wrap()) == {card("5C")}
    assert discards(text, marriage(wild_rank=None)) == set()
    # with 8s wild the only life is K-A-2; the other three cards (with a wild) make a run
    text = "KS AS 2S 7H 8H 9H JK"
    assert discards(text, wrap(wild_rank=7)) == set(parse_cards("7H 8H 9H JK"))
    assert discards(text, marriage(wild_rank=7)) == set()
    h = hand(text)
    assert (show_discards(h, wrap(wild_rank=7)) == ref_show_discards(h, wrap(wild_rank=7))).all()


def test_reference_arcs_without_the_corner_are_the_linear_runs() -> None:
    """The reference's arc enumeration, cut at the ace high, gives exactly its linear runs."""
    rng = np.random.default_rng(5)
    for rules in (marriage(), marriage(wild_rank=0, wild_in_natural_place_is_pure=True)):
        for _ in range(150):
            suit = tuple(int(v) for v in rng.integers(0, 3, 13) * (rng.random(13) < 0.6))
            for r in np.flatnonzero(suit):
                x = kind(int(r), 1)

                def norm(runs):
                    return {(tuple(sorted(u.items())), w, room, p) for u, w, room, p in runs}

                assert norm(arc_runs(rules, suit, x, wrap=False)) == norm(_gen_runs(rules, suit, x))


# --------------------------------------------------------------------------- cross-check

CORNER_RANKS = (10, 11, 12, 0, 1, 2, 3)  # J Q K A 2 3 4


def corner_hand(rng: np.random.Generator, size: int, wild_rank: int | None) -> np.ndarray:
    """A hand from a 3-deck + 3-joker shoe, mostly the J..4 of one suit and wilds."""
    avail = np.full(NUM_KINDS, 3)
    c = np.zeros(NUM_KINDS, np.int64)
    suit = int(rng.integers(4))

    def take(k: int) -> None:
        if avail[k] > 0 and c.sum() < size:
            avail[k] -= 1
            c[k] += 1

    biased = int(rng.integers(size // 3, size + 1))
    while c.sum() < biased:
        u = rng.random()
        if u < 0.15:
            take(JOKER)
        elif u < 0.25 and wild_rank is not None:
            take(kind(wild_rank, int(rng.integers(4))))
        elif u < 0.85:
            take(kind(CORNER_RANKS[int(rng.integers(7))], suit))
        else:
            take(kind(CORNER_RANKS[int(rng.integers(7))], int(rng.integers(4))))
    while c.sum() < size:
        take(int(rng.integers(NUM_KINDS)))
    return c


VARIANTS = [{}, {"lives": 2}, {"wild_in_natural_place_is_pure": True},
            {"allow_all_wild_melds": True}, {"lives": 0}, {"tunnela_counts_as_life": True},
            {"max_group_size": 4, "lives": 3}, {"group_mode": "distinct"}]
WILD_RANKS = (None, 0, 1, 12, 11, 2, 7)  # none, A, 2, K, Q, 3, 8
CHUNKS = 8
HANDS = 640 if HAVE_NUMBA else 80


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_cross_check_against_reference(chunk: int) -> None:
    rng = np.random.default_rng([77, chunk])
    for i in range(chunk, HANDS, CHUNKS):
        wild_rank = WILD_RANKS[i % len(WILD_RANKS)]
        variant = VARIANTS[(i // CHUNKS) % len(VARIANTS)]
        rules = wrap(wild_rank, **variant)
        size = 22 if i % 20 == 0 else int(rng.integers(9, 17))
        h = corner_hand(rng, size, wild_rank)
        where = f"hand {i} {np.repeat(np.arange(NUM_KINDS), h).tolist()} {wild_rank} {variant}"
        mask = show_discards(h, rules)
        assert (mask == ref_show_discards(h, rules)).all(), where
        less = h.copy()
        less[rng.choice(np.flatnonzero(h))] -= 1
        assert can_meld_all(less, rules) == ref_can_meld_all(less, rules), where
        if size < 22:  # the reference deadwood is slow on 21 cards
            got = deadwood(less, rules)
            assert got == ref_deadwood(less, rules), where
            arrangement = min_deadwood(less, rules)
            assert arrangement.penalty == got, where
            check_arrangement(less, rules, arrangement)
        if mask.any():
            shown = h.copy()
            shown[np.flatnonzero(mask)[-1]] -= 1
            arrangement = min_deadwood(shown, rules, complete=True)
            assert arrangement.penalty == 0 and not arrangement.deadwood, where
            check_arrangement(shown, rules, arrangement)
