"""Continental Rummy observation: what a careful player at the table knows, ego-centric.

Seats are ordered from the observer (self first, then clockwise) and padded to 8 so one
network plays every table size; each seat's block is the engine's public record of it
(``rules.SEAT`` names its parts; totals are raw penalty points). Other hands and the stock
order never appear; every card ever discarded or taken from the pile is public and is
remembered per seat.
"""

from __future__ import annotations

import numpy as np
from taas.envs.continental.config import MAX_PLAYERS, Config
from taas.envs.continental.rules import PHASES, SEAT, SEAT_SIZE, ContinentalState
from taas.envs.core.cards import NUM_KINDS
from taas.envs.core.game import Observer, make_layout, write_seats

_BLOCKS = [
    ("hand", NUM_KINDS),  # my cards, count per kind
    ("top_discard", NUM_KINDS),  # one-hot of the card on the discard pile
    ("discard_pile", NUM_KINDS),  # counts of the cards now in the pile
    # per seat, the engine's public record (rules.SEAT): cards it discarded and cards it took
    # from the pile this round, hand size, series total, plays this round, dealt this round
    ("seats", MAX_PLAYERS * SEAT_SIZE),
    ("phase", len(PHASES)),  # one-hot: draw, discard, buy
    ("stock_size", 1),  # / 100
    ("rounds_left", 1),  # rounds still to play in a match episode after this one (0 in "round")
    ("tiebreak", 1),
]

LAYOUT, SIZE = make_layout(_BLOCKS)
_HAND, _PILE = LAYOUT["hand"], LAYOUT["discard_pile"]
_TOP, _SEATS = LAYOUT["top_discard"].start, LAYOUT["seats"].start
_TAIL = slice(LAYOUT["phase"].start, SIZE)  # phase, stock size, rounds left, tie-break


class ContinentalObserver(Observer):
    """Encodes a :class:`ContinentalState` for one seat; see ``LAYOUT`` for the blocks."""

    layout = LAYOUT
    size = SIZE

    def __init__(self, config: Config):
        self.config = config
        self.low = np.zeros(SIZE, np.float32)
        self.high = np.full(SIZE, float(config.max_turns_per_round), np.float32)
        seats = self.high[LAYOUT["seats"]].reshape(MAX_PLAYERS, SEAT_SIZE)
        seats[:, SEAT["total"]] = 1e6  # series totals have no natural bound
        self.high[LAYOUT["rounds_left"]] = 1e6

    def encode(self, state: ContinentalState, player: int) -> np.ndarray:
        obs = np.zeros(SIZE, np.float32)
        obs[_HAND] = state.hands[player]
        if state.discard:
            obs[_TOP + state.discard[-1]] = 1.0
            obs[_PILE] = state.pile
        write_seats(obs, _SEATS, state.public, player)
        tail = [0.0] * len(PHASES)
        tail[state.phase] = 1.0
        tail += [len(state.stock) / 100.0, self._rounds_left(state), float(state.tiebreak)]
        obs[_TAIL] = tail
        return obs

    def _rounds_left(self, state: ContinentalState) -> float:
        cfg = self.config
        limit = cfg.num_rounds if cfg.target_score is not None else cfg.rounds
        if cfg.episode == "round" or state.tiebreak or limit is None:
            return 0.0
        return float(max(0, limit - state.rounds_played - 1))
