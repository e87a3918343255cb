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

from taas.envs.core.actions import ActionTable
from taas.envs.core.cards import NUM_KINDS

DRAW_STOCK = 0
DRAW_DISCARD = 1
DISCARD = 2
SHOW = DISCARD + NUM_KINDS
SHOW_ALL = SHOW + NUM_KINDS
DUBLEE_SWAP = SHOW_ALL + 1

LAYOUT = ActionTable(
    [
        ("draw", DRAW_STOCK, 1),
        ("take", DRAW_DISCARD, 1),
        ("discard", DISCARD, NUM_KINDS),
        ("show", SHOW, NUM_KINDS),
        ("show", SHOW_ALL, 1),
        ("dublee_swap", DUBLEE_SWAP, NUM_KINDS),
    ]
)
NUM_ACTIONS = LAYOUT.size

action_to_str = LAYOUT.to_str
"""``draw``, ``take``, ``discard 7H``, ``show 2H``, ``show``, ``dublee_swap 9C``."""
