"""The shared opening search (taas.envs.rummy.opening) under Rommé's rules, against a brute-force
reference on random hands, and Rommé's action shapes against the shared catalogue.

The reference knows nothing of the shape catalogue: it checks every subset of the hand's
cards for being a valid meld (trying every window of positions for a run) and combines
disjoint subsets by exhaustive search.
"""

from functools import cache

import numpy as np
import pytest

from taas.envs.core.cards import JOKER, NUM_RANKS, shoe, shuffled, to_counts
from taas.envs.romme import actions as A
from taas.envs.romme.config import Config
from taas.envs.romme.table import meld_from_shape
from taas.envs.rummy.opening import OpeningSearch, best_opening, opening_search


def _position_value(p: int) -> int:
    if p == 0:
        return 1
    if p == 13:
        return 11
    rank = p % 13  # 1 = two .. 12 = king
    return rank + 1 if rank < 10 else 10


def reference_meld_value(cards: tuple, cfg: Config, start: int | None = None) -> int:
    """Best opening value of ``cards`` laid as one meld, or -1 when they are no meld; with
    ``start`` only as a run from that position."""
    naturals = [c for c in cards if c != JOKER]
    jokers = len(cards) - len(naturals)
    if len(cards) < 3 or not naturals:
        return -1
    if cfg.joker_limit == "not_more_than_naturals" and jokers > len(naturals):
        return -1
    if cfg.joker_limit == "one_per_meld" and jokers > 1:
        return -1
    best = -1
    ranks = {c % 13 for c in naturals}
    suits = [c // 13 for c in naturals]
    if start is None and len(ranks) == 1 and len(set(suits)) == len(suits) and len(cards) <= 4:
        rank = ranks.pop()
        best = (11 if rank == 0 else min(rank + 1, 10)) * len(cards)
    if len(set(suits)) == 1 and len(set(naturals)) == len(naturals) and len(cards) <= 13:
        n = len(cards)
        for first in range(13) if start is None else [start]:
            end = first + n - 1
            if end > 13 and not cfg.allow_wraparound:
                continue
            window = list(range(first, end + 1))
            held = [p for p in window if any(p % 13 == c % 13 for c in naturals)]
            if len(held) != len(naturals):
                continue
            joker_at = [p for p in window if p not in held]
            if not cfg.jokers_may_touch and any(p + 1 in joker_at for p in joker_at):
                continue
            best = max(best, sum(_position_value(p) for p in window))
    return best


def reference_openings(hand: list[int], cfg: Config):
    """Per subset ``m`` of the hand (a bit mask): its value laid as one meld (-1: no meld), and
    ``best(m)``, the most valuable disjoint melds within it, by exhaustive search."""
    n = len(hand)
    value = [
        reference_meld_value(tuple(hand[i] for i in range(n) if m >> i & 1), cfg)
        for m in range(1 << n)
    ]

    @cache
    def best(mask: int) -> int:
        if not mask:
            return 0
        low = mask & -mask
        result = best(mask ^ low)
        rest = mask ^ low
        sub = rest
        while True:
            meld = sub | low
            if value[meld] >= 0:
                result = max(result, value[meld] + best(mask ^ meld))
            if not sub:
                break
            sub = (sub - 1) & rest
        return result

    return value, best


def reference_best_opening(hand: list[int], cfg: Config) -> int:
    """Most valuable set of disjoint melds, by exhaustive search over subsets of cards."""
    return reference_openings(hand, cfg)[1]((1 << len(hand)) - 1)


RULES = [
    {},
    {"joker_limit": "any"},
    {"joker_limit": "one_per_meld", "allow_wraparound": True},
    {"jokers_may_touch": False},
    {"joker_limit": "any", "jokers_may_touch": False, "allow_wraparound": True},
    {"joker_limit": "any", "allow_wraparound": True},
]


def search(cfg: Config) -> OpeningSearch:
    return opening_search(cfg.meld_rules())


def _hands(seed: int, count: int, size: int, jokers: int | None = None):
    """Random hands from Rommé's shoe; half of them from six neighbouring ranks (the ace
    between king and two) of two suits so melds, wraps included, are frequent. With ``jokers``
    every hand holds exactly that many jokers."""
    rng = np.random.default_rng(seed)
    for _ in range(count):
        deck = shoe(2, 0).astype(np.int64)
        if rng.random() < 0.5:
            low, suits = rng.integers(NUM_RANKS), rng.choice(4, 2, replace=False)
            near = (np.arange(52) % NUM_RANKS - low) % NUM_RANKS < 6
            deck[:52] *= near & np.isin(np.arange(52) // NUM_RANKS, suits)
        n = int(rng.integers(7)) if jokers is None else jokers
        yield [JOKER] * n + list(shuffled(deck, rng)[: size - n])


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("jokers", [None, 0, 2, 4, 6])
def test_best_opening_matches_brute_force(rules, jokers):
    cfg = Config(**rules)
    opening = search(cfg)
    for hand in _hands(len(str(rules)) + 7 * (jokers or 9), 25, 9, jokers):
        expected = reference_best_opening(hand, cfg)
        counts = to_counts(hand)
        assert opening.best(counts)[0] == expected, hand
        for need in (20, 40):
            assert (opening.best(counts, need)[0] >= need) == (expected >= need), hand


@pytest.mark.parametrize("rules", RULES)
def test_can_open_question_matches_the_full_search(rules):
    """With ``need`` the search takes shortcuts (a bound, a greedy line, skipping the joker
    swaps when no joker is spare); on full hands they answer as the full search does."""
    cfg = Config(**rules)
    opening = search(cfg)
    for hand in _hands(3 + len(rules), 150, 14):
        counts = to_counts(hand)
        value = opening.best(counts)[0]
        for need in (20, 40, 51, 70):
            assert (opening.best(counts, need)[0] >= need) == (value >= need), hand


@pytest.mark.parametrize("rules", RULES)
def test_can_open_with_a_card(rules):
    """``can_open_with`` (taking the discard needs an opening that uses it) against the brute
    force: some meld holding the card plus the best melds of the cards it leaves."""
    cfg = Config(**rules)
    opening = search(cfg)
    for hand in _hands(11 + len(rules), 25, 10):
        value, best = reference_openings(hand, cfg)
        full = (1 << len(hand)) - 1
        for card in sorted(set(hand)):
            bit = 1 << hand.index(card)
            expected = any(
                m & bit and value[m] >= 0 and value[m] + best(full ^ m) >= 30
                for m in range(full + 1)
            )
            assert opening.can_open_with(to_counts(hand), card, 30) == expected, (hand, card)


@pytest.mark.parametrize("rules", RULES)
def test_layable_shapes_match_reference(rules):
    cfg = Config(**rules)
    opening = search(cfg)
    for hand in _hands(7 + len(rules), 150, 14):
        counts = to_counts(hand)
        got = opening.layable(counts)
        for shape, (is_run, _, first, _, _) in enumerate(opening.shapes):
            fill = tuple(k if counts[k] else JOKER for k in opening.kinds[shape])
            value = reference_meld_value(fill, cfg, first if is_run else None)
            ok = fill.count(JOKER) <= counts[JOKER] and value >= 0
            assert got[shape] == ok, (hand, A.action_to_str(A.MELD + shape))


@pytest.mark.parametrize("rules", RULES)
def test_opening_melds_are_disjoint_and_add_up(rules):
    cfg = Config(**rules)
    for hand in _hands(99, 30, 12):
        counts = to_counts(hand)
        opening = best_opening(counts, cfg.meld_rules())
        laid = [c for m in opening.melds for c in m.cards]
        assert sorted(laid + list(opening.rest)) == sorted(hand)
        total = 0
        for m in opening.melds:
            value = reference_meld_value(m.cards, cfg, m.first if m.is_run else None)
            assert value >= 0, m
            if not m.is_run:  # a set of the rank it names, worth that rank's value a card
                assert {c % NUM_RANKS for c in m.cards if c != JOKER} == {m.first}
                value = (11 if m.first == 0 else min(m.first + 1, 10)) * len(m.cards)
            total += value
        assert total == opening.value == reference_best_opening(hand, cfg)


def test_action_shapes_are_the_shared_catalogue():
    """Rommé's meld action ids are the shared catalogue's shape ids: the variant with
    wrap-around uses every shape, one without it the runs and sets (ids 992..1364 in the
    layout table of envs/romme/actions.py), so one mask slice serves every variant."""
    assert search(Config(allow_wraparound=True)).shapes == A.SHAPES
    assert search(Config()).shapes == A.SHAPES[:373]
    assert (A.LAY_OFF, A.EXCHANGE, A.MELD, A.NUM_ACTIONS) == (56, 380, 992, 1629)
    names = [A.action_to_str(a) for a in range(A.NUM_ACTIONS)]
    assert len(set(names)) == A.NUM_ACTIONS  # one static meaning per id
    names = [A.action_to_str(A.MELD + i) for i in (0, 307, 308, 372, 373, 636)]
    assert names == [
        "meld AS-3S",
        "meld QC-AC",
        "meld ASHD",
        "meld KSHDC",
        "meld 3S-2S",
        "meld KC-QC",
    ]


def test_shape_values_are_the_table_values():
    """The catalogue's opening values agree with the table's own count (ace 1 low, 11 high,
    a wrap's 2 after the ace)."""
    opening = search(Config(allow_wraparound=True))
    full = np.full(53, 2, np.int8)
    for shape in range(A.NUM_SHAPES):
        assert opening.value[shape] == meld_from_shape(shape, full, 0, False).value()
