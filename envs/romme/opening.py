"""The opening question: the highest-valued set of disjoint melds a hand can lay.

Rommé's opening needs melds worth ``opening_min`` laid in one turn, a joker worth the card it
stands for, ace 1 low / 11 high. The engine asks it at every play-phase mask of a player who
has not opened (meld shapes are offered only while an opening can still be completed), so it
is kept lean: only the shapes the whole hand can lay are candidates (a sub-hand can lay no
other), sub-hands are memoised within one question, and the search works on hands written as
Python integers (one bit per card kind held, one more for a second copy: two packs hold at
most two of a kind) so that laying a shape is a few bit operations rather than a new tuple.
"""

from __future__ import annotations

from functools import cache
from itertools import pairwise

import numpy as np

from envs.core.cards import JOKER
from envs.romme import actions as A
from envs.romme.config import Config
from envs.romme.table import SHAPE_KINDS, SHAPE_VALUE, shape_jokers

_BIT = np.uint64(1) << np.arange(JOKER, dtype=np.uint64)
_SHAPE_BITS = (A.SHAPE_MATRIX.astype(np.uint64) * _BIT).sum(axis=1).astype(np.uint64)
_LENGTH = A.SHAPE_LENGTH.astype(np.uint8)
_NATURAL_MIN = {
    "not_more_than_naturals": (_LENGTH + 1) // 2,
    "one_per_meld": _LENGTH - 1,
    "any": np.ones_like(_LENGTH),
}
# the most a card can be worth in a meld: an ace 11 (high), 2-10 face value, J/Q/K 10
_CARD_MAX = [11, *range(2, 11), 10, 10, 10] * 4
_WRAP = np.zeros(A.NUM_SHAPES, bool)
_WRAP[A.WRAP_SHAPES] = True

# The same catalogue as plain Python values for the search: per shape its kinds as one bit
# each (in run order), all of them as one mask, its value, the most jokers its limit allows
# (``table.jokers_allowed``: at least one natural card), and the pairs of neighbouring cells
# of a run (for ``jokers_may_touch=False``).
_KIND_BITS = [[1 << k for k in kinds] for kinds in SHAPE_KINDS]
_BITS = [sum(bits) for bits in _KIND_BITS]
_VALUE = SHAPE_VALUE.tolist()
_MAX_JOKERS = {
    "not_more_than_naturals": [n // 2 for n in A.SHAPE_LENGTH.tolist()],
    "one_per_meld": [1] * A.NUM_SHAPES,
    "any": [n - 1 for n in A.SHAPE_LENGTH.tolist()],
}
_NEIGHBOURS = [
    [a | b for a, b in pairwise(bits)] if A.SHAPES[i][0] else []
    for i, bits in enumerate(_KIND_BITS)
]


def _hand_bits(counts: np.ndarray) -> tuple[int, int]:
    """The natural cards of ``counts`` as two bit masks: kinds held, kinds held twice."""
    natural = counts[:JOKER]
    return _pack(natural > 0), _pack(natural > 1)


def _pack(flags: np.ndarray) -> int:
    return int.from_bytes(np.packbits(flags, bitorder="little").tobytes(), "little")


def shape_naturals(counts: np.ndarray) -> np.ndarray:
    """Per shape: how many of its cards ``counts`` holds (popcount of 52-bit masks)."""
    return np.bitwise_count(_SHAPE_BITS & np.uint64(_pack(counts[:JOKER] > 0)))


@cache
def _naturals_needed(limit: str, wrap: bool, jokers: int) -> np.ndarray:
    """Per shape: the natural cards a hand with ``jokers`` must hold to lay it (the joker
    limit, and one joker per card it lacks); more than any shape has where wraps are barred."""
    needed = np.maximum(_NATURAL_MIN[limit], _LENGTH - np.minimum(_LENGTH, jokers))
    if not wrap:
        needed[_WRAP] = 255
    return needed


def layable_shapes(counts: np.ndarray, cfg: Config) -> np.ndarray:
    """Bool per shape: can ``meld(shape)`` be laid from ``counts`` (joker supply, joker
    limit, wrap and touching rules)? Vectorised, for masks."""
    naturals = shape_naturals(counts)
    jokers = int(counts[JOKER])
    ok = naturals >= _naturals_needed(cfg.joker_limit, cfg.allow_wraparound, jokers)
    if not cfg.jokers_may_touch:
        for shape in np.flatnonzero(ok & (_LENGTH - naturals > 1)):
            if shape_jokers(int(shape), counts, True, cfg.joker_limit, False) < 0:
                ok[shape] = False
    return ok


def best_opening(
    counts: np.ndarray,
    cfg: Config,
    need: int | None = None,
    layable: np.ndarray | None = None,
) -> tuple[int, list[int]]:
    """(value, shape ids) of the most valuable set of disjoint melds ``counts`` can lay.

    With ``need`` the search stops at the first set worth at least ``need`` (the "can I
    open?" question), so the value returned is then only a lower bound once it is reached, and
    a value below ``need`` only says that ``need`` is out of reach: before searching, the held
    cards that some layable shape could use, each at its highest value, and every joker at 11
    bound what any opening can be worth (this rules out about half the hands of random play);
    then a greedy line (most valuable candidate first) answers most hands that can open, and
    only the rest are searched.
    ``layable`` is ``layable_shapes(counts, cfg)`` when the caller has it already.
    """
    if layable is None:
        layable = layable_shapes(counts, cfg)
    shapes = np.flatnonzero(layable).tolist()
    if not shapes:
        return 0, []
    # the candidates holding each kind, most valuable first
    ordered = sorted(shapes, key=_VALUE.__getitem__, reverse=True)
    by_kind: dict[int, list[int]] = {}
    for shape in ordered:
        for k in SHAPE_KINDS[shape]:
            by_kind.setdefault(k, []).append(shape)
    jokers = int(counts[JOKER])
    if need is not None:
        held = counts.tolist()
        bound = sum(_CARD_MAX[k] * held[k] for k in by_kind) + 11 * jokers
        if bound < need:
            return bound, []
    search = _Search({1 << k: v for k, v in by_kind.items()}, cfg, 10**9 if need is None else need)
    root = (*_hand_bits(counts), jokers)
    if need is not None:
        found = search.greedy(root, ordered)
        if found[0] >= need:
            return found
        # then the quick search (no joker swaps); it is exact when no sub-hand it met had a
        # joker to spare for a swap
        if search.best(*root) >= need or not search.swappable:
            return search.result(root)
    search.memo.clear()
    search.swaps = True
    search.best(*root)
    return search.result(root)


class _Search:
    """Depth-first search over sub-hands ``(held, twice, jokers)``, memoised: branch on the
    lowest card that some candidate holds: left in hand, or in one candidate shape holding it
    (every meld holds a natural card). With ``swaps`` a spare joker may also stand in for a
    held card of the shape, so that card can go to another meld (as a player gets by laying
    that meld first)."""

    def __init__(self, by_kind: dict[int, list[int]], cfg: Config, goal: int):
        self.by_kind = by_kind
        self.usable = sum(by_kind)
        self.max_jokers = _MAX_JOKERS[cfg.joker_limit]
        self.touch = cfg.jokers_may_touch
        self.goal = goal
        self.swaps = False
        self.swappable = False  # some sub-hand had a joker to spare for a swap
        # sub-hand -> (value, shape laid first or -1, the sub-hand after it)
        self.memo: dict[tuple[int, int, int], tuple[int, int, tuple | None]] = {}

    def result(self, key: tuple[int, int, int]) -> tuple[int, list[int]]:
        """The value at ``key`` and the shapes along its best line."""
        value, melds = self.memo[key][0], []
        while key is not None:
            _, shape, key = self.memo[key]
            if shape >= 0:
                melds.append(shape)
        return value, melds

    def greedy(self, hand: tuple[int, int, int], ordered: list[int]) -> tuple[int, list[int]]:
        """Lay the most valuable candidate that still fits, again and again: a quick line
        that often reaches the goal when the hand can open, so the search is not needed."""
        held, twice, jokers = hand
        value, melds = 0, []
        max_jokers, strict = self.max_jokers, not self.touch
        for shape in ordered:
            bits = _BITS[shape]
            missing = bits & ~held
            need = missing.bit_count()
            if need > jokers or need > max_jokers[shape]:
                continue
            if strict and need > 1 and self._touching(shape, missing):
                continue
            laid = bits & held
            held, twice, jokers = held ^ (laid & ~twice), twice & ~laid, jokers - need
            value += _VALUE[shape]
            melds.append(shape)
            if value >= self.goal:
                break
        return value, melds

    def _touching(self, shape: int, missing: int) -> bool:
        return any(missing & pair == pair for pair in _NEIGHBOURS[shape])

    def best(self, held: int, twice: int, jokers: int) -> int:
        key = (held, twice, jokers)
        hit = self.memo.get(key)
        if hit is not None:
            return hit[0]
        value, first, after = 0, -1, None
        avail = held & self.usable
        if avail:
            low = avail & -avail
            goal, max_jokers, strict = self.goal, self.max_jokers, not self.touch
            for shape in self.by_kind[low]:
                bits = _BITS[shape]
                missing = bits & ~held
                need = missing.bit_count()
                if need > jokers or need > max_jokers[shape]:
                    continue
                if strict and need > 1 and self._touching(shape, missing):
                    continue
                laid = bits & held
                gain = _VALUE[shape]
                rest = (held ^ (laid & ~twice), twice & ~laid, jokers - need)
                v = self.best(*rest) + gain
                if v > value:
                    value, first, after = v, shape, rest
                if need < jokers and need < max_jokers[shape] and laid != low:
                    self.swappable = True
                    for x in _KIND_BITS[shape] if self.swaps else ():
                        if x == low or not x & held:
                            continue
                        if strict and self._touching(shape, missing | x):
                            continue
                        kept = laid ^ x
                        rest = (held ^ (kept & ~twice), twice & ~kept, jokers - need - 1)
                        v = self.best(*rest) + gain
                        if v > value:
                            value, first, after = v, shape, rest
                if value >= goal:
                    break
            if value < goal:
                rest = (held & ~low, twice & ~low, jokers)
                v = self.best(*rest)
                if v > value:
                    value, first, after = v, -1, rest
        self.memo[key] = (value, first, after)
        return value


def _minus_shape(counts: tuple, shape: int, jokers: int) -> tuple:
    rest = list(counts)
    for c in SHAPE_KINDS[shape]:
        if counts[c]:
            rest[c] -= 1
    rest[JOKER] -= jokers
    return tuple(rest)


def can_open_with(counts: np.ndarray, card: int, cfg: Config, need: int) -> bool:
    """Can ``counts`` (which holds ``card``) lay melds worth ``need`` with ``card`` in one of
    them? Asked when taking the discard requires opening with it."""
    if best_opening(counts, cfg, need)[0] < need:
        return False
    c = tuple(int(x) for x in counts)
    rules = (cfg.allow_wraparound, cfg.joker_limit, cfg.jokers_may_touch)
    for shape in np.flatnonzero(layable_shapes(counts, cfg)).tolist():
        jokers = shape_jokers(shape, c, *rules)
        if (card == JOKER and not jokers) or (card != JOKER and card not in SHAPE_KINDS[shape]):
            continue
        rest = np.array(_minus_shape(c, shape, jokers))
        if SHAPE_VALUE[shape] + best_opening(rest, cfg, need - SHAPE_VALUE[shape])[0] >= need:
            return True
    return False
