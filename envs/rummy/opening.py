"""The opening question: the most valuable set of disjoint melds a hand can lay.

Rommé-family games make a player's first melds reach a minimum value, each melded card worth
the place it takes (ace 1 low / 11 high in German Rommé,
:data:`~taas.envs.rummy.melds.ROMME_MELD_VALUES`) and a wild worth the card it stands for. The
rules object (:class:`~taas.envs.rummy.melds.MeldRules`) gives a catalogue of meld shapes, each
listing exact natural cards (:func:`meld_shapes`); a hand
lays a shape with its own card in every slot it holds and a wild in every other, within the
wild limits, and the search picks disjoint shapes.

An engine asks this at every mask of a player who has not opened, so the search is kept lean:
only the shapes the whole hand can lay are candidates (a sub-hand can lay no other), sub-hands
are memoised, and hands are Python integers (one bit per kind held, one more per kind held
twice) so that laying a shape is a few bit operations. Hence its limits: at most two of a kind
in a hand (two packs), groups of distinct suits only (``group_mode="distinct"``), and only the
printed joker wild (no wild ranks). The repository's ``docs/meld-solver.md`` sets it beside the
partition solver.

The mask's two questions run compiled (numba via :mod:`taas.envs.core.jit`, plain Python under
``TAAS_NO_NUMBA``): :meth:`OpeningSearch.layable` and :meth:`OpeningSearch.reaches` ("worth
``need``?", ~6 µs against ~35 µs; the same bound, greedy line and memoised search as
:meth:`OpeningSearch.best`, whose Python search also names the melds). ``reaches`` falls back to
Python where the rules forbid wilds side by side or allow melds of wilds only.

Positions: a run lies on positions 0..13 of one suit (0 = ace low, 13 = ace high); a run over
the corner (``allow_wraparound``) goes on past 13 with the 2 at 14, the 3 at 15 and so on.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

import numpy as np

from taas.envs.core.cards import JOKER, NUM_KINDS, NUM_RANKS, kind
from taas.envs.core.jit import jit, jit_norc
from taas.envs.rummy.melds import ROMME_MELD_VALUES, Meld, MeldRules

Shape = tuple[bool, int, int, int, int]
"""(is_run, suit or -1, first position (a run) or rank (a group), length, suits bitmask (a
group))."""


def position_kind(suit: int, pos: int) -> int:
    """Card kind at run position ``pos`` of ``suit`` (13 = ace high, 14+ wrap to 2, 3, ...)."""
    return kind(pos % NUM_RANKS, suit)


def shape_kinds(shape: Shape) -> list[int]:
    """The natural kinds of a shape, in run order (a group lists its suits S H D C)."""
    is_run, suit, first, length, suits = shape
    if is_run:
        return [position_kind(suit, first + i) for i in range(length)]
    return [kind(first, s) for s in range(4) if suits >> s & 1]


def meld_shapes(rules: MeldRules) -> list[Shape]:
    """Every meld of distinct natural cards the rules allow, in a fixed order: runs (suit x
    first position x length), groups (rank x set of 3 suits up to the group cap), then the runs
    over the corner when ``allow_wraparound``. The corner runs come last so that one action
    layout can hold them all and a rule set without them uses a prefix of it."""
    shapes: list[Shape] = []
    if rules.allow_runs:
        shapes += [
            (True, s, p, n, 0)
            for s in range(4)
            for p in range(12)
            for n in range(3, min(14, 15 - p))
        ]
    if rules.allow_groups:
        cap = rules.group_cap()
        shapes += [
            (False, -1, r, m.bit_count(), m)
            for r in range(NUM_RANKS)
            for m in range(16)
            if 3 <= m.bit_count() <= cap
        ]
    if rules.allow_runs and rules.allow_wraparound:
        shapes += [
            (True, s, p, n, 0)
            for s in range(4)
            for p in range(2, 13)
            for n in range(3, 14)
            if p + n > 14
        ]
    return shapes


@jit_norc
def _layable(counts, jokers, shape_bits, length, min_naturals, out):
    """``out[i]``: does the hand ``counts`` hold enough of shape ``i``'s cards, with ``jokers``
    wilds for the others, within its wild limit (``min_naturals``)? One pass over the shapes
    (compiled: ~1 µs for Rommé's 637 against ~6 µs of numpy calls)."""
    held = 0
    for k in range(JOKER):
        if counts[k] > 0:
            held |= 1 << k
    for i in range(len(shape_bits)):
        x = int(shape_bits[i]) & held  # popcount, SWAR (numba has no int.bit_count)
        x = x - ((x >> 1) & 0x5555555555555555)
        x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
        x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
        naturals = ((x * 0x0101010101010101) >> 56) & 0xFF
        out[i] = naturals >= max(min_naturals[i], length[i] - min(length[i], jokers))


@jit_norc
def _popcount(x):
    """Set bits of a non-negative int64 (SWAR; numba has no ``int.bit_count``)."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return ((x * 0x0101010101010101) >> 56) & 0xFF


@jit
def _search(held, twice, jokers, goal, swaps, usable, cand, cat, memo, flags):
    """:meth:`_Search.best` for the compiled :meth:`OpeningSearch.reaches` (no wilds side by
    side rule, no melds of wilds only): the same branching, memo and early stop, so the same
    values. ``cat`` = (shapes per kind by value, shape bits, values, wild limits, kind bits);
    ``flags[0]`` records that some sub-hand had a joker to spare for a swap."""
    key = (held, twice, jokers)
    if key in memo:
        return memo[key]
    kind_shapes, shape_bits, values, max_wilds, kind_bits = cat
    value = 0
    avail = held & usable
    if avail:
        low = avail & -avail
        k = _popcount(low - 1)
        for j in range(kind_shapes.shape[1]):
            shape = kind_shapes[k, j]
            if shape < 0:
                break
            if not cand[shape]:
                continue
            bits = int(shape_bits[shape])
            need = _popcount(bits & ~held)
            if need > jokers or need > max_wilds[shape]:
                continue
            laid = bits & held
            gain = int(values[shape])
            v = gain + _search(
                held ^ (laid & ~twice),
                twice & ~laid,
                jokers - need,
                goal,
                swaps,
                usable,
                cand,
                cat,
                memo,
                flags,
            )
            value = max(value, v)
            if need < jokers and need < max_wilds[shape] and laid != low:
                flags[0] = 1
                for i in range(kind_bits.shape[1] if swaps else 0):
                    x = int(kind_bits[shape, i])
                    if x == 0:
                        break
                    if x == low or not x & held:
                        continue
                    kept = laid ^ x
                    v = gain + _search(
                        held ^ (kept & ~twice),
                        twice & ~kept,
                        jokers - need - 1,
                        goal,
                        swaps,
                        usable,
                        cand,
                        cat,
                        memo,
                        flags,
                    )
                    value = max(value, v)
            if value >= goal:
                break
        if value < goal:
            v = _search(
                held & ~low, twice & ~low, jokers, goal, swaps, usable, cand, cat, memo, flags
            )
            value = max(value, v)
    memo[key] = value
    return value


@jit
def _reaches(counts, jokers, need, cand, by_value, card_max, wild_max, cat):
    """:meth:`OpeningSearch._solve`'s answer to "worth ``need``?" in compiled code: the bound,
    the greedy line, the quick search, then the search with joker swaps."""
    _, shape_bits, values, max_wilds, _ = cat
    held = 0
    twice = 0
    for k in range(JOKER):
        if counts[k] > 0:
            held |= 1 << k
        if counts[k] > 1:
            twice |= 1 << k
    usable = 0
    for shape in by_value:
        if cand[shape]:
            usable |= int(shape_bits[shape])
    if not usable:
        return False
    bound = wild_max * jokers
    for k in range(JOKER):
        if usable >> k & 1:
            bound += int(card_max[k]) * int(counts[k])
    if bound < need:
        return False
    h, t, j, value = held, twice, jokers, 0  # the greedy line: most valuable shape that fits
    for shape in by_value:
        if not cand[shape]:
            continue
        bits = int(shape_bits[shape])
        n = _popcount(bits & ~h)
        if n > j or n > max_wilds[shape]:
            continue
        laid = bits & h
        h, t, j = h ^ (laid & ~t), t & ~laid, j - n
        value += int(values[shape])
        if value >= need:
            return True
    flags = np.zeros(1, np.int64)
    memo = {(-1, -1, -1): 0}  # typed by an entry no hand matches
    if _search(held, twice, jokers, need, False, usable, cand, cat, memo, flags) >= need:
        return True
    if not flags[0]:
        return False
    memo = {(-1, -1, -1): 0}
    return _search(held, twice, jokers, need, True, usable, cand, cat, memo, flags) >= need


def _pack(flags: np.ndarray) -> int:
    return int.from_bytes(np.packbits(flags, bitorder="little").tobytes(), "little")


def _hand_bits(counts: np.ndarray) -> tuple[int, int]:
    """The natural cards of ``counts`` as two bit masks: kinds held, kinds held twice."""
    natural = counts[:JOKER]
    return _pack(natural > 0), _pack(natural > 1)


@dataclass(frozen=True)
class Opening:
    """The most valuable set of disjoint melds a hand can lay, and the cards kept back."""

    value: int
    melds: tuple[Meld, ...]
    rest: tuple[int, ...]


class OpeningSearch:
    """The shape catalogue of one rules object and the opening searches over it. Build it once
    per rules (:func:`opening_search` caches); an engine keeps it, as its masks ask often.

    Shape ids index :attr:`shapes`; ``length``, ``value`` are per-shape arrays."""

    def __init__(self, rules: MeldRules, position_values: tuple[int, ...] = ROMME_MELD_VALUES):
        if any(rules.wild[:JOKER]):
            raise NotImplementedError("the opening search knows only the printed joker as a wild")
        if rules.allow_groups and rules.group_mode != "distinct":
            raise NotImplementedError('the opening search needs group_mode="distinct"')
        if len(position_values) != 14:
            raise ValueError("position_values needs 14 entries (positions 0..13)")
        self.rules = rules
        self.shapes = meld_shapes(rules)
        self.kinds = [shape_kinds(shape) for shape in self.shapes]
        self.length = np.array([shape[3] for shape in self.shapes], np.int16)

        def worth(pos: int) -> int:  # positions past 13 are the wrap's 2, 3, ...
            return position_values[pos if pos <= 13 else pos - 13]

        slot_values = [
            [worth(first + i) for i in range(n)]
            if run
            else [worth(13 if first == 0 else first)] * n
            for run, _, first, n, _ in self.shapes
        ]
        self.value = np.array([sum(v) for v in slot_values], np.int16)
        # the most a natural card (and a wild) can be worth: bounds what a hand can open with
        self._card_max = [0] * JOKER
        for kinds, values in zip(self.kinds, slot_values, strict=True):
            for k, v in zip(kinds, values, strict=True):
                self._card_max[k] = max(self._card_max[k], v)
        self._jokers_wild = rules.wild[JOKER]
        self._wild_max = max(self._card_max) if self._jokers_wild else 0
        all_wild = rules.allow_all_wild_melds and rules.wild_limit == "none"
        max_wilds = {
            "none": self.length - (0 if all_wild else 1),
            "not_more_than_naturals": self.length // 2,
            "one_per_meld": np.ones_like(self.length),
        }[rules.wild_limit]
        self._min_naturals = self.length - max_wilds
        # the same catalogue as plain Python values for the search: per shape its kinds as one
        # bit each (in run order), all of them as one mask, its value, its wild limit, and,
        # where wilds may not touch, the masks of neighbouring cells of a run
        self._kind_bits = [[1 << k for k in kinds] for kinds in self.kinds]
        self._bits = [sum(bits) for bits in self._kind_bits]
        self._shape_bits = np.array(self._bits, np.uint64)
        self._values = self.value.tolist()
        self._max_wilds = max_wilds.tolist()
        self._neighbours = None
        if not rules.wilds_may_touch:
            self._neighbours = [
                [a | b for a, b in pairwise(bits)] if shape[0] else []
                for shape, bits in zip(self.shapes, self._kind_bits, strict=True)
            ]
        # melds made only of wilds (where the rules allow them): the best shape per length,
        # and per number of spare wilds the best such melds (value, shapes), extended as asked
        self._wild_meld: dict[int, tuple[int, int]] = {}
        if all_wild and self._jokers_wild:
            for i, (run, _, _, n, _) in enumerate(self.shapes):
                best = self._wild_meld.get(n, (0, -1))[0]
                if (rules.wilds_may_touch or not run) and self._values[i] > best:
                    self._wild_meld[n] = (self._values[i], i)
        self._spare_values = [0]
        self._spare_lines: list[tuple[int, ...]] = [()]
        # the catalogue as arrays for the compiled code: layable, and the "worth ``need``?"
        # search (:meth:`reaches`) where the rules need neither the wilds-side-by-side check
        # nor melds of wilds only
        bits = np.array(self._bits, np.int64)
        self._layable_args = (
            bits,
            self.length.astype(np.int64),
            self._min_naturals.astype(np.int64),
        )
        self._by_value = np.argsort(-self.value, kind="stable")
        per_kind: list[list[int]] = [[] for _ in range(JOKER)]
        for shape in self._by_value.tolist():
            for k in self.kinds[shape]:
                per_kind[k].append(shape)
        kind_shapes = np.full((JOKER, max(map(len, per_kind))), -1, np.int64)
        kind_bits = np.zeros((len(self.shapes), max(map(len, self.kinds))), np.int64)
        for k, shapes in enumerate(per_kind):
            kind_shapes[k, : len(shapes)] = shapes
        for shape, kbits in enumerate(self._kind_bits):
            kind_bits[shape, : len(kbits)] = kbits
        values, wilds = self.value.astype(np.int64), max_wilds.astype(np.int64)
        self._reach_cat = (kind_shapes, bits, values, wilds, kind_bits)
        self._card_max_arr = np.array(self._card_max, np.int64)
        self._compiled = self._neighbours is None and not self._wild_meld

    # -- per-shape questions, vectorised for masks -----------------------------------------
    def naturals(self, counts: np.ndarray) -> np.ndarray:
        """Per shape: how many of its cards ``counts`` holds (popcount of 52-bit masks)."""
        return np.bitwise_count(self._shape_bits & np.uint64(_pack(counts[:JOKER] > 0)))

    def layable(self, counts: np.ndarray) -> np.ndarray:
        """Bool per shape: can the hand ``counts`` lay it (wild supply, wild limit, wilds
        touching)?"""
        jokers = int(counts[JOKER]) if self._jokers_wild else 0
        ok = np.empty(len(self.shapes), bool)
        _layable(counts, jokers, *self._layable_args, ok)
        if self._neighbours is not None:
            held = _pack(counts[:JOKER] > 0)
            naturals = self.naturals(counts)
            for shape in np.flatnonzero(ok & (self.length - naturals > 1)).tolist():
                if self._touching(shape, self._bits[shape] & ~held):
                    ok[shape] = False
        return ok

    def _touching(self, shape: int, missing: int) -> bool:
        return any(missing & pair == pair for pair in self._neighbours[shape])

    # -- the opening ---------------------------------------------------------------------
    def reaches(self, counts: np.ndarray, need: int, layable: np.ndarray | None = None) -> bool:
        """Can ``counts`` lay disjoint melds worth ``need``? The answer of
        ``best(counts, need)[0] >= need``, searched in compiled code where the rules allow
        (the engines' mask asks this for every player who has not opened)."""
        if need <= 0:  # no melds are worth 0
            return True
        if layable is None:
            layable = self.layable(counts)
        if not self._compiled:
            return self.best(counts, need, layable)[0] >= need
        jokers = int(counts[JOKER]) if self._jokers_wild else 0
        return bool(
            _reaches(
                counts,
                jokers,
                need,
                layable,
                self._by_value,
                self._card_max_arr,
                self._wild_max,
                self._reach_cat,
            )
        )

    def best(
        self, counts: np.ndarray, need: int | None = None, layable: np.ndarray | None = None
    ) -> tuple[int, list[int]]:
        """(value, shape ids) of the most valuable set of disjoint melds ``counts`` can lay.

        With ``need`` the search stops at the first set worth at least ``need`` (the "can I
        open?" question), so the value is then a lower bound once reached, and a value below
        ``need`` only says that ``need`` is out of reach. ``layable`` is ``layable(counts)``
        when the caller has it already. The shapes are in search order: replaying them with
        ``meld(shape)`` semantics (own card wherever held) can need another order when a wild
        stands in for a held card that a later meld uses.
        """
        value, line = self._solve(counts, need, layable)
        return value, [shape for shape, _ in line]

    def _solve(
        self, counts: np.ndarray, need: int | None, layable: np.ndarray | None
    ) -> tuple[int, list[tuple[int, int]]]:
        """The value and the best line: (shape, bits of the natural cards it takes) per meld.

        Before searching with ``need``, the held cards that some candidate could use, each at
        its highest value, and every joker at the highest value bound what any opening can be
        worth (this rules out about half the hands of Rommé's random play); then a greedy line
        (most valuable candidate first) answers most hands that can open, and only the rest are
        searched."""
        if layable is None:
            layable = self.layable(counts)
        shapes = np.flatnonzero(layable).tolist()
        if not shapes:
            return 0, []
        values = self._values
        ordered = sorted(shapes, key=values.__getitem__, reverse=True)
        by_kind: dict[int, list[int]] = {}
        kinds = self.kinds
        for shape in ordered:
            for k in kinds[shape]:
                by_kind.setdefault(k, []).append(shape)
        jokers = int(counts[JOKER]) if self._jokers_wild else 0
        if need is not None:
            held = counts.tolist()
            card_max = self._card_max
            bound = sum(card_max[k] * held[k] for k in by_kind) + self._wild_max * jokers
            if bound < need:
                return bound, []
        search = _Search(
            self, {1 << k: v for k, v in by_kind.items()}, 10**9 if need is None else need
        )
        self._spare(jokers)
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

    def _spare(self, wilds: int) -> None:
        """Extend the spare-wild tables to ``wilds`` wilds (all 0 and () unless the rules allow
        melds made only of wilds)."""
        values, lines = self._spare_values, self._spare_lines
        while len(values) <= wilds:
            j = len(values)
            best, line = values[j - 1], lines[j - 1]
            for n, (v, shape) in self._wild_meld.items():
                if n <= j and values[j - n] + v > best:
                    best, line = values[j - n] + v, (*lines[j - n], shape)
            values.append(best)
            lines.append(line)

    def can_open_with(self, counts: np.ndarray, card: int, need: int) -> bool:
        """Can ``counts`` (which holds ``card``) lay melds worth ``need`` with ``card`` in one of
        them? Asked when taking the discard requires opening with it."""
        layable = self.layable(counts)
        if not self.reaches(counts, need, layable):
            return False
        held = _hand_bits(counts)[0]
        for shape in np.flatnonzero(layable).tolist():
            kinds = self.kinds[shape]
            missing = len(kinds) - sum(1 for k in kinds if held >> k & 1)
            if (card == JOKER and not missing) or (card != JOKER and card not in kinds):
                continue
            rest = counts.copy()
            for k in kinds:
                if rest[k]:
                    rest[k] -= 1
            rest[JOKER] -= missing
            value = self._values[shape]
            if value >= need or self.reaches(rest, need - value):
                return True
        return False


class _Search:
    """Depth-first search over sub-hands ``(held, twice, jokers)``, memoised: branch on the
    lowest card that some candidate holds: left in hand, or in one candidate shape holding it
    (every meld holds a natural card; melds made only of wilds are laid from the wilds left at
    the end). With ``swaps`` a spare joker may also stand in for a held card of the shape, so
    that card can go to another meld (as a player gets by laying that meld first)."""

    def __init__(self, catalogue: OpeningSearch, by_kind: dict[int, list[int]], goal: int):
        self.by_kind = by_kind
        self.usable = sum(by_kind)
        self.bits = catalogue._bits
        self.kind_bits = catalogue._kind_bits
        self.values = catalogue._values
        self.max_jokers = catalogue._max_wilds
        self.neighbours = catalogue._neighbours
        self._touching = catalogue._touching
        self.spare = catalogue._spare_values  # value of the jokers left at the end, by number
        self.spare_lines = catalogue._spare_lines
        self.goal = goal
        self.swaps = False
        self.swappable = False  # some sub-hand had a joker to spare for a swap
        # sub-hand -> (value, shape laid first or -1, the sub-hand after it)
        self.memo: dict[tuple[int, int, int], tuple[int, int, tuple | None]] = {}

    def result(self, key: tuple[int, int, int]) -> tuple[int, list[tuple[int, int]]]:
        """The value at ``key`` and its best line: (shape, natural bits it takes) per meld,
        the melds of spare wilds last."""
        value, line = self.memo[key][0], []
        while True:
            _, shape, after = self.memo[key]
            if after is None:
                break
            if shape >= 0:  # the cards that left the hand are the shape's natural cards
                line.append((shape, (key[0] & ~after[0]) | (key[1] & ~after[1])))
            key = after
        if not key[0] & self.usable:  # the end of the line: melds of the wilds left, if any
            line += [(shape, 0) for shape in self.spare_lines[key[2]]]
        return value, line

    def greedy(
        self, hand: tuple[int, int, int], ordered: list[int]
    ) -> tuple[int, list[tuple[int, int]]]:
        """Lay the most valuable candidate that still fits, again and again: a quick line
        that often reaches the goal when the hand can open, so the search is not needed."""
        held, twice, jokers = hand
        value, line = 0, []
        for shape in ordered:
            need = self._need(shape, held, jokers)
            if need < 0:
                continue
            laid = self.bits[shape] & held
            held, twice, jokers = held ^ (laid & ~twice), twice & ~laid, jokers - need
            value += self.values[shape]
            line.append((shape, laid))
            if value >= self.goal:
                break
        return value, line

    def _need(self, shape: int, held: int, jokers: int) -> int:
        """Jokers ``shape`` needs from a hand holding ``held`` and ``jokers`` jokers; -1 when it
        cannot be laid (too few jokers, over the limit, or jokers side by side)."""
        missing = self.bits[shape] & ~held
        need = missing.bit_count()
        if need > jokers or need > self.max_jokers[shape]:
            return -1
        if self.neighbours is not None and need > 1 and self._touching(shape, missing):
            return -1
        return need

    def best(self, held: int, twice: int, jokers: int) -> int:
        key = (held, twice, jokers)
        hit = self.memo.get(key)
        if hit is not None:
            return hit[0]
        value, first, after = 0, -1, None
        avail = held & self.usable
        if avail:
            low = avail & -avail
            goal, max_jokers, strict = self.goal, self.max_jokers, self.neighbours is not None
            bits_of, values = self.bits, self.values
            for shape in self.by_kind[low]:
                need = self._need(shape, held, jokers)
                if need < 0:
                    continue
                bits = bits_of[shape]
                missing = bits & ~held
                laid = bits & held
                gain = values[shape]
                rest = (held ^ (laid & ~twice), twice & ~laid, jokers - need)
                v = self.best(*rest) + gain
                if v > value:
                    value, first, after = v, shape, rest
                if need < jokers and need < max_jokers[shape] and laid != low:
                    self.swappable = True
                    for x in self.kind_bits[shape] if self.swaps else ():
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
        else:
            value = self.spare[jokers]
        self.memo[key] = (value, first, after)
        return value


@lru_cache(maxsize=64)
def opening_search(
    rules: MeldRules, position_values: tuple[int, ...] = ROMME_MELD_VALUES
) -> OpeningSearch:
    """The :class:`OpeningSearch` of ``rules``, built once per rules object."""
    return OpeningSearch(rules, position_values)


def best_opening(
    counts: np.ndarray,
    rules: MeldRules,
    need: int | None = None,
    position_values: tuple[int, ...] = ROMME_MELD_VALUES,
) -> Opening:
    """The most valuable set of disjoint melds ``counts`` can lay (not every card need be
    melded), each meld with its wilds named in the places they stand for, and the cards kept
    back. A melded card is worth ``position_values`` of its run position, or of its rank in a
    group (an ace at position 13); a wild is worth the card it stands for. With ``need`` the
    search may stop once ``need`` is reached (see :meth:`OpeningSearch.best`)."""
    c = np.asarray(counts, np.int64)
    if c.shape != (NUM_KINDS,) or c.min() < 0 or c[:JOKER].max() > 2:
        raise ValueError(f"expected {NUM_KINDS} counts, at most 2 of a natural kind")
    search = opening_search(rules, position_values)
    value, line = search._solve(c, need, None)
    left = c.copy()
    melds = []
    for shape, natural in line:
        is_run, _, first, _, _ = search.shapes[shape]
        kinds = search.kinds[shape]
        if is_run:
            cards = [k if natural >> k & 1 else JOKER for k in kinds]
        else:  # a group: its natural cards, then the wilds for the suits it lacks
            cards = [k for k in kinds if natural >> k & 1]
            cards += [JOKER] * (len(kinds) - len(cards))
        for k in cards:
            left[k] -= 1
        melds.append(Meld(tuple(cards), is_run, False, tuple(k == JOKER for k in cards), first))
    rest = np.repeat(np.arange(NUM_KINDS), left).tolist()
    return Opening(value, tuple(melds), tuple(rest))
