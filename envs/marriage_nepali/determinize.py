"""What one Nepali Marriage seat cannot see, dealt afresh: the search agents' view of a round.

A seat sees its own concealed cards, every face-up card (the pile, exposed starting tunnelas,
shown combinations) and remembers which cards each seat took from the pile: a card a seat took
and has not visibly let go (discarded or shown) is still in its hand. Everything else — the
rest of the other hands, the stock's order and, for a seat that has not seen, the tiplu itself
— is dealt at random from the unseen cards, so a determinization never contradicts the seat's
knowledge and never assumes a tiplu an unseen seat cannot know (it draws one at random from
the unseen cards, as the first shower did).
"""

from __future__ import annotations

import numpy as np

from taas.envs.core.cards import JOKER, NUM_KINDS
from taas.envs.marriage_nepali.rules import NepaliGame, NepaliState


def knows_tiplu(game: NepaliGame, state: NepaliState, player: int) -> bool:
    """Whether ``player`` may look at the tiplu (seen, or ``open_maal``)."""
    return state.tiplu >= 0 and (state.seen[player] or game.config.open_maal)


def known_cards(state: NepaliState, player: int, other: int) -> np.ndarray:
    """Cards ``player`` knows ``other`` holds: taken from the pile and not discarded or shown
    since (a lower bound: a discarded copy may have been another one)."""
    if other == player:
        return state.hands[player].astype(np.int64)
    taken = state.records[1, other].astype(np.int64)
    gone = state.records[0, other].astype(np.int64) + state.shown[other]
    return np.minimum(np.maximum(taken - gone, 0), state.hands[other])


def determinize(game: NepaliGame, state: NepaliState, player: int,
                rng: np.random.Generator) -> NepaliState:
    """A copy of ``state`` in which the cards ``player`` cannot see are dealt at random,
    consistently with hand sizes and the pick-ups ``player`` remembers."""
    s = state.clone()
    n = game.num_players
    known = [known_cards(state, player, q) for q in range(n)]
    pool = np.bincount(state.table.stock, minlength=NUM_KINDS).astype(np.int64)
    for q in range(n):
        if q != player:
            pool += state.hands[q] - known[q]
    hidden_tiplu = state.tiplu >= 0 and not knows_tiplu(game, state, player)
    if hidden_tiplu:
        pool[state.tiplu] += 1
    cards = np.repeat(np.arange(NUM_KINDS), pool)
    rng.shuffle(cards)
    cards = cards.tolist()
    if hidden_tiplu:  # a printed joker is never the tiplu (it is redrawn)
        i = next(i for i, c in enumerate(cards) if c != JOKER)
        s.tiplu = cards.pop(i)
    for q in range(n):
        if q == player:
            continue
        need = int(state.hands[q].sum() - known[q].sum())
        s.hands[q] = known[q] + np.bincount(cards[:need], minlength=NUM_KINDS)
        cards = cards[need:]
    s.table.stock = cards
    s.mask = None
    return s
