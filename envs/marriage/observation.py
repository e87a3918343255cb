"""Marriage observation: what a careful player at the table knows, ego-centric.

Seats are ordered from the observer (self first, then clockwise) and padded to 6 so one
network plays every table size. Other hands and the stock order never appear (nor the card a
dublee swap brought); every card ever face up is public and remembered per seat: discards,
pick-ups from the pile, dublees set aside, hands revealed by an invalid show.
"""

from __future__ import annotations

import numpy as np

from envs.core.cards import NUM_KINDS, NUM_RANKS
from envs.core.game import Observer, make_layout
from envs.marriage.config import MAX_PLAYERS, Config
from envs.marriage.rules import FACE_UP, PHASES, MarriageState

_SEATS = MAX_PLAYERS * NUM_KINDS
_BLOCKS = [
    ("hand", NUM_KINDS),  # my cards, count per kind
    ("wild", NUM_KINDS),  # 1 for each wild kind this round (wild rank, scope, printed jokers)
    ("wild_rank", NUM_RANKS + 1),  # one-hot rank A..K, last slot: no wild rank
    ("indicator", NUM_KINDS),  # one-hot
    ("top_discard", NUM_KINDS),  # one-hot of the card on the discard pile
    ("discard_pile", NUM_KINDS),  # counts of the cards now in the pile (the next stock)
    # rules.FACE_UP, each per seat: cards it discarded this round, took from the pile this
    # round, dublees it set aside, and its hand once an invalid show revealed it
    *((name, _SEATS) for name in FACE_UP),
    ("hand_sizes", MAX_PLAYERS),
    ("totals", MAX_PLAYERS),  # session penalty totals / 100
    ("active", MAX_PLAYERS),  # seat plays this round (0: padding, out, tie-break onlooker)
    ("dealer", MAX_PLAYERS),  # one-hot
    ("phase", len(PHASES) - 1),  # one-hot: draw, discard
    ("stock_size", 1),  # / 100
    ("jokers_redrawn", 1),  # printed jokers turned as indicator and put back in the stock
    ("turn", 1),  # turns played this round / max_turns_per_round
    ("rounds_left", 1),  # regular rounds still to play after this one (match episodes)
    ("tiebreak", 1),
]

LAYOUT, SIZE = make_layout(_BLOCKS)
_HAND, _WILD, _PILE = LAYOUT["hand"], LAYOUT["wild"], LAYOUT["discard_pile"]
_FACE_UP = slice(LAYOUT[FACE_UP[0]].start, LAYOUT[FACE_UP[-1]].stop)
_WILD_RANK, _INDICATOR, _TOP, _SIZES, _TOTALS, _ACTIVE, _DEALER, _PHASE = (
    LAYOUT[name].start
    for name in ("wild_rank", "indicator", "top_discard", "hand_sizes", "totals", "active",
                 "dealer", "phase")
)
_SCALARS = slice(LAYOUT["stock_size"].start, LAYOUT["tiebreak"].stop)  # five blocks of one


class MarriageObserver(Observer):
    """Encodes a :class:`MarriageState` for one seat; see ``LAYOUT`` for the blocks."""

    layout = LAYOUT
    size = SIZE

    def __init__(self, config: Config):
        self.config = config
        n = config.num_players
        self._order = [np.array([(p + k) % n for k in range(n)]) for p in range(n)]
        self.low = np.zeros(SIZE, np.float32)
        self.high = np.full(SIZE, float(max(config.max_turns_per_round, 22)), np.float32)
        self.high[LAYOUT["stock_size"]] = 2.0
        self.high[LAYOUT["turn"]] = 1.0
        # Totals have no natural bound (tie-breaks, tunnela bonuses below zero).
        self.low[LAYOUT["totals"]] = -1e6
        self.high[LAYOUT["totals"]] = 1e6
        self.high[LAYOUT["rounds_left"]] = config.rounds
        self.high[LAYOUT["jokers_redrawn"]] = 1e6  # each redraw is a fresh random insertion

    def encode(self, state: MarriageState, player: int) -> np.ndarray:
        n = self.config.num_players
        order = self._order[player]
        obs = np.zeros(SIZE, np.float32)
        obs[_HAND] = state.hands[player]
        obs[_WILD] = state.wild
        rank = state.wild_rank if state.wild_rank >= 0 else NUM_RANKS
        obs[_WILD_RANK + rank] = 1
        obs[_INDICATOR + state.indicator] = 1
        if state.pile:
            obs[_TOP + state.pile[-1]] = 1
        obs[_PILE] = state.pile_counts
        # Seats from the observer on: two slice copies of all four face-up records at once.
        seats = obs[_FACE_UP].reshape(len(FACE_UP), MAX_PLAYERS, NUM_KINDS)
        seats[:, : n - player] = state.face_up[:, player:]
        seats[:, n - player : n] = state.face_up[:, :player]
        obs[_SIZES : _SIZES + n] = state.hands.sum(axis=1)[order]
        obs[_TOTALS : _TOTALS + n] = state.totals[order] / 100.0
        for i, p in enumerate(order):
            obs[_ACTIVE + i] = p in state.active and p not in state.dead
        obs[_DEALER + (state.dealer - player) % n] = 1
        if not state.over:
            obs[_PHASE + state.phase] = 1
        obs[_SCALARS] = (
            len(state.stock) / 100.0,
            state.jokers_redrawn,
            state.turns / self.config.max_turns_per_round,
            self._rounds_left(state),
            state.tiebreak,
        )
        return obs

    def _rounds_left(self, state: MarriageState) -> float:
        cfg = self.config
        if cfg.episode == "round" or state.tiebreak:
            return 0.0
        return float(max(0, cfg.rounds - state.rounds_played - 1))
