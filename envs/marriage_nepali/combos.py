"""Combinations and the finishing search (spec 2N.6, 2N.7, 2N.14 items 1-4, 10-12, 15).

A combination has 3 cards (up to ``max_meld_size``). A wild card may stand for any card or for
itself; if naturals plus a wild at face value fit a pattern, the naturals alone fit it too, so a
combination is valid exactly when it is a tunnela (3 identical cards) or its non-wild cards fit
a trial (one rank, different suits) or a sequence (one suit, distinct ranks inside one window,
ace low or high, never K-A-2). With two wilds in three cards the one natural always fits; with
exactly one wild, two identical naturals or K-A-2 do not: the spec's verdicts, no special cases.

The same fact makes every wild card interchangeable in a split, so :class:`Splitter` searches
over the natural cards and a count of wilds (:mod:`.search_kernel`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from taas.envs.core.cards import JOKER, NUM_KINDS, suit_of
from taas.envs.marriage_nepali import search_kernel as K


def fits(naturals: Sequence[int], size: int, ace_high: bool) -> bool:
    """Whether natural cards can be completed by wilds into a trial or a sequence of ``size``
    cards (a printed joker is never natural; no combination holds more than 4 cards)."""
    if len(naturals) > 4:
        return False
    a, b, c, d = (*naturals, -1, -1, -1, -1)[:4]
    return bool(K.fit(a, b, c, d, len(naturals), size, ace_high))


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
    rule set (compiled: :mod:`.search_kernel`). It keeps scratch arrays, read only inside one
    compiled call (which holds the GIL), and the dead ends met so far."""

    def __init__(self, wild: Iterable[int], ace_high: bool = True, max_size: int = 3):
        self.wild = frozenset(wild)
        self.ace_high = ace_high
        self.max_size = max_size
        self._wild = np.zeros(NUM_KINDS, np.bool_)
        self._wild[list(self.wild)] = True
        self._nat = np.zeros(NUM_KINDS, np.int8)
        self._rec = self._new_rec()
        self._failed = np.full((K.FAILED_SLOTS, 2), -1, np.int64)

    def split(self, counts: np.ndarray) -> list[tuple[int, ...]] | None:
        """One arrangement of every card of ``counts`` into valid combinations, or ``None``."""
        rec = self._new_rec()
        if not self._split(counts, rec):
            return None
        wilds = [k for k in sorted(self.wild) for _ in range(int(counts[k]))]
        out: list[tuple[int, ...]] = []
        for row in rec.tolist():
            n, extra = row[4], row[5]
            if n < 0:
                break
            out.append((*row[:n], *wilds[:extra]))
            wilds = wilds[extra:]
        while wilds:
            take = 4 if len(wilds) in (4, 8) and self.max_size == 4 else 3
            out.append(tuple(wilds[:take]))
            wilds = wilds[take:]
        return out

    def can_split(self, counts: np.ndarray) -> bool:
        """Whether every card of ``counts`` goes into valid combinations."""
        return self._split(counts, self._rec)

    def closing_discards(self, counts: np.ndarray) -> list[int]:
        """The held kinds whose discard leaves cards that split into valid combinations (the
        sequence-route finish, spec 2N.7), in kind order."""
        out = np.empty(NUM_KINDS, np.int8)
        if not K.closing(self._counts(counts), self._wild, self.max_size, self.ace_high,
                         self._nat, self._rec, self._failed, out):
            raise ValueError(_BAD_COUNTS)
        return np.flatnonzero(out).tolist()

    def _split(self, counts: np.ndarray, rec: np.ndarray) -> bool:
        found = K.split(self._counts(counts), self._wild, self.max_size, self.ace_high,
                        self._nat, rec, self._failed)
        if found < 0:
            raise ValueError(_BAD_COUNTS)
        return bool(found)

    @staticmethod
    def _new_rec() -> np.ndarray:
        return np.zeros((NUM_KINDS + 2, K.REC_WIDTH), np.int64)  # 3 decks: <= 53 combinations

    @staticmethod
    def _counts(counts: np.ndarray) -> np.ndarray:
        counts = np.asarray(counts)
        if counts.shape != (NUM_KINDS,):
            raise ValueError(f"card counts: expected {NUM_KINDS} kinds, got shape {counts.shape}")
        return counts


_BAD_COUNTS = "card counts must be 0..3 (three decks)"


def dublee_discards(counts: np.ndarray, kinds: int = JOKER) -> list[int]:
    """The held kinds whose discard leaves at least one dublee (a natural pair) among the
    concealed cards: the dublee-route closing discard (spec 2N.7, 2N.14 item 11). Kinds below
    ``kinds`` pair (``Config.dublee_kinds``: a printed joker pair counts only under
    ``joker_dublee``)."""
    counts = np.asarray(counts, np.int8)
    out = []
    for k in np.flatnonzero(counts):
        rest = counts.copy()
        rest[k] -= 1
        if (rest[:kinds] >= 2).any():
            out.append(int(k))
    return out
