"""Marriage observation: what a careful player at the table knows, ego-centric.

Seats are ordered from the observer (self first, then clockwise) and padded to 6 so one
network plays every table size. Other hands and the stock order never appear (nor the card a
dublee swap brought); every card ever face up is public and remembered per seat: discards,
pick-ups from the pile, dublees set aside, hands revealed by an invalid show.
"""

from __future__ import annotations

import numpy as np
from taas.envs.core.cards import NUM_KINDS, NUM_RANKS
from taas.envs.core.game import Observer, make_layout
from taas.envs.core.jit import jit_norc
from taas.envs.marriage.config import MAX_PLAYERS, Config
from taas.envs.marriage.rules import FACE_UP, PHASES, MarriageState

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
# Block offsets as plain ints, which the compiled encoder takes as constants.
_HAND, _WILD, _WILD_RANK, _INDICATOR, _TOP, _PILE, _FACE_UP = (
    LAYOUT[name].start
    for name in ("hand", "wild", "wild_rank", "indicator", "top_discard", "discard_pile",
                 FACE_UP[0])
)
_SIZES, _TOTALS, _ACTIVE, _DEALER, _PHASE, _SCALARS = (
    LAYOUT[name].start
    for name in ("hand_sizes", "totals", "active", "dealer", "phase", "stock_size")
)
_N_SCALARS = LAYOUT["tiebreak"].stop - _SCALARS  # stock_size .. tiebreak, one value each


@jit_norc
def _encode(obs, hands, face_up, wild, pile_counts, totals, in_round, player, dealer, rank,
            indicator, top, phase, scalars):
    """Fill a zeroed ``obs``; seats are written from ``player`` on, clockwise."""
    n = hands.shape[0]
    for k in range(NUM_KINDS):
        obs[_HAND + k] = hands[player, k]
        obs[_WILD + k] = wild[k]
        obs[_PILE + k] = pile_counts[k]
    obs[_WILD_RANK + rank] = 1
    obs[_INDICATOR + indicator] = 1
    if top >= 0:
        obs[_TOP + top] = 1
    for i in range(n):
        p = (player + i) % n
        for b in range(face_up.shape[0]):
            start = _FACE_UP + (b * MAX_PLAYERS + i) * NUM_KINDS
            for k in range(NUM_KINDS):
                obs[start + k] = face_up[b, p, k]
        size = 0
        for k in range(NUM_KINDS):
            size += hands[p, k]
        obs[_SIZES + i] = size
        obs[_TOTALS + i] = totals[p] / 100.0
        obs[_ACTIVE + i] = in_round[p]
        if p == dealer:
            obs[_DEALER + i] = 1
    if phase >= 0:
        obs[_PHASE + phase] = 1
    for j in range(_N_SCALARS):
        obs[_SCALARS + j] = scalars[j]


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
        obs = np.zeros(SIZE, np.float32)
        active, dead = state.active, state.dead
        in_round = [p in active and p not in dead for p in range(self.config.num_players)]
        scalars = (
            len(state.stock) / 100.0,
            float(state.jokers_redrawn),
            state.turns / self.config.max_turns_per_round,
            self._rounds_left(state),
            float(state.tiebreak),
        )
        _encode(obs, state.hands, state.face_up, state.wild, state.pile_counts, state.totals,
                np.array(in_round), player, state.dealer,
                state.wild_rank if state.wild_rank >= 0 else NUM_RANKS, state.indicator,
                state.pile[-1] if state.pile else -1, -1 if state.over else state.phase, scalars)
        return obs

    def _rounds_left(self, state: MarriageState) -> float:
        cfg = self.config
        if cfg.episode == "round" or state.tiebreak:
            return 0.0
        return float(max(0, cfg.rounds - state.rounds_played - 1))
