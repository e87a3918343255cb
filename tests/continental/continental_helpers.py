"""Build Continental states with chosen hands for rule tests (cards stay conserved)."""

import numpy as np

from taas.envs.continental.config import Config
from taas.envs.continental.rules import DISCARD, ContinentalGame, ContinentalState
from taas.envs.core.cards import NUM_KINDS, parse_cards, shuffled, to_counts


def arrange(
    game: ContinentalGame,
    state: ContinentalState,
    hands: dict[int, str],
    discard: str = "",
    stock_top: str = "",
) -> ContinentalState:
    """Give the listed players exactly these cards, put ``discard`` (bottom to top) on the pile
    and ``stock_top`` on top of the stock; everyone else in the round is dealt the deal size
    from the rest, which becomes the stock."""
    pool = game.shoe(state).astype(np.int64)
    state.hands[:] = 0
    for p, text in hands.items():
        state.hands[p] = to_counts(parse_cards(text))
        pool -= state.hands[p]
    piles = {"discard": parse_cards(discard), "top": parse_cards(stock_top)}
    for cards in piles.values():
        pool -= np.bincount(cards, minlength=NUM_KINDS) if cards else 0
    assert (pool >= 0).all(), "more copies asked for than the shoe holds"
    rest = shuffled(pool, np.random.default_rng(0))
    size = game.config.deal_size
    for p in state.active:
        if p not in hands:
            state.hands[p] = to_counts(rest[:size])
            rest = rest[size:]
    state.table.start(rest + piles["top"][::-1], piles["discard"])
    state.mask = None
    return state


def discard_phase(hand: str, **rules) -> tuple[ContinentalGame, ContinentalState]:
    """Player 0 to discard, holding ``hand`` (drawn from the stock)."""
    game = ContinentalGame(Config(**rules))
    state = game.new_state(np.random.default_rng(0))
    state.active = list(range(game.num_players))
    arrange(game, state, {0: hand}, discard="3D")
    state.current, state.phase, state.table.drawn_discard = 0, DISCARD, -1
    return game, state
