"""Marriage observation: what a careful player at the table knows, ego-centric and bounded.

Seats are ordered from the observer (self first, then clockwise) and padded to 6 so one
network plays every table size. Other hands and the stock order never appear (nor the card a
dublee swap brought); every card ever face up is public and remembered: the round's first
up-card, and per seat its discards, pick-ups from the pile, dublees set aside and a hand
revealed by an invalid show.

Every feature lies in [0, 1], the totals in [-1, 1] (``low``/``high`` say exactly that):
counts of physical cards are divided by ``decks`` (no kind has more copies), hand sizes by the
largest hand (``hand_size + 1``, after the draw), stock size by the cards in the shoe, turn and
rounds by their limits; what has no bound is squashed: discards and pick-ups per seat and kind
as ``tanh(count / decks)`` (a card discarded, reshuffled and discarded again counts twice),
totals as ``tanh(total / TOTAL_SCALE)``, joker redraws as ``tanh(redraws)``.
"""

from __future__ import annotations

import math

import numpy as np

from taas.envs.core.cards import NUM_KINDS, NUM_RANKS
from taas.envs.core.game import Observer, make_layout
from taas.envs.core.jit import jit, jit_norc
from taas.envs.marriage.config import MAX_PLAYERS, Config
from taas.envs.marriage.rules import FACE_UP, PHASES, MarriageState

TOTAL_SCALE = 500.0
"""Session totals are encoded as ``tanh(total / TOTAL_SCALE)``: a round charges a loser up to
about 250, so a whole session's totals stay in tanh's informative range."""

_SEATS = MAX_PLAYERS * NUM_KINDS
_BLOCKS = [
    ("hand", NUM_KINDS),  # my cards, count per kind / decks
    ("wild", NUM_KINDS),  # 1 for each wild kind this round (wild rank, scope, printed jokers)
    ("wild_rank", NUM_RANKS + 1),  # one-hot rank A..K, last slot: no wild rank
    ("indicator", NUM_KINDS),  # one-hot
    ("first_up", NUM_KINDS),  # one-hot: the card turned to start the discard pile
    ("top_discard", NUM_KINDS),  # one-hot of the card on the discard pile
    ("discard_pile", NUM_KINDS),  # counts of the cards now in the pile (the next stock) / decks
    # rules.FACE_UP, each per seat: cards it discarded this round and took from the pile this
    # round (tanh(count / decks)), dublees it set aside and its hand once an invalid show
    # revealed it (count / decks)
    *((name, _SEATS) for name in FACE_UP),
    ("hand_sizes", MAX_PLAYERS),  # / (hand_size + 1)
    ("totals", MAX_PLAYERS),  # session penalty totals: tanh(total / TOTAL_SCALE), in [-1, 1]
    ("active", MAX_PLAYERS),  # seat plays this round (0: padding, out, tie-break onlooker)
    ("dealer", MAX_PLAYERS),  # one-hot
    ("phase", len(PHASES) - 1),  # one-hot: draw, discard
    ("stock_size", 1),  # / cards in the shoe
    ("jokers_redrawn", 1),  # tanh(printed jokers turned as indicator and put back)
    ("turn", 1),  # turns played this round / max_turns_per_round
    ("rounds_left", 1),  # regular rounds still to play after this one / rounds (match episodes)
    ("tiebreak", 1),
]

LAYOUT, SIZE = make_layout(_BLOCKS)
# Block offsets as plain ints, which the compiled encoder takes as constants.
_HAND, _WILD, _WILD_RANK, _INDICATOR, _FIRST, _TOP, _PILE, _FACE_UP = (
    LAYOUT[name].start
    for name in ("hand", "wild", "wild_rank", "indicator", "first_up", "top_discard",
                 "discard_pile", FACE_UP[0])
)
_SIZES, _TOTALS, _ACTIVE, _DEALER, _PHASE, _SCALARS = (
    LAYOUT[name].start
    for name in ("hand_sizes", "totals", "active", "dealer", "phase", "stock_size")
)
_N_SCALARS = LAYOUT["tiebreak"].stop - _SCALARS  # stock_size .. tiebreak, one value each
_SQUASHED = 2  # the first FACE_UP records (discards, pick-ups) are squashed, the rest scaled


_SQUASH_TABLE = 64  # discard/pick-up counts below this are squashed by table look-up


@jit
def _squash_table(decks):
    """``tanh(c / decks)`` for every count below ``_SQUASH_TABLE``, by the expression
    :func:`_encode` uses for larger counts (so both give the same bits): hundreds of ``tanh``
    calls per observation were a tenth of a step."""
    out = np.empty(_SQUASH_TABLE, np.float64)
    for c in range(_SQUASH_TABLE):
        out[c] = np.tanh(c / decks)
    return out


@jit_norc
def _encode(obs, hands, face_up, wild, pile_counts, totals, in_round, player, dealer, rank,
            indicator, first, top, phase, scalars, decks, hand_max, squash):
    """Fill ``obs``; seats are written from ``player`` on, clockwise; ``squash`` is
    :func:`_squash_table`."""
    obs[:] = 0  # here, not a NumPy fill() call before the kernel
    n = hands.shape[0]
    for k in range(NUM_KINDS):
        obs[_HAND + k] = hands[player, k] / decks
        obs[_WILD + k] = wild[k]
        obs[_PILE + k] = pile_counts[k] / decks
    obs[_WILD_RANK + rank] = 1
    obs[_INDICATOR + indicator] = 1
    if first >= 0:
        obs[_FIRST + first] = 1
    if top >= 0:
        obs[_TOP + top] = 1
    for i in range(n):
        p = (player + i) % n
        for b in range(face_up.shape[0]):
            start = _FACE_UP + (b * MAX_PLAYERS + i) * NUM_KINDS
            for k in range(NUM_KINDS):
                c = face_up[b, p, k]
                if c:
                    if b >= _SQUASHED:
                        obs[start + k] = c / decks
                    elif c < _SQUASH_TABLE:
                        obs[start + k] = squash[c]
                    else:
                        obs[start + k] = np.tanh(c / decks)
        size = 0
        for k in range(NUM_KINDS):
            size += hands[p, k]
        obs[_SIZES + i] = size / hand_max
        obs[_TOTALS + i] = np.tanh(totals[p] / TOTAL_SCALE)
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
        self._decks = float(config.decks)
        self._squash = _squash_table(self._decks)
        self._everyone = np.ones(config.num_players, np.bool_)  # only ever read
        self._hand_max = float(config.deal_size + 1)
        self._shoe = float(52 * config.decks + config.jokers)
        self.low = np.zeros(SIZE, np.float32)
        self.low[LAYOUT["totals"]] = -1.0  # tunnela bonuses can take a total below zero
        self.high = np.ones(SIZE, np.float32)

    def encode(self, state: MarriageState, player: int) -> np.ndarray:
        obs = np.empty(SIZE, np.float32)
        self.encode_into(state, player, obs)
        return obs

    def encode_into(self, state: MarriageState, player: int, out: np.ndarray) -> None:
        cfg = self.config
        active, dead = state.active, state.dead
        if dead or len(active) < cfg.num_players:
            in_round = np.zeros(cfg.num_players, np.bool_)
            for p in active:
                in_round[p] = p not in dead
        else:  # every seat plays: the common case, every step
            in_round = self._everyone
        t = state.table
        scalars = (
            len(t.stock) / self._shoe,
            math.tanh(state.jokers_redrawn),
            state.turns / cfg.max_turns_per_round,
            self._rounds_left(state),
            float(state.tiebreak),
        )
        _encode(out, state.hands, state.face_up, state.wild, t.pile, state.totals,
                in_round, player, state.dealer,
                state.wild_rank if state.wild_rank >= 0 else NUM_RANKS, state.indicator,
                t.first_up, t.top,
                -1 if state.over else state.phase, scalars, self._decks, self._hand_max,
                self._squash)

    def _rounds_left(self, state: MarriageState) -> float:
        """Share of the regular rounds still to play after this one (0 in a tie-break)."""
        cfg = self.config
        if cfg.episode == "round" or state.tiebreak:
            return 0.0
        return max(0, cfg.rounds - state.rounds_played - 1) / cfg.rounds
