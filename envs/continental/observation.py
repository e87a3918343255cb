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
from taas.envs.core.game import Observer, make_layout
from taas.envs.core.jit import jit_norc
from taas.envs.rummy.table import OBS_HAND, OBS_PILE, OBS_SEATS, OBS_TOP, OBS_UP, encode_table

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
# Block offsets as plain ints, which the compiled encoder takes as constants.
_PHASE, _STOCK, _ROUNDS_LEFT, _TIEBREAK = (
    LAYOUT[k].start for k in ("phase", "stock_size", "rounds_left", "tiebreak")
)
assert [LAYOUT[k].start for k in ("hand", "top_discard", "discard_pile", "first_up", "seats")] == [
    OBS_HAND, OBS_TOP, OBS_PILE, OBS_UP, OBS_SEATS
], "the table blocks come first, in encode_table's order"


@jit_norc
def _encode(obs, hand, pile, public, per_copy, seat_scale, player, top, first_up, scalars):
    """Fill ``obs``: the table blocks (:func:`encode_table`), then ``scalars`` =
    phase, stock, rounds left, tie-break (already scaled)."""
    obs[:] = 0  # here, not a NumPy fill() call before the kernel
    encode_table(obs, hand, pile, public, per_copy, seat_scale, player, top, first_up)
    obs[_PHASE + int(scalars[0])] = 1
    obs[_STOCK] = scalars[1]
    obs[_ROUNDS_LEFT] = scalars[2]
    obs[_TIEBREAK] = scalars[3]


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
        self._per_copy = 1.0 / np.maximum(copies, 1)
        self._seat_scale = np.ones(SEAT_SIZE)
        self._seat_scale[SEAT["discarded"]] = self._seat_scale[SEAT["taken"]] = self._per_copy
        self._seat_scale[SEAT["hand_size"]] = 1.0 / max_hand(config)
        # at least two hands of the deal size are out of the stock and the pile
        self._stock_scale = 1.0 / (int(copies.sum()) - 2 * config.deal_size)
        limit = config.num_rounds if config.target_score is not None else config.rounds
        self._rounds = None if config.episode == "round" or limit is None else limit

    def encode(self, state: ContinentalState, player: int) -> np.ndarray:
        obs = np.empty(SIZE, np.float32)
        self.encode_into(state, player, obs)
        return obs

    def encode_into(self, state: ContinentalState, player: int, out: np.ndarray) -> None:
        t = state.table
        scalars = (
            float(state.phase),
            len(t.stock) * self._stock_scale,
            self._rounds_left(state),
            float(state.tiebreak),
        )
        _encode(
            out,
            state.hands[player],
            t.pile,
            state.public,
            self._per_copy,
            self._seat_scale,
            player,
            t.top,
            t.first_up,
            scalars,
        )

    def _rounds_left(self, state: ContinentalState) -> float:
        if self._rounds is None or state.tiebreak:
            return 0.0
        return max(0, self._rounds - state.rounds_played - 1) / self._rounds
