"""The fast finishing search against the brute-force reference on seeded random hands with
random tiplus: 300 hands in the suite (13 concealed cards after a draw, every tenth a 22-card
hand), 5,000 22-card hands in the slow run, which is skipped unless ``TAAS_SLOW=1`` (four
chunks of 1,250, about 2.5 CPU minutes each: the reference is the slow part), e.g.

    TAAS_SLOW=1 python -m pytest -q -n 2 tests/marriage_nepali/test_nepali_finish_reference.py

Odd seeds are built from random valid combinations (so finishes are common), even seeds are
plain random deals."""

from __future__ import annotations

import os

import numpy as np
import pytest

from taas.envs.core.cards import to_counts
from taas.envs.marriage_nepali import combos, wilds
from tests.marriage_nepali import nepali_finish_reference as ref

SHOE = np.full(52, 3, np.int8)


def _combination(rng, left, wild) -> list[int] | None:
    """A random valid combination drawn from ``left`` (None when the draw ran dry)."""
    kind = rng.integers(4)
    suit, rank = rng.integers(4), rng.integers(13)
    if kind == 0:
        cards = [suit * 13 + rank] * 3
    elif kind == 1:
        suits = rng.permutation(4)[:3]
        cards = [s * 13 + rank for s in suits]
    else:
        start = rng.integers(12)
        cards = [suit * 13 + (start + i) % 13 for i in range(3)]
    for _ in range(rng.integers(3)):  # swap in wilds
        cards[rng.integers(3)] = int(rng.choice(sorted(wild)))
    counts = to_counts(cards)[:52]
    if (counts > left).any() or not ref.valid(tuple(sorted(cards)), wild):
        return None
    left -= counts
    return cards


def deal(seed: int, size: int = 22) -> tuple[list[int], frozenset[int]]:
    rng = np.random.default_rng(seed)
    tiplu = int(rng.integers(52))
    wild = wilds.roles(tiplu).wild
    left = SHOE.copy()
    left[tiplu] -= 1
    cards: list[int] = []
    if seed % 2:
        while len(cards) < size - 1:
            combo = _combination(rng, left, wild)
            cards += combo or []
    while len(cards) < size:
        c = int(rng.choice(np.flatnonzero(left)))
        left[c] -= 1
        cards.append(c)
    return cards, wild


def check(seeds, size=None) -> int:
    finishes = 0
    for seed in seeds:
        cards, wild = deal(seed, size or (22 if seed % 10 == 9 else 13))
        fast = combos.Splitter(wild).closing_discards(to_counts(cards))
        assert fast == ref.closing_discards(cards, wild), f"seed {seed}"
        finishes += bool(fast)
    return finishes


def test_finish_search_matches_reference_300_hands():
    assert check(range(300)) > 100  # the built hands do finish: the test is not all "no"


@pytest.mark.parametrize("max_size", [3, 4])
def test_remembered_dead_ends_never_change_an_answer(max_size):
    """The search keeps the states it found unsplittable between calls; one splitter asked
    about many hands, with a table so small that it overwrites itself, answers exactly as a
    fresh splitter per hand (a stale or colliding entry would show here)."""
    shared = combos.Splitter(wilds.roles(6).wild, max_size=max_size)
    shared._failed = np.full((8, 2), -1, np.int64)
    for seed in range(60):
        cards, _ = deal(seed * 2 + 1, 13 if seed % 3 else 22)
        counts = to_counts(cards)
        fresh = combos.Splitter(shared.wild, max_size=max_size)
        assert shared.closing_discards(counts) == fresh.closing_discards(counts), seed
        assert shared.split(counts) == fresh.split(counts), seed


def test_splitter_rejects_impossible_counts():
    splitter = combos.Splitter(wilds.roles(6).wild)
    with pytest.raises(ValueError, match="three decks"):
        splitter.can_split(to_counts([4] * 4))
    with pytest.raises(ValueError, match="three decks"):
        splitter.closing_discards(to_counts([4] * 4))
    with pytest.raises(ValueError, match="53 kinds"):
        splitter.closing_discards(np.ones(52, np.int8))


@pytest.mark.slow
@pytest.mark.skipif(os.environ.get("TAAS_SLOW", "") in ("", "0"), reason="set TAAS_SLOW=1")
@pytest.mark.parametrize("chunk", range(4))
def test_finish_search_matches_reference_5000_hands(chunk):
    start = 1000 + 1250 * chunk
    assert check(range(start, start + 1250), size=22) > 400
