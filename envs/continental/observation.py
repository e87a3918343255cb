"""Continental Rummy observation: what a careful player at the table knows, ego-centric.

Seats are ordered from the observer (self first, then clockwise) and padded to 8 so one
network plays every table size. Other hands and the stock order never appear; every card ever
discarded or taken from the pile is public and is remembered per seat.
"""

from __future__ import annotations

import numpy as np

from envs.continental.config import MAX_PLAYERS, Config
from envs.continental.rules import PHASES, ContinentalState
from envs.core.cards import NUM_KINDS
from envs.core.game import Observer, make_layout

_BLOCKS = [
    ("hand", NUM_KINDS),  # my cards, count per kind
    ("top_discard", NUM_KINDS),  # one-hot of the card on the discard pile
    ("discard_pile", NUM_KINDS),  # counts of the cards now in the pile
    ("discarded_by", MAX_PLAYERS * NUM_KINDS),  # per seat: cards it discarded this round
    ("taken_by", MAX_PLAYERS * NUM_KINDS),  # per seat: cards it took from the pile this round
    ("hand_sizes", MAX_PLAYERS),
    ("totals", MAX_PLAYERS),  # series penalty totals / 100
    ("active", MAX_PLAYERS),  # seat plays this round (0 for padding and tie-break onlookers)
    ("dealer", MAX_PLAYERS),  # one-hot
    ("phase", len(PHASES)),  # one-hot: draw, discard, buy
    ("stock_size", 1),  # / 100
    ("rounds_left", 1),  # rounds still to play in a match episode after this one (0 in "round")
    ("tiebreak", 1),
]

LAYOUT, SIZE = make_layout(_BLOCKS)
_HAND, _PILE = LAYOUT["hand"], LAYOUT["discard_pile"]
_TOP, _DISCARDED, _TAKEN = (LAYOUT[k].start for k in ("top_discard", "discarded_by", "taken_by"))
_SEATS = slice(LAYOUT["hand_sizes"].start, LAYOUT["dealer"].stop)  # four per-seat blocks in a row
_TAIL = slice(LAYOUT["phase"].start, SIZE)  # phase, stock size, rounds left, tie-break


class ContinentalObserver(Observer):
    """Encodes a :class:`ContinentalState` for one seat; see ``LAYOUT`` for the blocks."""

    layout = LAYOUT
    size = SIZE

    def __init__(self, config: Config):
        self.config = config
        self.low = np.zeros(SIZE, np.float32)
        self.high = np.full(SIZE, float(config.max_turns_per_round), np.float32)
        self.high[LAYOUT["totals"]] = 1e6  # series totals have no natural bound
        self.high[LAYOUT["rounds_left"]] = 1e6

    def encode(self, state: ContinentalState, player: int) -> np.ndarray:
        n = self.config.num_players
        obs = np.zeros(SIZE, np.float32)
        obs[_HAND] = state.hands[player]
        if state.discard:
            obs[_TOP + state.discard[-1]] = 1.0
            obs[_PILE] = np.bincount(state.discard, minlength=NUM_KINDS)
        shift = player * NUM_KINDS
        _rotate_into(obs, _DISCARDED, state.discarded_by.ravel(), shift)
        _rotate_into(obs, _TAKEN, state.taken_by.ravel(), shift)
        # the per-seat scalars and the tail are written with one assignment each
        order = [(player + k) % n for k in range(n)]
        sizes = state.hands.sum(axis=1).tolist()
        totals = state.totals.tolist()
        pad = [0.0] * (MAX_PLAYERS - n)
        seats = [sizes[p] for p in order] + pad
        seats += [totals[p] / 100.0 for p in order] + pad
        seats += [float(p in state.active) for p in order] + pad
        seats += [float(p == state.dealer) for p in order] + pad
        obs[_SEATS] = seats
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


def _rotate_into(obs: np.ndarray, start: int, flat: np.ndarray, shift: int) -> None:
    """Write a per-seat block (seats concatenated) so the observer's seat comes first."""
    tail = len(flat) - shift
    obs[start : start + tail] = flat[shift:]
    obs[start + tail : start + len(flat)] = flat[:shift]
