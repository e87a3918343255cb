"""Nepali Marriage observation: what a careful player at the table knows, ego-centric.

Seats run from the observer in play order (``direction``) and are padded to 6. Public: every
card face up (the offered card, the pile, each seat's discards and pick-ups, exposed starting
tunnelas, shown combinations), every seat's seen flag and route, hand sizes, fouls, the stock
size and whether a tiplu has been drawn. The tiplu and everything derived from it (the wild
kinds, one's own maal) appear only for an observer who has seen (or everyone under
``open_maal``, or once the round is over): two states that differ only in the tiplu give an
unseen player identical observations. Every feature lies in [0, 1]. Under
``man_tiplu="spades_ace"`` the ``tiplu`` block marks the card set aside (a Man, out of play)
and ``wild`` the ace of spades' wild set (its roles follow from the flag).
"""

from __future__ import annotations

import math

import numpy as np

from taas.envs.core.cards import JOKER, NUM_KINDS
from taas.envs.core.game import Observer, make_layout
from taas.envs.core.jit import jit_norc
from taas.envs.marriage_nepali import maal
from taas.envs.marriage_nepali.config import DECKS, HAND_SIZE, Config
from taas.envs.marriage_nepali.rules import DUBLEE, PHASES, NepaliGame, NepaliState

MAX_SEATS = 6
MAAL_SCALE = 50.0
"""One's maal is encoded as ``tanh(maal / MAAL_SCALE)``: typical holdings are worth 0-60."""

SEAT_FLAGS = ("seen", "dublee_route", "hand_size", "fouls", "dealer", "in_game")
_BLOCKS = [
    ("hand", NUM_KINDS),  # my concealed cards, count / 3
    ("top_discard", NUM_KINDS),  # one-hot
    ("discard_pile", NUM_KINDS),  # count / 3
    ("offered", NUM_KINDS),  # one-hot: the card turned up at the deal
    *((name, MAX_SEATS * NUM_KINDS) for name in ("exposed", "shown")),  # count / 3
    *((name, MAX_SEATS * NUM_KINDS) for name in ("discarded", "taken")),  # tanh(count / 3)
    *((name, MAX_SEATS) for name in SEAT_FLAGS),
    ("tiplu", NUM_KINDS),  # one-hot of the tiplu card (a Man: spades-ace rule), if I know it
    ("wild", NUM_KINDS),  # my wild kinds, only when I know the tiplu
    ("my_maal", 1),  # tanh(maal of my cards, no tunnela bonus / MAAL_SCALE), if I know the tiplu
    ("tiplu_drawn", 1),  # public: somebody has seen
    ("phase", len(PHASES) - 1),  # one-hot: expose, draw, discard, show
    ("building", 2),  # the show being built: sequence, dublee route
    ("turn_flags", 4),  # showing closed, showed this turn, must finish, must show
    ("stock_size", 1),  # / cards in the shoe
    ("turn", 1),  # draws this round / max_turns_per_round
]
LAYOUT, SIZE = make_layout(_BLOCKS)
# Block offsets as plain ints, which the compiled encoder takes as constants.
_HAND, _TOP, _PILE, _OFFERED, _EXPOSED, _SHOWN, _DISCARDED, _TAKEN, _SEEN, _DUBLEE, _SIZE, \
    _FOULS, _DEALER, _IN_GAME, _TIPLU, _WILD, _MY_MAAL, _TIPLU_DRAWN, _PHASE, _BUILDING, \
    _TURN_FLAGS, _STOCK_SIZE, _TURN = (
        LAYOUT[name].start for name in (
            "hand", "top_discard", "discard_pile", "offered", "exposed", "shown", "discarded",
            "taken", *SEAT_FLAGS, "tiplu", "wild", "my_maal", "tiplu_drawn", "phase",
            "building", "turn_flags", "stock_size", "turn"))


@jit_norc
def _encode(obs, player, order, hands, pile, exposed, shown, records, seats, dealer, top,
            offered, phase, building, show_closed, showed_now, must_finish, must_show,
            stock_size, turn):
    """Fill ``obs`` with everything but the tiplu blocks in one compiled pass (seats
    in ``order``; ``seats``: rows seen, route, fouls per seat; ``phase`` -1 once over)."""
    obs[:] = 0  # here, not a NumPy fill() call before the kernel
    for k in range(NUM_KINDS):
        obs[_HAND + k] = hands[player, k] / DECKS
        obs[_PILE + k] = pile[k] / DECKS
    for i in range(order.shape[0]):
        p = order[i]
        size = 0
        for k in range(NUM_KINDS):
            at = i * NUM_KINDS + k
            obs[_EXPOSED + at] = exposed[p, k] / DECKS
            obs[_SHOWN + at] = shown[p, k] / DECKS
            if records[0, p, k]:
                obs[_DISCARDED + at] = np.tanh(records[0, p, k] / DECKS)
            if records[1, p, k]:
                obs[_TAKEN + at] = np.tanh(records[1, p, k] / DECKS)
            size += hands[p, k]
        obs[_SEEN + i] = seats[0, p]
        obs[_DUBLEE + i] = seats[1, p] == DUBLEE
        obs[_SIZE + i] = size / (HAND_SIZE + 1)
        obs[_FOULS + i] = np.tanh(seats[2, p])
        obs[_DEALER + i] = p == dealer
        obs[_IN_GAME + i] = 1.0
    if top >= 0:
        obs[_TOP + top] = 1
    if offered >= 0:
        obs[_OFFERED + offered] = 1
    if phase >= 0:
        obs[_PHASE + phase] = 1
    if building:
        obs[_BUILDING + building - 1] = 1
    obs[_TURN_FLAGS] = show_closed
    obs[_TURN_FLAGS + 1] = showed_now
    obs[_TURN_FLAGS + 2] = must_finish
    obs[_TURN_FLAGS + 3] = must_show
    obs[_STOCK_SIZE] = stock_size
    obs[_TURN] = turn


class NepaliObserver(Observer):
    """Encodes a :class:`NepaliState` for one seat; see ``LAYOUT`` for the blocks."""

    layout = LAYOUT
    size = SIZE

    def __init__(self, config: Config):
        self.config = config
        self.game = NepaliGame(config)
        self.low = np.zeros(SIZE, np.float32)
        self.high = np.ones(SIZE, np.float32)
        self._shoe = float(52 * DECKS + config.printed_jokers)
        self._orders = [np.array(self.game.seats_from(p), np.int64)
                        for p in range(config.num_players)]
        self._wild: dict[int, np.ndarray] = {}  # tiplu -> the wild kinds' offsets in obs
        self._maal: dict[tuple, float] = {}  # (tiplu, maal-face counts) -> my_maal

    def encode(self, state: NepaliState, player: int) -> np.ndarray:
        obs = np.empty(SIZE, np.float32)
        self.encode_into(state, player, obs)
        return obs

    def encode_into(self, state: NepaliState, player: int, out: np.ndarray) -> None:
        t = state.table
        _encode(out, player, self._orders[player], state.hands, t.pile, state.exposed,
                state.shown, state.records, np.array((state.seen, state.route, state.fouls)),
                state.dealer, t.top, t.first_up, -1 if state.over else state.phase,
                state.building, state.show_closed, state.showed_now, state.must_finish,
                state.must_show_with >= 0, len(t.stock) / self._shoe,
                min(1.0, state.turns / self.config.max_turns_per_round))
        if state.tiplu >= 0:
            out[_TIPLU_DRAWN] = 1
            if state.seen[player] or self.config.open_maal or state.over:
                out[_TIPLU + state.tiplu] = 1
                out[self._wild_offsets(state)] = 1
                out[_MY_MAAL] = self._my_maal(state, player)

    def _wild_offsets(self, state: NepaliState) -> np.ndarray:
        offsets = self._wild.get(state.tiplu)
        if offsets is None:
            wild = sorted(self.game.roles(state).wild)
            offsets = self._wild[state.tiplu] = _WILD + np.array(wild, np.int64)
        return offsets

    def _my_maal(self, state: NepaliState, player: int) -> float:
        """``tanh(maal / MAAL_SCALE)`` of the player's holding, memoised: with no tunnela
        bonus it depends only on how many tiplu, poplu, jhiplu, alter and printed jokers the
        holding has."""
        roles = self.game.roles(state)
        faces = [roles.tiplu, roles.poplu, roles.jhiplu, roles.alter, JOKER]
        holding = self.game.holding(state, player)
        key = (state.tiplu, *holding[faces].tolist())
        value = self._maal.get(key)
        if value is None:
            counted = maal.count_maal(holding, roles, self.config, (), state.seen[player])
            value = self._maal[key] = math.tanh(counted["maal"] / MAAL_SCALE)
        return value
