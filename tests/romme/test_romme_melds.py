"""The meld search behind the masks, against a brute-force reference on random hands.

The reference knows nothing of the shape catalogue: it checks every subset of the hand's
cards for being a valid meld (trying every window of positions for a run) and combines
disjoint subsets by exhaustive search.
"""

from functools import cache

import numpy as np
import pytest

from envs.core.cards import JOKER, shoe, shuffled, to_counts
from envs.romme import actions as A
from envs.romme.config import Config
from envs.romme.opening import best_opening, layable_shapes


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


def reference_best_opening(hand: list[int], cfg: Config) -> int:
    """Most valuable set of disjoint melds, by exhaustive search over subsets of cards."""
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

    return best((1 << n) - 1)


RULES = [
    {},
    {"joker_limit": "any"},
    {"joker_limit": "one_per_meld", "allow_wraparound": True},
    {"jokers_may_touch": False},
]


def _hands(seed: int, count: int, size: int):
    rng = np.random.default_rng(seed)
    deck = shoe(2, 6)
    for _ in range(count):
        # half the hands from a few suits and ranks so melds are frequent
        if rng.random() < 0.5:
            deck = shoe(2, 6).astype(np.int64)
            deck[:52] *= (np.arange(52) % 13 < 6) & (np.arange(52) // 13 < 2)
        yield shuffled(deck, rng)[:size]


@pytest.mark.parametrize("rules", RULES)
def test_best_opening_matches_brute_force(rules):
    cfg = Config(**rules)
    for hand in _hands(len(str(rules)), 60, 9):
        expected = reference_best_opening(hand, cfg)
        counts = to_counts(hand)
        assert best_opening(counts, cfg)[0] == expected, hand
        for need in (20, 40):
            assert (best_opening(counts, cfg, need)[0] >= need) == (expected >= need), hand


@pytest.mark.parametrize("rules", RULES)
def test_can_open_question_matches_the_full_search(rules):
    """With ``need`` the search takes shortcuts (a bound, a greedy line, skipping the joker
    swaps when no joker is spare); on full hands they answer as the full search does."""
    cfg = Config(**rules)
    for hand in _hands(3 + len(rules), 150, 14):
        counts = to_counts(hand)
        value = best_opening(counts, cfg)[0]
        for need in (20, 40, 51, 70):
            assert (best_opening(counts, cfg, need)[0] >= need) == (value >= need), hand


@pytest.mark.parametrize("rules", RULES)
def test_layable_shapes_match_reference(rules):
    cfg = Config(**rules)
    for hand in _hands(7 + len(rules), 150, 14):
        counts = to_counts(hand)
        got = layable_shapes(counts, cfg)
        for shape in range(A.NUM_SHAPES):
            kinds = A.shape_kinds(shape)
            fill = tuple(k if counts[k] else JOKER for k in kinds)
            is_run, _, first, _, _ = A.SHAPES[shape]
            value = reference_meld_value(fill, cfg, first if is_run else None)
            ok = fill.count(JOKER) <= counts[JOKER] and value >= 0
            assert got[shape] == ok, (hand, A.action_to_str(A.MELD + shape))


def test_opening_melds_are_disjoint_and_add_up():
    cfg = Config()
    for hand in _hands(99, 40, 14):
        counts = to_counts(hand)
        value, shapes = best_opening(counts, cfg)
        left = counts.astype(np.int64)
        total = 0
        for shape in shapes:
            kinds = A.shape_kinds(shape)
            left[JOKER] -= sum(1 for k in kinds if not left[k])
            for k in kinds:
                left[k] -= left[k] > 0
            assert layable_shapes(counts, cfg)[shape]
            total += reference_meld_value(tuple(kinds), Config(joker_limit="any"))
        assert (left >= 0).all() and total == value


def test_agrees_with_the_shared_solver():
    """The shared max-plus solver (envs.core.melds.best_opening) gives the same values; the
    engine keeps its own search for masks because it is ~30x faster and handles K-A-2."""
    from envs.core import melds

    for limit, wild_limit in (
        ("not_more_than_naturals", "not_more_than_naturals"),
        ("any", "none"),
    ):
        rules = melds.MeldRules(group_mode="distinct", wild_limit=wild_limit)
        for hand in _hands(5, 12, 13):
            counts = to_counts(hand)
            assert (
                best_opening(counts, Config(joker_limit=limit))[0]
                == melds.best_opening(counts, rules).value
            ), hand
