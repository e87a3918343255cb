"""Mariage's 32-card deck and its fixed flat action layout (one static meaning per id).

Cards have their own ids 0..31, ``suit * 8 + r`` with ``r`` 0..7 = A 10 K Q J 9 8 7 (high to
low) and suits S H D C as in :mod:`taas.envs.core.cards`; ``KIND[c]`` is the shared card kind.

==========  ==============  ===========================================================
ids         name            meaning
==========  ==============  ===========================================================
0 .. 31     ``play c``      lead or follow with card ``c``
32 .. 35    ``marry s``     declare the K-Q marriage of suit ``s`` (then lead its K or Q)
36          ``exchange``    swap the trump 7 in hand for the face-up trump indicator
37          ``close``       close the talon before leading
38          ``claim``       claim 66 and end the deal
==========  ==============  ===========================================================

Declaring a marriage and leading its card are two actions because the rules let the declarer
claim in between (the marriage may be what reaches 66).
"""

from __future__ import annotations

from taas.envs.core.actions import ActionTable
from taas.envs.core.cards import card_str, kind, parse_cards

NUM_CARDS = 32
RANK_NAMES = ("A", "10", "K", "Q", "J", "9", "8", "7")
_CORE_RANK = (0, 9, 12, 11, 10, 8, 7, 6)  # core rank index of each Mariage rank
ACE, TEN, KING, QUEEN, JACK, NINE, EIGHT, SEVEN = range(8)
RANK_POINTS = (11, 10, 4, 3, 2, 0, 0, 0)

SUIT = tuple(c // 8 for c in range(NUM_CARDS))
RANK = tuple(c % 8 for c in range(NUM_CARDS))
POINTS = tuple(RANK_POINTS[r] for r in RANK)
STRENGTH = tuple(7 - r for r in RANK)
KIND = tuple(kind(_CORE_RANK[r], s) for s, r in zip(SUIT, RANK, strict=True))
_FROM_KIND = {k: c for c, k in enumerate(KIND)}

PLAY = 0
MARRY = PLAY + NUM_CARDS
EXCHANGE = MARRY + 4
CLOSE = EXCHANGE + 1
CLAIM = CLOSE + 1
NUM_ACTIONS = CLAIM + 1
SUIT_NAMES = ("S", "H", "D", "C")


def card(rank: int, suit: int) -> int:
    """Card id of a Mariage rank (0..7 = A 10 K Q J 9 8 7) and suit (0..3 = S H D C)."""
    return suit * 8 + rank


def name(c: int, symbols: bool = False) -> str:
    """``10H`` style name of a Mariage card id."""
    return card_str(KIND[c], symbols)


def parse(text: str) -> list[int]:
    """Mariage card ids from text such as ``"AS 10H KD"``; ``ValueError`` for cards not in the
    32-card pack (2-6)."""
    out = []
    for k in parse_cards(text):
        if k not in _FROM_KIND:
            raise ValueError(f"{card_str(k)} is not in the 32-card Mariage pack (A 10 K Q J 9 8 7)")
        out.append(_FROM_KIND[k])
    return out


def bits(cards: list[int]) -> int:
    """Bitmask of card ids."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(mask: int) -> list[int]:
    """Card ids in a bitmask, ascending (strongest first within a suit)."""
    return [c for c in range(NUM_CARDS) if mask >> c & 1]


LAYOUT = ActionTable(
    [
        ("play", PLAY, NUM_CARDS, name),
        ("marry", MARRY, 4, SUIT_NAMES.__getitem__),
        ("exchange", EXCHANGE, 1),
        ("close", CLOSE, 1),
        ("claim", CLAIM, 1),
    ]
)
action_to_str = LAYOUT.to_str  # ``play 10H``, ``marry S``, ``exchange``, ``close``, ``claim``
