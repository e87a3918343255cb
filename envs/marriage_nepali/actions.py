"""Traditional Nepali Marriage's fixed flat action layout: one static meaning per id.

=========  ============  ===================================================================
ids        name          meaning
=========  ============  ===================================================================
0          draw          take the top stock card
1          take          take the top discard
2..54      discard       discard one card of kind ``id - 2`` (the turn ends)
55..107    finish        finish, closing with a discard of kind ``id - 55``
108        finish        finish without a closing discard (``dublee_finish_discard=False``)
109..161   expose        expose a starting tunnela of kind ``id - 109`` (before the first draw)
162        expose_done   expose nothing more
163..215   show_tunnela  lay a tunnela of kind ``id - 163`` in the show being built
216..263   show_run      lay a pure sequence (suit-major, 12 starts A..Q per suit, Q-K-A last)
264..316   show_dublee   lay a dublee of kind ``id - 264`` in the show being built
317        show_exposed  show with exposed starting tunnelas only (three or more of them)
318        abandon_show  take an unfinished show back into the hand (no show this turn)
=========  ============  ===================================================================

A show is built one combination at a time: the first ``show_*`` starts it, it completes by
itself when the route's count is reached (3 pure combinations, exposed tunnelas included, or 7
dublees); only combinations that keep a complete show reachable are offered.
"""

from __future__ import annotations

from taas.envs.core.actions import ActionTable
from taas.envs.core.cards import NUM_KINDS, NUM_RANKS, card_str, kind

DRAW_STOCK = 0
DRAW_DISCARD = 1
DISCARD = 2
FINISH = DISCARD + NUM_KINDS
FINISH_ALL = FINISH + NUM_KINDS
EXPOSE = FINISH_ALL + 1
EXPOSE_DONE = EXPOSE + NUM_KINDS
SHOW_TUNNELA = EXPOSE_DONE + 1
RUN_STARTS = NUM_RANKS - 1  # A-2-3 .. J-Q-K, then Q-K-A
SHOW_RUN = SHOW_TUNNELA + NUM_KINDS
SHOW_DUBLEE = SHOW_RUN + 4 * RUN_STARTS
SHOW_EXPOSED = SHOW_DUBLEE + NUM_KINDS
ABANDON_SHOW = SHOW_EXPOSED + 1


def run_cards(i: int) -> tuple[int, int, int]:
    """The three kinds of pure sequence ``i`` (suit ``i // 12``, lowest rank ``i % 12``; the
    last start, Q, wraps to the ace: Q-K-A)."""
    suit, start = divmod(i, RUN_STARTS)
    return tuple(kind((start + j) % NUM_RANKS, suit) for j in range(3))


def _run_label(i: int) -> str:
    return "-".join(card_str(c) for c in run_cards(i))


LAYOUT = ActionTable(
    [
        ("draw", DRAW_STOCK, 1),
        ("take", DRAW_DISCARD, 1),
        ("discard", DISCARD, NUM_KINDS),
        ("finish", FINISH, NUM_KINDS),
        ("finish", FINISH_ALL, 1),
        ("expose", EXPOSE, NUM_KINDS),
        ("expose_done", EXPOSE_DONE, 1),
        ("show_tunnela", SHOW_TUNNELA, NUM_KINDS),
        ("show_run", SHOW_RUN, 4 * RUN_STARTS, _run_label),
        ("show_dublee", SHOW_DUBLEE, NUM_KINDS),
        ("show_exposed", SHOW_EXPOSED, 1),
        ("abandon_show", ABANDON_SHOW, 1),
    ]
)
NUM_ACTIONS = LAYOUT.size

action_to_str = LAYOUT.to_str
"""``draw``, ``discard 7H``, ``finish 3S``, ``show_run 2C-3C-4C``, ``show_dublee 9D``."""
