"""Melds on the Rommé table: shapes, joker limits, values, lay-off and exchange targets.

A run is stored as its suit, first position (0 = ace low .. 12 = king; positions past 13 wrap
to 2, 3, ... with ``allow_wraparound``) and one joker flag per cell; a set as its rank, the
suits of its natural cards and a joker count (a set's joker stands for any suit it lacks, so
R13's ``8S 8H Jk`` can be exchanged with 8D or 8C). Values follow the opening count: a card at
position 0 (ace low) is worth 1, at 13 (ace high) 11, 2-10 face value, J/Q/K 10; a joker is
worth the card it stands for.
"""

from __future__ import annotations

import numpy as np
from taas.envs.core.cards import JOKER, NUM_RANKS, card_str, kind
from taas.envs.core.opening import position_kind
from taas.envs.romme import actions as A
from taas.envs.romme.config import Config


def position_value(pos: int) -> int:
    """Opening value of the card at run position ``pos`` (ace 1 low, 11 high)."""
    if pos == 0:
        return 1
    if pos == 13:
        return 11
    return min(pos % NUM_RANKS + 1, 10)


RANK_VALUE = [11] + [min(r + 1, 10) for r in range(1, NUM_RANKS)]
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
    """One meld on the table, who laid it and whether it is part of an unfinished opening."""

    __slots__ = (
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
        cells: list[bool] | None = None,
        rank: int = -1,
        suits: int = 0,
        jokers: int = 0,
        provisional: bool = False,
    ):
        self.owner = owner
        self.is_run = is_run
        self.suit = suit
        self.first = first
        self.cells = cells or []
        self.rank = rank
        self.suits = suits
        self.jokers = jokers
        self.provisional = provisional

    # -- contents -------------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self.cells) if self.is_run else bin(self.suits).count("1") + self.jokers

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
        """(position, side) where one more card fits: side 1 high end, 0 low end."""
        n = len(self.cells)
        if n >= 13:
            return []
        out = []
        high = self.first + n
        if high <= 13 or wrap:
            out.append((high, 1))
        if self.first > 0:
            out.append((self.first - 1, 0))
        elif wrap:
            out.append((12, 0))
        return out

    def accepts(self, cfg: Config) -> list[int]:
        """Natural kinds that can be laid off here (at most two for a run)."""
        if self.is_run:
            return [position_kind(self.suit, p) for p, _ in self.ends(cfg.allow_wraparound)]
        if len(self) >= 4:
            return []
        return [kind(self.rank, s) for s in range(4) if not self.suits >> s & 1]

    def joker_end(self, cfg: Config) -> int:
        """Where a joker can be laid off: 1 high end, 0 low end (high first), -1 nowhere."""
        naturals = len(self) - self.joker_count()
        if not jokers_allowed(cfg.joker_limit, naturals, self.joker_count() + 1):
            return -1
        if not self.is_run:
            return 1 if len(self) < 4 else -1
        for _, side in self.ends(cfg.allow_wraparound):
            neighbour = self.cells[-1] if side else self.cells[0]
            if cfg.jokers_may_touch or not neighbour:
                return side
        return -1

    def joker_kinds(self) -> list[int]:
        """Natural kinds that could replace one of its jokers (the exchange)."""
        if self.is_run:
            return [position_kind(self.suit, self.first + i) for i, j in enumerate(self.cells) if j]
        if not self.jokers:
            return []
        return [kind(self.rank, s) for s in range(4) if not self.suits >> s & 1]

    # -- changes ------------------------------------------------------------------------------
    def add(self, card: int, cfg: Config) -> None:
        """Lay off ``card`` (a natural accepted here, or a joker at :meth:`joker_end`)."""
        if not self.is_run:
            if card == JOKER:
                self.jokers += 1
            else:
                self.suits |= 1 << (card // NUM_RANKS)
            return
        if card == JOKER:
            side = self.joker_end(cfg)
        else:
            side = next(
                s for p, s in self.ends(cfg.allow_wraparound) if position_kind(self.suit, p) == card
            )
        if side:
            self.cells.append(card == JOKER)
        else:
            self.cells.insert(0, card == JOKER)
            self.first = self.first - 1 if self.first > 0 else 12

    def exchange(self, card: int) -> None:
        """Put natural ``card`` where a joker stood for it; the joker leaves the meld."""
        if self.is_run:
            for i, j in enumerate(self.cells):
                if j and position_kind(self.suit, self.first + i) == card:
                    self.cells[i] = False
                    return
            raise AssertionError("no joker stands for that card")
        self.suits |= 1 << (card // NUM_RANKS)
        self.jokers -= 1


def meld_from_shape(shape: int, hand: np.ndarray, owner: int, provisional: bool) -> TableMeld:
    """The meld ``meld(shape)`` lays: a natural from ``hand`` where it holds one, else a
    joker (the caller has checked the joker supply and limits)."""
    is_run, suit, first, length, suits = A.SHAPES[shape]
    if is_run:
        cells = [not hand[position_kind(suit, first + i)] for i in range(length)]
        return TableMeld(owner, True, suit=suit, first=first, cells=cells, provisional=provisional)
    held = sum(1 << s for s in range(4) if suits >> s & 1 and hand[kind(first, s)])
    return TableMeld(
        owner,
        False,
        rank=first,
        suits=held,
        jokers=length - bin(held).count("1"),
        provisional=provisional,
    )
