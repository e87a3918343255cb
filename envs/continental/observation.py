"""Continental Rummy observation: what a careful player at the table knows, ego-centric.

Seats are ordered from the observer (self first, then clockwise) and padded to 8 so one
network plays every table size; each seat's block is the engine's public record of it
(``rules.SEAT`` names its parts). Other hands and the stock order never appear; every card ever
face up (discarded, taken from the pile, or turned up by the deal) is public and remembered.

Every feature lies in [0, 1] and ``low``/``high`` are exactly 0 and 1. Scales (also in the env
docstring): card counts / the copies of that kind in the shoe (a seat's discarded and taken
counts can pass the copies only after reshuffles and read 1 then); hand size / the largest
hand possible; stock size / the largest stock possible; series totals ``tanh(total / 500)``;
rounds left / rounds in the series.
"""

from __future__ import annotations

import numpy as np
from taas.envs.continental.config import MAX_PLAYERS, Config
from taas.envs.continental.rules import PHASES, SEAT, SEAT_SIZE, ContinentalState
from taas.envs.core.cards import NUM_KINDS, shoe
from taas.envs.core.game import Observer, make_layout, write_seats

_BLOCKS = [
    ("hand", NUM_KINDS),  # my cards, count per kind / copies
    ("top_discard", NUM_KINDS),  # one-hot of the card on the discard pile
    ("discard_pile", NUM_KINDS),  # the cards now in the pile, count per kind / copies
    ("first_up", NUM_KINDS),  # one-hot of the card the deal turned up to start the pile
    # per seat, the engine's public record (rules.SEAT): cards it discarded and cards it took
    # from the pile this round (/ copies, at most 1), hand size (/ largest hand), squashed
    # series total, plays this round, dealt this round
    ("seats", MAX_PLAYERS * SEAT_SIZE),
    ("phase", len(PHASES)),  # one-hot: draw, discard, buy
    ("stock_size", 1),  # / largest stock
    ("rounds_left", 1),  # rounds still to play in a match episode after this one / rounds
    ("tiebreak", 1),
]

LAYOUT, SIZE = make_layout(_BLOCKS)
_HAND, _PILE, _SEATS = LAYOUT["hand"], LAYOUT["discard_pile"], LAYOUT["seats"]
_TOP, _FIRST = LAYOUT["top_discard"].start, LAYOUT["first_up"].start
_PHASE, _STOCK, _ROUNDS_LEFT, _TIEBREAK = (
    LAYOUT[k].start for k in ("phase", "stock_size", "rounds_left", "tiebreak")
)


def max_hand(config: Config) -> int:
    """The most cards one hand can hold: the deal plus the drawn card, or with buying every
    card but one other player's hand (a hand never drops below the deal during a round)."""
    total = int(shoe(config.decks, config.total_jokers).sum())
    return total - config.deal_size if config.allow_buying else config.deal_size + 1


class ContinentalObserver(Observer):
    """Encodes a :class:`ContinentalState` for one seat; see ``LAYOUT`` for the blocks."""

    layout = LAYOUT
    size = SIZE

    def __init__(self, config: Config):
        self.config = config
        self.low = np.zeros(SIZE, np.float32)
        self.high = np.ones(SIZE, np.float32)
        copies = shoe(config.decks, config.total_jokers)
        per_copy = 1.0 / np.maximum(copies, 1)
        row = np.ones(SEAT_SIZE)
        row[SEAT["discarded"]] = row[SEAT["taken"]] = per_copy
        row[SEAT["hand_size"]] = 1.0 / max_hand(config)
        # raw values are written first, then scaled and capped by two whole-vector operations
        self._scale = np.ones(SIZE, np.float32)
        self._scale[_HAND] = self._scale[_PILE] = per_copy
        self._scale[_SEATS] = np.tile(row, MAX_PLAYERS)
        # at least two hands of the deal size are out of the stock and the pile
        self._stock_scale = 1.0 / (int(copies.sum()) - 2 * config.deal_size)
        limit = config.num_rounds if config.target_score is not None else config.rounds
        self._rounds = None if config.episode == "round" or limit is None else limit

    def encode(self, state: ContinentalState, player: int) -> np.ndarray:
        obs = np.zeros(SIZE, np.float32)
        t = state.table
        obs[_HAND] = state.hands[player]
        if t.discard:
            obs[_TOP + t.discard[-1]] = 1.0
            obs[_PILE] = t.pile
        if t.first_up >= 0:
            obs[_FIRST + t.first_up] = 1.0
        write_seats(obs, _SEATS.start, state.public, player)
        obs[_PHASE + state.phase] = 1.0
        obs[_STOCK] = len(t.stock) * self._stock_scale
        obs[_ROUNDS_LEFT] = self._rounds_left(state)
        obs[_TIEBREAK] = state.tiebreak
        obs *= self._scale
        np.minimum(obs, self.high, out=obs)
        return obs

    def _rounds_left(self, state: ContinentalState) -> float:
        if self._rounds is None or state.tiebreak:
            return 0.0
        return max(0, self._rounds - state.rounds_played - 1) / self._rounds
