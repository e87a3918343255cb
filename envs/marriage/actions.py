"""Marriage's fixed flat action layout: one static meaning per id for every config.

====================  ===========  =====================================================
ids                   name         meaning
====================  ===========  =====================================================
0                     draw         take the top stock card
1                     take         take the top discard
2 .. 54               discard      discard one card of kind ``id - 2`` (turn ends)
55 .. 107             show         discard kind ``id - 55`` and show the rest in melds
108                   show         show the whole hand, no discard
                                   (only with ``show_requires_discard=False``)
109 .. 161            dublee_swap  set aside two cards of kind ``id - 109`` and get the
                                   first wild card of the stock instead of discarding
====================  ===========  =====================================================
"""

from __future__ import annotations

from taas.envs.core.cards import NUM_KINDS, card_str

DRAW_STOCK = 0
DRAW_DISCARD = 1
DISCARD = 2
SHOW = DISCARD + NUM_KINDS
SHOW_ALL = SHOW + NUM_KINDS
DUBLEE_SWAP = SHOW_ALL + 1
NUM_ACTIONS = DUBLEE_SWAP + NUM_KINDS


def action_to_str(action: int) -> str:
    """``draw``, ``take``, ``discard 7H``, ``show 2H``, ``show``, ``dublee_swap 9C``."""
    a = int(action)
    if a == DRAW_STOCK:
        return "draw"
    if a == DRAW_DISCARD:
        return "take"
    if DISCARD <= a < SHOW:
        return f"discard {card_str(a - DISCARD)}"
    if SHOW <= a < SHOW_ALL:
        return f"show {card_str(a - SHOW)}"
    if a == SHOW_ALL:
        return "show"
    if DUBLEE_SWAP <= a < NUM_ACTIONS:
        return f"dublee_swap {card_str(a - DUBLEE_SWAP)}"
    raise ValueError(f"action {action} is outside 0..{NUM_ACTIONS - 1}")
