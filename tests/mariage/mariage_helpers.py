"""Readable positions for the Mariage tests: hands and talons written as cards, moves as words."""

from __future__ import annotations

from taas.envs.mariage.actions import (
    CLAIM,
    CLOSE,
    EXCHANGE,
    MARRY,
    NUM_CARDS,
    PLAY,
    SUIT_NAMES,
    parse,
)
from taas.envs.mariage.config import Config
from taas.envs.mariage.rules import MariageGame, MariageState

WORDS = {"claim": CLAIM, "close": CLOSE, "exchange": EXCHANGE}


def game(**rules) -> MariageGame:
    return MariageGame(Config(**rules))


def position(g: MariageGame, p0: str, p1: str, indicator: str | None = None, top: str = "",
             full: bool = True, dealer: int = 1, trump: str | None = None) -> MariageState:
    """Player 0 leads (dealer 1 by default). The talon has ``indicator`` at the bottom and
    ``top`` drawn first; with ``full`` the rest of the pack fills the talon in between."""
    hands = [parse(p0), parse(p1)]
    ind = parse(indicator) if indicator else []
    first = parse(top)
    rest = []
    if full:
        used = set(hands[0] + hands[1] + ind + first)
        rest = [c for c in range(NUM_CARDS) if c not in used]
    talon = ind + rest + first[::-1]
    return g.deal_from_cards(hands, talon, dealer=dealer,
                             trump=SUIT_NAMES.index(trump) if trump else None)


def action(word: str) -> int:
    """``claim``/``close``/``exchange``, ``marryH``, or a card such as ``10C`` (play it)."""
    if word in WORDS:
        return WORDS[word]
    if word.startswith("marry"):
        return MARRY + SUIT_NAMES.index(word[-1])
    return PLAY + parse(word)[0]


def play(g: MariageGame, s: MariageState, moves: str) -> None:
    for word in moves.split():
        g.apply_action(s, action(word))


def legal_cards(g: MariageGame, s: MariageState) -> set[int]:
    mask = g.legal_mask(s)
    return {c for c in range(NUM_CARDS) if mask[PLAY + c]}
