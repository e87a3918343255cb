"""Nepali Marriage observation: what a careful player at the table knows, ego-centric.

Seats run from the observer in play order (``direction``) and are padded to 6. Public: every
card face up (the offered card, the pile, each seat's discards and pick-ups, exposed starting
tunnelas, shown combinations), every seat's seen flag and route, hand sizes, fouls, the stock
size and whether a tiplu has been drawn. The tiplu and everything derived from it (the wild
kinds, one's own maal) appear only for an observer who has seen (or everyone under
``open_maal``, or once the round is over): two states that differ only in the tiplu give an
unseen player identical observations. Every feature lies in [0, 1].
"""

from __future__ import annotations

import math

import numpy as np

from taas.envs.core.cards import NUM_KINDS
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
    ("tiplu", NUM_KINDS),  # one-hot, only when I know it
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
_HAND, _PILE, _EXPOSED, _SHOWN, _DISCARDED, _TAKEN, _SEEN, _DUBLEE, _SIZE, _FOULS, _DEALER, \
    _IN_GAME = (LAYOUT[name].start for name in ("hand", "discard_pile", "exposed", "shown",
                                                "discarded", "taken", *SEAT_FLAGS))


@jit_norc
def _encode_cards(obs, player, order, hands, pile, exposed, shown, records, seen, dublee,
                  fouls, dealer):
    """Fill the card-count blocks and the per-seat flags (seats in ``order``) of a zeroed
    ``obs`` in one compiled pass."""
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
        obs[_SEEN + i] = seen[p]
        obs[_DUBLEE + i] = dublee[p]
        obs[_SIZE + i] = size / (HAND_SIZE + 1)
        obs[_FOULS + i] = np.tanh(fouls[p])
        obs[_DEALER + i] = p == dealer
        obs[_IN_GAME + i] = 1.0


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

    def encode(self, state: NepaliState, player: int) -> np.ndarray:
        obs = np.zeros(SIZE, np.float32)
        g, t = self.game, state.table
        _encode_cards(obs, player, self._orders[player], state.hands, t.pile, state.exposed,
                      state.shown, state.records, np.array(state.seen, np.int8),
                      np.array(state.route, np.int8) == DUBLEE,
                      np.array(state.fouls, np.int64), state.dealer)
        if t.top >= 0:
            obs[LAYOUT["top_discard"].start + t.top] = 1
        if t.first_up >= 0:
            obs[LAYOUT["offered"].start + t.first_up] = 1
        knows = state.seen[player] or self.config.open_maal or state.over
        if state.tiplu >= 0:
            obs[LAYOUT["tiplu_drawn"]] = 1
            if knows:
                roles = g.roles(state)
                obs[LAYOUT["tiplu"].start + state.tiplu] = 1
                obs[LAYOUT["wild"].start + np.array(sorted(roles.wild))] = 1
                counted = maal.count_maal(g.holding(state, player), roles, self.config,
                                          (), state.seen[player])["maal"]
                obs[LAYOUT["my_maal"]] = math.tanh(counted / MAAL_SCALE)
        if not state.over:
            obs[LAYOUT["phase"].start + state.phase] = 1
        if state.building:
            obs[LAYOUT["building"].start + state.building - 1] = 1
        obs[LAYOUT["turn_flags"]] = (state.show_closed, state.showed_now, state.must_finish,
                                     state.must_show_with >= 0)
        obs[LAYOUT["stock_size"]] = len(t.stock) / self._shoe
        obs[LAYOUT["turn"]] = min(1.0, state.turns / self.config.max_turns_per_round)
        return obs
