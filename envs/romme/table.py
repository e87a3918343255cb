"""Melds on the Rommé table: shapes, joker limits, values, lay-off and exchange targets.

A run is stored as its suit, first position (0 = ace low .. 12 = king; positions past 13 wrap
to 2, 3, ... with ``allow_wraparound``) and one joker flag per cell; a set as its rank, the
suits of its natural cards and a joker count (a set's joker stands for any suit it lacks, so
R13's ``8S 8H Jk`` can be exchanged with 8D or 8C). Values follow the opening count: a card at
position 0 (ace low) is worth 1, at 13 (ace high) 11, 2-10 face value, J/Q/K 10; a joker is
worth the card it stands for.

A :class:`TableMeld` is an immutable value: a lay-off or an exchange makes a new one. So a
state's copy shares its melds with the original (a cheap ``clone``), and a meld can keep what
it offers (:meth:`TableMeld.offers`) once computed.
"""

from __future__ import annotations

import numpy as np

from taas.envs.core.cards import JOKER, NUM_RANKS, card_str, kind
from taas.envs.romme import actions as A
from taas.envs.romme.config import Config
from taas.envs.rummy.melds import ROMME_MELD_VALUES
from taas.envs.rummy.opening import position_kind


def position_value(pos: int) -> int:
    """Opening value of the card at run position ``pos`` (ace 1 low, 11 high; a wrap run's
    positions past 13 are its 2, 3, ...)."""
    return ROMME_MELD_VALUES[pos if pos <= 13 else pos - 13]


RANK_VALUE = [ROMME_MELD_VALUES[13], *ROMME_MELD_VALUES[1:13]]
"""Opening value of a set's card by rank (an ace in a set is high: 11)."""


def jokers_allowed(limit: str, naturals: int, jokers: int) -> bool:
    """The per-meld joker limit (``Config.joker_limit``); every meld keeps a natural card."""
    if naturals < 1:
        return False
    if limit == "not_more_than_naturals":
        return jokers <= naturals
    if limit == "one_per_meld":
        return jokers <= 1
    return True


class TableMeld:
    """One meld on the table, who laid it and whether it is part of an unfinished opening.
    Never changed in place (see the module docstring)."""

    __slots__ = (
        "_ids",
        "_offers",
        "cells",
        "first",
        "is_run",
        "jokers",
        "owner",
        "provisional",
        "rank",
        "suit",
        "suits",
    )

    def __init__(
        self,
        owner: int,
        is_run: bool,
        suit: int = -1,
        first: int = 0,
        cells: tuple[bool, ...] = (),
        rank: int = -1,
        suits: int = 0,
        jokers: int = 0,
        provisional: bool = False,
    ):
        self.owner = owner
        self.is_run = is_run
        self.suit = suit
        self.first = first
        self.cells = tuple(cells)
        self.rank = rank
        self.suits = suits
        self.jokers = jokers
        self.provisional = provisional
        self._offers = None
        self._ids = None

    def _with(self, **changes) -> TableMeld:
        fields = {
            name: getattr(self, name)
            for name in ("owner", "is_run", "suit", "first", "cells", "rank", "suits", "jokers")
        }
        return TableMeld(**(fields | changes))

    # -- contents -------------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self.cells) if self.is_run else self.suits.bit_count() + self.jokers

    def joker_count(self) -> int:
        return sum(self.cells) if self.is_run else self.jokers

    def naturals(self) -> list[int]:
        """Natural card kinds of the meld."""
        if self.is_run:
            return [
                position_kind(self.suit, self.first + i) for i, j in enumerate(self.cells) if not j
            ]
        return [kind(self.rank, s) for s in range(4) if self.suits >> s & 1]

    def value(self) -> int:
        if self.is_run:
            return sum(position_value(self.first + i) for i in range(len(self.cells)))
        return RANK_VALUE[self.rank] * len(self)

    def cards(self) -> list[int]:
        """Kinds as laid out, jokers as ``JOKER`` (a run from first to last card)."""
        if self.is_run:
            return [
                JOKER if j else position_kind(self.suit, self.first + i)
                for i, j in enumerate(self.cells)
            ]
        return self.naturals() + [JOKER] * self.jokers

    def __str__(self) -> str:
        return " ".join(card_str(c, True) for c in self.cards())

    # -- what it accepts --------------------------------------------------------------------
    def ends(self, wrap: bool) -> list[tuple[int, int]]:
        """(position, side) where one more card fits: side 0 low end, 1 high end."""
        n = len(self.cells)
        if n >= 13:
            return []
        out = []
        if self.first > 0:
            out.append((self.first - 1, 0))
        elif wrap:
            out.append((12, 0))
        high = self.first + n
        if high <= 13 or wrap:
            out.append((high, 1))
        return out

    def offers(self, cfg: Config) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
        """What the meld takes, as (index within its slot's ids, card kind the hand gives):
        lay-offs (:data:`~taas.envs.romme.actions.LAY_OFF` order: a natural at the low or high
        end of a run, a natural of each missing suit of a set, a joker at a run's low or high
        end, a joker in a set) and exchanges (a run's joker by the rank it stands for, a set's
        joker by the suit put in its place). Computed once per meld (melds never change)."""
        if self._offers is not None:
            return self._offers
        lay: list[tuple[int, int]] = []
        swap: list[tuple[int, int]] = []
        jokers = self.joker_count()
        joker_ok = jokers_allowed(cfg.joker_limit, len(self) - jokers, jokers + 1)
        if self.is_run:
            for pos, side in self.ends(cfg.allow_wraparound):
                lay.append((A.LAY_LOW + side, position_kind(self.suit, pos)))
                neighbour = self.cells[-1] if side else self.cells[0]
                if joker_ok and (cfg.jokers_may_touch or not neighbour):
                    lay.append((A.LAY_JOKER_LOW + side, JOKER))
            for i, j in enumerate(self.cells):
                if j:
                    pos = self.first + i
                    swap.append((pos % NUM_RANKS, position_kind(self.suit, pos)))
        else:
            missing = [s for s in range(4) if not self.suits >> s & 1]
            if len(self) < 4:
                lay += [(A.LAY_SUIT + s, kind(self.rank, s)) for s in missing]
                if joker_ok:
                    lay.append((A.LAY_JOKER_SET, JOKER))
            if self.jokers:
                swap += [(A.SWAP_SUIT + s, kind(self.rank, s)) for s in missing]
        self._offers = (lay, swap)
        return self._offers

    def offer_ids(self, cfg: Config, slot: int) -> tuple[list[int], ...]:
        """:meth:`offers` as action ids of table slot ``slot``: (lay-off ids, the kinds they
        take, exchange ids, the kinds they take). Kept for the last slot asked: a meld keeps
        its slot while the table changes around it, and the engine lists the table's offers
        after every change."""
        if self._ids is None or self._ids[0] != slot:
            lay, swap = self.offers(cfg)
            lay_base = A.LAY_OFF + slot * A.LAY_PER_SLOT
            swap_base = A.EXCHANGE + slot * A.SWAP_PER_SLOT
            self._ids = (
                slot,
                [lay_base + i for i, _ in lay],
                [k for _, k in lay],
                [swap_base + i for i, _ in swap],
                [k for _, k in swap],
            )
        return self._ids[1:]

    # -- changes (each a new meld) --------------------------------------------------------------
    def lay_off(self, index: int) -> TableMeld:
        """The meld after the lay-off ``index`` (one of :meth:`offers`' lay-off indices)."""
        if not self.is_run:
            if index == A.LAY_JOKER_SET:
                return self._with(jokers=self.jokers + 1)
            return self._with(suits=self.suits | 1 << (index - A.LAY_SUIT))
        joker = index >= A.LAY_JOKER_LOW
        if (index - A.LAY_JOKER_LOW if joker else index - A.LAY_LOW) == 1:
            return self._with(cells=(*self.cells, joker))
        return self._with(cells=(joker, *self.cells), first=self.first - 1 if self.first else 12)

    def exchange(self, index: int) -> TableMeld:
        """The meld after a natural takes the place of a joker (an exchange index of
        :meth:`offers`); the joker leaves the meld."""
        if not self.is_run:
            return self._with(suits=self.suits | 1 << (index - A.SWAP_SUIT), jokers=self.jokers - 1)
        cells = list(self.cells)
        for i, j in enumerate(cells):
            if j and (self.first + i) % NUM_RANKS == index:
                cells[i] = False
                return self._with(cells=tuple(cells))
        raise ValueError(f"no joker of {self} stands for rank index {index}")

    def committed(self) -> TableMeld:
        """The same meld, no longer provisional (the opening is complete)."""
        return self._with()


def meld_from_shape(shape: int, hand: np.ndarray, owner: int, provisional: bool) -> TableMeld:
    """The meld ``meld(shape)`` lays: a natural from ``hand`` where it holds one, else a
    joker (the caller has checked the joker supply and limits)."""
    is_run, suit, first, length, suits = A.SHAPES[shape]
    if is_run:
        cells = tuple(not hand[position_kind(suit, first + i)] for i in range(length))
        return TableMeld(owner, True, suit=suit, first=first, cells=cells, provisional=provisional)
    held = sum(1 << s for s in range(4) if suits >> s & 1 and hand[kind(first, s)])
    return TableMeld(
        owner,
        False,
        rank=first,
        suits=held,
        jokers=length - held.bit_count(),
        provisional=provisional,
    )
