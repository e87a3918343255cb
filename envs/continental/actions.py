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

from taas.envs.core.cards import NUM_KINDS, card_str

DRAW_STOCK = 0
DRAW_DISCARD = 1
DISCARD = 2
GO_OUT = DISCARD + NUM_KINDS
GO_OUT_NO_DISCARD = GO_OUT + NUM_KINDS
BUY = GO_OUT_NO_DISCARD + 1
PASS = BUY + 1
NUM_ACTIONS = PASS + 1


def action_to_str(action: int) -> str:
    """``draw``, ``take``, ``discard 7H``, ``go_out 2H``, ``go_out``, ``buy``, ``pass``."""
    a = int(action)
    if a == DRAW_STOCK:
        return "draw"
    if a == DRAW_DISCARD:
        return "take"
    if DISCARD <= a < GO_OUT:
        return f"discard {card_str(a - DISCARD)}"
    if GO_OUT <= a < GO_OUT_NO_DISCARD:
        return f"go_out {card_str(a - GO_OUT)}"
    if a == GO_OUT_NO_DISCARD:
        return "go_out"
    if a == BUY:
        return "buy"
    if a == PASS:
        return "pass"
    raise ValueError(f"action {action} is outside 0..{NUM_ACTIONS - 1}")
