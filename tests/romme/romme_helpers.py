"""Build Rommé states with chosen hands and table melds for rule tests (cards stay conserved)."""

import numpy as np

from taas.envs.core.cards import JOKER, NUM_KINDS, NUM_RANKS, parse_cards, shuffled, to_counts
from taas.envs.romme.config import Config
from taas.envs.romme.rules import DRAW, PLAY, RommeGame, RommeState
from taas.envs.romme.table import TableMeld


def table_meld(owner: int, text: str) -> TableMeld:
    """A meld from cards in order, e.g. ``"5C JK 7C"`` (a run) or ``"8S 8H JK"`` (a set)."""
    cards = parse_cards(text)
    naturals = [c for c in cards if c != JOKER]
    ranks = {c % NUM_RANKS for c in naturals}
    if len(ranks) == 1 and len(naturals) > 1:
        suits = sum(1 << (c // NUM_RANKS) for c in naturals)
        return TableMeld(
            owner, False, rank=ranks.pop(), suits=suits, jokers=len(cards) - len(naturals)
        )
    i, c = next((i, c) for i, c in enumerate(cards) if c != JOKER)
    pos = c % NUM_RANKS
    if pos == 0 and i > 0:
        pos = 13
    first = pos - i
    return TableMeld(
        owner, True, suit=c // NUM_RANKS, first=first, cells=[c == JOKER for c in cards]
    )


def setup(
    hands: dict[int, str],
    melds: tuple[tuple[int, str], ...] = (),
    opened: tuple[int, ...] = (),
    current: int = 0,
    phase: int = PLAY,
    discard: str = "3D",
    stock_top: str = "",
    stock_size: int | None = None,
    **rules,
) -> tuple[RommeGame, RommeState]:
    """Player ``current`` to move in ``phase`` holding ``hands[current]``; listed hands are
    exact, others are dealt from the rest; ``melds`` lie on the table; ``stock_top`` (listed
    bottom to top) sits on top of the stock, which is cut to ``stock_size`` cards if given
    (the cut cards go to the bottom of the discard pile so cards stay conserved)."""
    game = RommeGame(Config(**rules))
    state = game.new_state(np.random.default_rng(0))
    pool = game.shoe(state).astype(np.int64)
    state.hands[:] = 0
    for p, text in hands.items():
        state.hands[p] = to_counts(parse_cards(text))
        pool -= state.hands[p]
    state.melds = [table_meld(o, t) for o, t in melds]
    for m in state.melds:
        np.subtract.at(pool, m.cards(), 1)
    pile, top = parse_cards(discard), parse_cards(stock_top)
    for c in pile + top:
        pool[c] -= 1
    assert (pool >= 0).all(), "more copies asked for than the shoe holds"
    rest = shuffled(pool, np.random.default_rng(0))
    for p in range(game.num_players):
        if p not in hands:
            state.hands[p] = to_counts(rest[: game.config.hand_size])
            rest = rest[game.config.hand_size :]
    stock = rest + top
    if stock_size is not None:
        pile = stock[: len(stock) - stock_size] + pile
        stock = stock[len(stock) - stock_size :]
    state.table.start(stock, pile)
    state.opened[:] = False
    state.opened[list(opened)] = True
    state.current, state.phase = current, phase
    game._start_turn(state)
    game._table_changed(state)
    game.refresh_public(state)
    state.mask = None
    assert np.array_equal(sum(game.zones(state).values()), game.shoe(state))
    return game, state


def legal(game: RommeGame, state: RommeState) -> set[str]:
    """The legal actions as strings."""
    return {game.action_to_str(a) for a in np.flatnonzero(game.legal_mask(state))}


def play(game: RommeGame, state: RommeState, *actions: str) -> None:
    """Apply actions given as strings (``"meld 4H-7H"``, ``"discard 9C"``, ``"draw"``)."""
    names = {game.action_to_str(a): a for a in range(game.num_actions)}
    for text in actions:
        game.apply_action(state, names[text])


__all__ = ["DRAW", "NUM_KINDS", "PLAY", "legal", "play", "setup", "table_meld"]
