"""Rommé's fixed flat action layout: one static meaning per id for every config.

====================  ==============  =====================================================
ids                   name            meaning
====================  ==============  =====================================================
0                     draw            take the top stock card
1                     take            take the top discard
2                     abandon         take back the melds of an unfinished opening
3 .. 55               discard         discard one card of kind ``id - 3`` (turn ends)
56 .. 379             lay_off         lay off on table slot ``(id - 56) // 9``, index
                                      ``(id - 56) % 9``: 0/1 a natural at a run's low/high
                                      end, 2..5 a set's missing suit S/H/D/C, 6/7 a joker at
                                      a run's low/high end, 8 a joker in a set
380 .. 991            exchange        on table slot ``(id - 380) // 17``, index
                                      ``(id - 380) % 17``: 0..12 put the natural of a run's
                                      rank (A..K) in place of the joker that stands for it,
                                      13..16 put a set's rank in suit S/H/D/C in place of a
                                      joker; the player takes the joker
992 .. 1299           meld run        run shapes: suit x first position x length, no wrap
1300 .. 1364          meld set        set shapes: rank x suit subset (3 or 4 suits)
1365 .. 1628          meld wrap run   runs over the corner (K-A-2), legal only with
                                      ``allow_wraparound``
====================  ==============  =====================================================

Table slots: slot ``i`` is the ``i``-th meld laid this round (the observation's table rows).
Every meld holds 3 cards at least, so 110 cards make at most ``MAX_MELDS = 36`` melds and the
slots never run out. A run's lay-off names the end, so the card is the one that fits there; a
set's names the suit. Several melds may take the same card (8H on 8S 8D 8C or on 5H-7H), and
a run may take one at either end: the player chooses.

A meld shape lists exact cards. ``meld(shape)`` lays it from the hand, using the natural card
for every slot the hand holds and a joker for every slot it lacks, within the joker limits.
Run positions: 0 = ace low, 1..12 = 2..K, 13 = ace high; a wrap run continues past 13 with
the 2 (position 14), the 3 (15) and so on. A set's joker stands for any suit the set lacks.
"""

from __future__ import annotations

import numpy as np

from taas.envs.core.actions import ActionTable
from taas.envs.core.cards import JOKER, NUM_KINDS, NUM_RANKS, RANKS, SUITS, card_str
from taas.envs.romme.config import Config
from taas.envs.rummy import opening

DRAW_STOCK = 0
DRAW_DISCARD = 1
ABANDON = 2
DISCARD = 3
LAY_OFF = DISCARD + NUM_KINDS
MAX_MELDS = 36
"""Table slots: 110 cards in melds of 3 cards at least."""
# a lay-off slot's indices: run ends, set suits, joker at a run end, joker in a set
LAY_LOW, LAY_SUIT, LAY_JOKER_LOW, LAY_JOKER_SET, LAY_PER_SLOT = 0, 2, 6, 8, 9
EXCHANGE = LAY_OFF + MAX_MELDS * LAY_PER_SLOT
# an exchange slot's indices: a run's joker by rank, a set's joker by the suit put in
SWAP_SUIT, SWAP_PER_SLOT = NUM_RANKS, NUM_RANKS + 4
MELD = EXCHANGE + MAX_MELDS * SWAP_PER_SLOT

SHAPES = opening.meld_shapes(Config(allow_wraparound=True).meld_rules())
"""The meld shapes of every variant: the shared catalogue (:mod:`taas.envs.rummy.opening`) of the
variant with wrap-around, so shape ids are the opening search's ids. Runs, sets, then the wraps,
so a variant without wrap-around uses the first 373. Each is (is_run, suit or -1, first
position or rank, length, suits bitmask for sets)."""
NUM_SHAPES = len(SHAPES)


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


_LAY_LABELS = ("@{} low", "@{} high", *(f"@{{}} {suit}" for suit in SUITS))
_LAY_LABELS += ("JK @{} low", "JK @{} high", "JK @{}")


def _lay_label(i: int) -> str:
    slot, j = divmod(i, LAY_PER_SLOT)
    return _LAY_LABELS[j].format(slot)


def _swap_label(i: int) -> str:
    slot, j = divmod(i, SWAP_PER_SLOT)
    return f"@{slot} {RANKS[j] if j < SWAP_SUIT else SUITS[j - SWAP_SUIT]}"


LAYOUT = ActionTable(
    [
        ("draw", DRAW_STOCK, 1),
        ("take", DRAW_DISCARD, 1),
        ("abandon", ABANDON, 1),
        ("discard", DISCARD, NUM_KINDS),
        ("lay_off", LAY_OFF, MAX_MELDS * LAY_PER_SLOT, _lay_label),
        ("exchange", EXCHANGE, MAX_MELDS * SWAP_PER_SLOT, _swap_label),
        ("meld", MELD, NUM_SHAPES, _shape_str),
    ]
)
NUM_ACTIONS = LAYOUT.size

action_to_str = LAYOUT.to_str
"""``draw``, ``take``, ``abandon``, ``discard 7H``, ``lay_off @2 high`` (a natural at the
high end of the run in slot 2), ``lay_off @3 D`` (the diamond to the set in slot 3),
``lay_off JK @2 low``, ``lay_off JK @3`` (a joker in a set), ``exchange @2 6`` (the 6 in
place of the run's joker), ``exchange @3 D`` (a set's joker), ``meld 4H-7H`` (a run, first
to last card), ``meld 7SHD`` (a set: rank and suits)."""


def meld_action(text: str) -> int:
    """The action id of a shape written as :func:`action_to_str` writes it (``"4H-7H"``,
    ``"QS-AS"``, ``"7SHD"``), for tests and people."""
    for i in range(NUM_SHAPES):
        if _shape_str(i) == text.upper():
            return MELD + i
    raise ValueError(f"no meld shape {text!r}; write runs as 4H-7H and sets as 7SHD")
