"""Combinations and the finishing search (spec 2N.6, 2N.7, 2N.14 items 1-4, 10-12, 15).

A combination has 3 cards (up to ``max_meld_size``). A wild card may stand for any card or for
itself; if naturals plus a wild at face value fit a pattern, the naturals alone fit it too, so a
combination is valid exactly when it is a tunnela (3 identical cards) or its non-wild cards fit
a trial (one rank, different suits) or a sequence (one suit, distinct ranks inside one window,
ace low or high, never K-A-2). With two wilds in three cards the one natural always fits; with
exactly one wild, two identical naturals or K-A-2 do not: the spec's verdicts, no special cases.

The same fact makes every wild card interchangeable in a split, so :class:`Splitter` searches
over the natural cards and a count of wilds, memoised, and tries every closing discard of a
hand against one shared memo.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence

import numpy as np

from taas.envs.core.cards import JOKER, NUM_RANKS, rank_of, suit_of


def fits(naturals: Sequence[int], size: int, ace_high: bool) -> bool:
    """Whether natural cards can be completed by wilds into a trial or a sequence of ``size``
    cards (a printed joker is never natural)."""
    if not naturals:
        return True
    if JOKER in naturals:
        return False
    ranks = [rank_of(c) for c in naturals]
    suits = [suit_of(c) for c in naturals]
    if len(set(ranks)) == 1:
        return len(set(suits)) == len(suits)  # a (dirty) trial
    if len(set(suits)) != 1 or len(set(ranks)) != len(ranks):
        return False
    for high in (False, True) if ace_high else (False,):
        pos = [NUM_RANKS if (r == 0 and high) else r for r in ranks]
        if max(pos) - min(pos) <= size - 1:
            return True
    return False


def is_combination(cards: Sequence[int], wild: frozenset[int], ace_high: bool = True,
                   max_size: int = 3) -> bool:
    """Whether ``cards`` form one valid combination for a player whose wild set is ``wild``
    (empty for an unseen player)."""
    if not 3 <= len(cards) <= max_size:
        return False
    if len(cards) == 3 and len(set(cards)) == 1:
        return True  # a tunnela (JK JK JK included, spec 2N.14 item 12)
    return fits([c for c in cards if c not in wild], len(cards), ace_high)


def is_pure(cards: Sequence[int], ace_high: bool = True) -> bool:
    """A primary combination for showing: a tunnela or a natural pure sequence of exactly 3
    cards, judged at face value (spec 2N.4, 2N.14 item 1). Trials are not pure."""
    if len(cards) != 3:
        return False
    if len(set(cards)) == 1:
        return True
    return len({suit_of(c) for c in cards}) == 1 and fits(cards, 3, ace_high)


class Splitter:
    """Exact search for splitting count vectors into valid combinations, for one wild set and
    rule set. Answers are memoised per instance (one per round and player view)."""

    def __init__(self, wild: Iterable[int], ace_high: bool = True, max_size: int = 3):
        self.wild = frozenset(wild)
        self.ace_high = ace_high
        self.max_size = max_size
        self._memo: dict[tuple, tuple | None] = {}
        self._fits: dict[tuple, bool] = {}

    def split(self, counts: np.ndarray) -> list[tuple[int, ...]] | None:
        """One arrangement of every card of ``counts`` into valid combinations, or ``None``."""
        naturals, wilds = self._parts(counts)
        out: list[tuple[int, ...]] = []
        while naturals:
            step = self._solve(naturals, len(wilds))
            if step is None:
                return None
            used, extra, naturals = step
            out.append((*used, *wilds[:extra]))
            wilds = wilds[extra:]
        if not self._wilds_only(len(wilds)):
            return None
        while wilds:
            take = 4 if len(wilds) in (4, 8) and self.max_size == 4 else 3
            out.append(tuple(wilds[:take]))
            wilds = wilds[take:]
        return out

    def can_split(self, counts: np.ndarray) -> bool:
        """Whether every card of ``counts`` goes into valid combinations."""
        naturals, wilds = self._parts(counts)
        return self._splits(naturals, len(wilds))

    def closing_discards(self, counts: np.ndarray) -> list[int]:
        """The held kinds whose discard leaves cards that split into valid combinations (the
        sequence-route finish, spec 2N.7), in kind order. Wild cards are interchangeable, so
        one answer serves every wild kind held."""
        naturals, wilds = self._parts(counts)
        w = len(wilds)
        out = []
        if w and self._splits(naturals, w - 1):
            out += sorted(set(wilds))
        for i, k in enumerate(naturals):
            if (i == 0 or naturals[i - 1] != k) and self._splits(
                naturals[:i] + naturals[i + 1:], w
            ):
                out.append(k)
        return sorted(out)

    def _splits(self, naturals: tuple[int, ...], w: int) -> bool:
        return self._wilds_only(w) if not naturals else self._solve(naturals, w) is not None

    def _parts(self, counts: np.ndarray) -> tuple[tuple[int, ...], list[int]]:
        """The natural cards (sorted) and the wild cards of a count vector."""
        naturals, wilds = [], []
        for k in np.flatnonzero(counts).tolist():
            (wilds if k in self.wild else naturals).extend([k] * int(counts[k]))
        return tuple(naturals), wilds

    def _wilds_only(self, w: int) -> bool:
        """Whether ``w`` wild cards alone split (groups of 3, or 3-4 with ``max_meld_size=4``)."""
        return w % 3 == 0 if self.max_size == 3 else w not in (1, 2, 5)

    def _solve(self, naturals: tuple[int, ...], w: int) -> tuple | None:
        """The combination for the lowest natural card, as (its naturals, wilds it takes, the
        naturals left), whose rest still splits; ``None`` when no split exists."""
        key = (naturals, w)
        if key in self._memo:
            return self._memo[key]
        self._memo[key] = found = None
        first, rest = naturals[0], naturals[1:]
        partners = sorted({c for c in rest if c == first or _NEAR[first][c]})
        for size in range(3, self.max_size + 1):
            for n_partners in range(min(size - 1, len(rest)) + 1):
                extra = size - 1 - n_partners
                if extra > w:
                    continue
                for chosen in itertools.combinations_with_replacement(partners, n_partners):
                    used = (first, *chosen)
                    if not (extra == 0 and size == 3 and len(set(used)) == 1) and not self._fit(
                        used, size
                    ):
                        continue
                    left = list(rest)
                    try:
                        for c in chosen:
                            left.remove(c)
                    except ValueError:
                        continue  # fewer copies held than chosen
                    left_t = tuple(left)
                    ok = (self._wilds_only(w - extra) if not left_t
                          else self._solve(left_t, w - extra) is not None)
                    if ok:
                        found = (used, extra, left_t)
                        self._memo[key] = found
                        return found
        return found

    def _fit(self, used: tuple[int, ...], size: int) -> bool:
        """:func:`fits` under this splitter's ace rule, cached."""
        key = (used, size)
        ok = self._fits.get(key)
        if ok is None:
            ok = self._fits[key] = fits(used, size, self.ace_high)
        return ok


# _NEAR[a][b]: whether ranked cards a and b share a rank or a suit (may share a combination)
_NEAR = [[a < JOKER and b < JOKER and (rank_of(a) == rank_of(b) or suit_of(a) == suit_of(b))
          for b in range(JOKER + 1)] for a in range(JOKER + 1)]


def dublee_discards(counts: np.ndarray) -> list[int]:
    """The held kinds whose discard leaves at least one dublee (a natural pair) among the
    concealed cards: the dublee-route closing discard (spec 2N.7, 2N.14 item 11). A printed
    joker pair counts only under the ALT noted in the spec, which this engine leaves out."""
    counts = np.asarray(counts, np.int8)
    out = []
    for k in np.flatnonzero(counts):
        rest = counts.copy()
        rest[k] -= 1
        if (rest[:JOKER] >= 2).any():
            out.append(int(k))
    return out

