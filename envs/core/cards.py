"""Card kinds, parsing and printing shared by every game.

A *card kind* is an ``int``: ``suit * 13 + rank`` for the 52 ranked cards (rank 0 = ace ..
12 = king, suit order S H D C) and ``JOKER = 52`` for a printed joker. Engines keep hands as
count vectors over kinds (``np.int8``, ``NUM_KINDS`` long) because meld search and observation
encoding then become array arithmetic; physical identity (which deck a card came from) is not
needed by any rule, and card conservation is checked on counts.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

import numpy as np

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
SUIT_SYMBOLS = ("♠", "♥", "♦", "♣")
NUM_RANKS = 13
NUM_SUITS = 4
JOKER = 52
NUM_KINDS = 53

_RANK_INDEX = {r: i for i, r in enumerate(RANKS)} | {"T": 9}
_SUIT_INDEX = {s: i for i, s in enumerate(SUITS)} | {sym: i for i, sym in enumerate(SUIT_SYMBOLS)}


def kind(rank: int, suit: int) -> int:
    """The kind id of a ranked card (rank 0 = ace .. 12 = king, suit 0..3 = S H D C)."""
    return suit * NUM_RANKS + rank


def rank_of(card: int) -> int:
    """Rank index 0..12 of a ranked card kind (undefined for ``JOKER``)."""
    return card % NUM_RANKS


def suit_of(card: int) -> int:
    """Suit index 0..3 of a ranked card kind (undefined for ``JOKER``)."""
    return card // NUM_RANKS


def parse_card(token: str) -> int:
    """Parse one card such as ``7C``, ``10h``, ``Ts``, ``A♠`` or ``JK`` (case-insensitive)."""
    t = token.strip().upper()
    if t in ("JK", "JOKER"):
        return JOKER
    rank, suit = t[:-1], t[-1:]
    if rank not in _RANK_INDEX or suit not in _SUIT_INDEX:
        raise ValueError(
            f"bad card {token!r}: expected rank A 2-10 J Q K (T for ten) then suit S H D C, or JK"
        )
    return kind(_RANK_INDEX[rank], _SUIT_INDEX[suit])


def parse_cards(text: str) -> list[int]:
    """Parse a whitespace- or comma-separated list of cards, e.g. ``"7C 10h Ts JK"``."""
    return [parse_card(tok) for tok in text.replace(",", " ").split()]


_NAMES = (*(r + s for s in SUITS for r in RANKS), "JK")
_SYMBOL_NAMES = (*(r + s for s in SUIT_SYMBOLS for r in RANKS), "Jk")


def card_str(card: int, symbols: bool = False) -> str:
    """Print a card kind the way :func:`parse_card` reads it (``10H``, ``JK``); ``symbols``
    uses suit symbols (``10♥``) for people. Read from a table: a round's record prints
    hundreds of cards."""
    if not 0 <= card <= JOKER:
        raise ValueError(f"bad card kind {card}: expected 0..{JOKER}")
    return (_SYMBOL_NAMES if symbols else _NAMES)[card]


def cards_str(cards: Iterable[int], symbols: bool = False) -> str:
    """Print cards separated by spaces."""
    return " ".join(card_str(c, symbols) for c in cards)


def to_counts(cards: Iterable[int]) -> np.ndarray:
    """Count vector (``np.int8``, ``NUM_KINDS`` long) of a list of card kinds."""
    counts = np.zeros(NUM_KINDS, dtype=np.int8)
    for c in cards:
        counts[c] += 1
    return counts


def from_counts(counts: np.ndarray) -> list[int]:
    """Sorted list of card kinds, each repeated by its count (inverse of :func:`to_counts`).
    Counts kept in a float array (as observations hold them) are read if they are whole."""
    counts = np.asarray(counts)
    whole = counts.astype(np.int64)
    if (whole != counts).any() or (whole < 0).any():
        raise ValueError(f"card counts must be whole numbers 0 or more, got {counts.tolist()}")
    return np.repeat(np.arange(len(whole)), whole).tolist()


def shoe(decks: int, jokers: int) -> np.ndarray:
    """Count vector of a multi-deck shoe: ``decks`` copies of each of the 52 cards plus
    ``jokers`` printed jokers."""
    counts = np.full(NUM_KINDS, decks, dtype=np.int8)
    counts[JOKER] = jokers
    return counts


def shuffled(counts: np.ndarray, rng: np.random.Generator) -> list[int]:
    """The cards of a count vector in a random order drawn from ``rng`` (index -1 is the top)."""
    cards = np.repeat(np.arange(len(counts)), counts)
    rng.shuffle(cards)
    return cards.tolist()


def check_hand(cards: list[int], shoe: np.ndarray, sizes: Collection[int], game: str) -> None:
    """Reject a hand the game cannot deal: a card count outside ``sizes`` (a ``range`` or a few
    values) or more copies of a card than ``shoe`` holds. Score helpers would otherwise answer
    for an impossible hand (two cards scored as a penalty of 0, seven kings of spades)."""
    if len(cards) not in sizes:
        if isinstance(sizes, range) and sizes.step == 1 and len(sizes) > 2:
            allowed = f"{sizes[0]} to {sizes[-1]}"
        else:
            allowed = " or ".join(map(str, sizes))
        raise ValueError(f"a {game} hand holds {allowed} cards, not {len(cards)}")
    counts = np.bincount(np.asarray(cards, dtype=np.int64), minlength=NUM_KINDS)
    over = np.flatnonzero(counts > shoe)
    if len(over):
        c = int(over[0])
        raise ValueError(
            f"{counts[c]} copies of {card_str(c)}, but the {game} shoe holds {shoe[c]}"
        )
