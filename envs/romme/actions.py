"""Rommé's fixed flat action layout: one static meaning per id for every config.

====================  ==============  =====================================================
ids                   name            meaning
====================  ==============  =====================================================
0                     draw            take the top stock card
1                     take            take the top discard
2                     abandon         take back the melds of an unfinished opening
3 .. 55               discard         discard one card of kind ``id - 3`` (turn ends)
56 .. 108             lay_off         add one card of kind ``id - 56`` (52 = joker) to a
                                      table meld (target: see :mod:`taas.envs.romme.rules`)
109 .. 160            exchange        put natural kind ``id - 109`` in place of the table
                                      joker that stands for it and take the joker
161 .. 468            meld run        run shapes: suit x first position x length, no wrap
469 .. 533            meld set        set shapes: rank x suit subset (3 or 4 suits)
534 .. 797            meld wrap run   runs over the corner (K-A-2), legal only with
                                      ``allow_wraparound``
====================  ==============  =====================================================

A meld shape lists exact cards. ``meld(shape)`` lays it from the hand, using the natural card
for every slot the hand holds and a joker for every slot it lacks, within the joker limits.
Run positions: 0 = ace low, 1..12 = 2..K, 13 = ace high; a wrap run continues past 13 with
the 2 (position 14), the 3 (15) and so on. A set's joker stands for any suit the set lacks.
"""

from __future__ import annotations

import numpy as np
from taas.envs.core import opening
from taas.envs.core.cards import JOKER, NUM_KINDS, RANKS, SUITS, card_str
from taas.envs.romme.config import Config

DRAW_STOCK = 0
DRAW_DISCARD = 1
ABANDON = 2
DISCARD = 3
LAY_OFF = DISCARD + NUM_KINDS
EXCHANGE = LAY_OFF + NUM_KINDS
MELD = EXCHANGE + JOKER

SHAPES = opening.meld_shapes(Config(allow_wraparound=True).meld_rules())
"""The meld shapes of every variant: the shared catalogue (:mod:`taas.envs.core.opening`) of the
variant with wrap-around, so shape ids are the opening search's ids. Runs, sets, then the wraps,
so a variant without wrap-around uses the first 373. Each is (is_run, suit or -1, first
position or rank, length, suits bitmask for sets)."""
NUM_SHAPES = len(SHAPES)
NUM_ACTIONS = MELD + NUM_SHAPES


def shape_kinds(shape: int) -> list[int]:
    """The natural kinds of a shape, in run order (a set lists its suits S H D C)."""
    return opening.shape_kinds(SHAPES[shape])


# Per shape: its kinds as a 0/1 matrix (shapes x 52), used for vectorised masks.
SHAPE_MATRIX = np.zeros((NUM_SHAPES, JOKER), np.int16)
for _i in range(NUM_SHAPES):
    SHAPE_MATRIX[_i, shape_kinds(_i)] = 1
SHAPE_LENGTH = np.array([sh[3] for sh in SHAPES], np.int16)


def _shape_str(shape: int) -> str:
    is_run, _suit, first, _length, suits = SHAPES[shape]
    cards = shape_kinds(shape)
    if is_run:
        return f"{card_str(cards[0])}-{card_str(cards[-1])}"
    return RANKS[first] + "".join(SUITS[s] for s in range(4) if suits >> s & 1)


def action_to_str(action: int) -> str:
    """``draw``, ``take``, ``abandon``, ``discard 7H``, ``lay_off JK``, ``exchange 6C``,
    ``meld 4H-7H`` (a run, first to last card), ``meld 7SHD`` (a set: rank and suits)."""
    a = int(action)
    if a == DRAW_STOCK:
        return "draw"
    if a == DRAW_DISCARD:
        return "take"
    if a == ABANDON:
        return "abandon"
    if DISCARD <= a < LAY_OFF:
        return f"discard {card_str(a - DISCARD)}"
    if LAY_OFF <= a < EXCHANGE:
        return f"lay_off {card_str(a - LAY_OFF)}"
    if EXCHANGE <= a < MELD:
        return f"exchange {card_str(a - EXCHANGE)}"
    if MELD <= a < NUM_ACTIONS:
        return f"meld {_shape_str(a - MELD)}"
    raise ValueError(f"action {action} is outside 0..{NUM_ACTIONS - 1}")


def meld_action(text: str) -> int:
    """The action id of a shape written as :func:`action_to_str` writes it (``"4H-7H"``,
    ``"QS-AS"``, ``"7SHD"``), for tests and people."""
    for i in range(NUM_SHAPES):
        if _shape_str(i) == text.upper():
            return MELD + i
    raise ValueError(f"no meld shape {text!r}; write runs as 4H-7H and sets as 7SHD")
