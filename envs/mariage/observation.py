"""Mariage observations: what one player at the table knows and remembers, as a flat float32
vector. The only place hidden information (the opponent's unseen cards, the talon order) is
dropped.

Card blocks are 32 long, indexed by Mariage card id (:mod:`taas.envs.mariage.actions`); "me"/"opp"
are relative to the observer. Every card that was ever face up is remembered: the indicator
after a close (``indicator_out``), the cards each player played (the current trick's lead
included), and the cards the opponent is known to hold (a shown marriage partner, the indicator
taken by the trump-7 exchange, the indicator drawn last). Scores are public: every trick is
seen, so each player's points are exactly known to both.
"""

from __future__ import annotations

from math import tanh

import numpy as np

from taas.envs.core.game import Observer, make_layout
from taas.envs.mariage.config import Config
from taas.envs.mariage.rules import MariageGame, MariageState

_BINARY = (
    ("hand", 32), ("indicator", 32), ("lead", 32), ("played_me", 32), ("played_opp", 32),
    ("opp_known", 32), ("indicator_out", 32), ("trump", 4), ("marriages_me", 4),
    ("marriages_opp", 4), ("phase", 3), ("my_turn", 1), ("talon_state", 3), ("dealer", 1),
    ("no_trick_at_close", 1),
)
# Every feature lies in [0, 1]. Bounded counts are divided by their exact maximum:
# points: [my card points / 120, my marriage points / 100 (pending while I have no trick),
#          my score / 230, the same three for the opponent]  (a score is at most 120 card
#          points + 100 for all four marriages + the 10 of the last-trick bonus);
# tricks: [mine, opp's] / 16;  talon: cards left (out of play after a close) / 20.
# The match standing has no bound (raw points and streaks keep counting in a long match), so
# it is squashed: match: tanh([my game points / 7, opp's / 7, my raw points / 1000,
#         opp's / 1000, my deals won in a row / 3, opp's / 3])  (all 0 before a deal ends).
_SCALAR = (("points", 6), ("tricks", 2), ("talon", 1), ("match", 6))
CARD_POINTS_MAX, MARRIAGE_POINTS_MAX, SCORE_MAX = 120, 100, 230


LAYOUT, SIZE = make_layout(_BINARY + _SCALAR)
NUM_BITS = LAYOUT["no_trick_at_close"].stop
_POINTS, _MATCH = LAYOUT["points"].start, LAYOUT["match"].start
_NUM_BYTES = (NUM_BITS + 7) // 8
(_PLAYED_ME, _PLAYED_OPP, _OPP_KNOWN, _MARRIAGES_ME, _MARRIAGES_OPP, _TRUMP, _INDICATOR,
 _INDICATOR_OUT, _TALON_STATE, _NO_TRICK_AT_CLOSE, _LEAD, _PHASE, _MY_TURN, _DEALER) = (
    LAYOUT[key].start for key in (
        "played_me", "played_opp", "opp_known", "marriages_me", "marriages_opp", "trump",
        "indicator", "indicator_out", "talon_state", "no_trick_at_close", "lead", "phase",
        "my_turn", "dealer"))


class MariageObserver(Observer):
    """Encodes a :class:`MariageState` for one player (layout in :data:`LAYOUT`)."""

    layout = LAYOUT
    size = SIZE

    def __init__(self, config: Config | None = None):
        self.config = config
        self.low = np.zeros(SIZE, dtype=np.float32)
        self.high = np.ones(SIZE, dtype=np.float32)

    def encode(self, s: MariageState, player: int) -> np.ndarray:
        obs = np.empty(SIZE, dtype=np.float32)
        self.encode_into(s, player, obs)
        return obs

    def encode_into(self, s: MariageState, player: int, out: np.ndarray) -> None:
        """Every entry of ``out`` is written: the bits, then the scalars."""
        me, op = player, 1 - player
        x = (s.hands[me] | s.played[me] << _PLAYED_ME | s.played[op] << _PLAYED_OPP
             | (s.known[op] & s.hands[op]) << _OPP_KNOWN
             | s.marriages[me] << _MARRIAGES_ME | s.marriages[op] << _MARRIAGES_OPP
             | 1 << (_TRUMP + s.trump))
        if s.closed_by < 0 and s.talon:
            x |= 1 << (_INDICATOR + s.talon[0])
        elif s.closed_by >= 0:
            x |= 1 << (_INDICATOR_OUT + s.talon[0]) | 1 << (_TALON_STATE + (s.closed_by != me))
            if s.no_trick_at_close:
                x |= 1 << _NO_TRICK_AT_CLOSE
        else:
            x |= 1 << (_TALON_STATE + 2)
        if s.lead >= 0:
            x |= 1 << (_LEAD + s.lead)
        if s.phase <= 2:
            x |= 1 << (_PHASE + s.phase)
            if s.to_move == me:
                x |= 1 << _MY_TURN
        if s.dealer == me:
            x |= 1 << _DEALER
        out[:NUM_BITS] = np.unpackbits(
            np.frombuffer(x.to_bytes(_NUM_BYTES, "little"), dtype=np.uint8),
            count=NUM_BITS, bitorder="little")
        tp, mp, tr = s.trick_points, s.marriage_points, s.tricks
        my_score = MariageGame.score(s, me)
        op_score = MariageGame.score(s, op)
        out[_POINTS:_MATCH] = (
            tp[me] / CARD_POINTS_MAX, mp[me] / MARRIAGE_POINTS_MAX, my_score / SCORE_MAX,
            tp[op] / CARD_POINTS_MAX, mp[op] / MARRIAGE_POINTS_MAX, op_score / SCORE_MAX,
            tr[me] / 16, tr[op] / 16, len(s.talon) / 20,
        )
        gp, raw, streak = s.game_points, s.raw_points, s.streak
        out[_MATCH:] = (
            tanh(gp[me] / 7), tanh(gp[op] / 7), tanh(raw[me] / 1000), tanh(raw[op] / 1000),
            tanh(streak[me] / 3), tanh(streak[op] / 3),
        )

