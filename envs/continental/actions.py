"""Continental Rummy's fixed flat action layout: one static meaning per id for every config.

====================  ========  =====================================================
ids                   name      meaning
====================  ========  =====================================================
0                     draw      take the top stock card
1                     take      take the top discard
2 .. 54               discard   discard one card of kind ``id - 2`` (turn ends)
55 .. 107             go_out    discard kind ``id - 55`` and lay the rest in groups
108                   go_out    lay the whole hand in groups, no discard
                                (only with ``must_discard_to_go_out=False``)
109                   buy       buy the top discard out of turn (+2 penalty cards)
110                   pass      decline to buy
====================  ========  =====================================================
"""

from __future__ import annotations

from taas.envs.core.actions import ActionTable
from taas.envs.core.cards import NUM_KINDS

DRAW_STOCK = 0
DRAW_DISCARD = 1
DISCARD = 2
GO_OUT = DISCARD + NUM_KINDS
GO_OUT_NO_DISCARD = GO_OUT + NUM_KINDS
BUY = GO_OUT_NO_DISCARD + 1
PASS = BUY + 1

LAYOUT = ActionTable(
    [
        ("draw", DRAW_STOCK, 1),
        ("take", DRAW_DISCARD, 1),
        ("discard", DISCARD, NUM_KINDS),
        ("go_out", GO_OUT, NUM_KINDS),
        ("go_out", GO_OUT_NO_DISCARD, 1),
        ("buy", BUY, 1),
        ("pass", PASS, 1),
    ]
)
NUM_ACTIONS = LAYOUT.size

action_to_str = LAYOUT.to_str
"""``draw``, ``take``, ``discard 7H``, ``go_out 2H``, ``go_out``, ``buy``, ``pass``."""
