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
from taas.envs.core.jit import jit_norc
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
(_OPP_KNOWN, _PLAYED_ME, _PLAYED_OPP, _MARRIAGES_ME, _MARRIAGES_OPP, _TRUMP, _INDICATOR,
 _INDICATOR_OUT, _TALON_STATE, _NO_TRICK_AT_CLOSE, _LEAD, _PHASE, _MY_TURN, _DEALER, _POINTS,
 _TRICKS, _TALON, _MATCH) = (
    LAYOUT[key].start for key in (
        "opp_known", "played_me", "played_opp", "marriages_me", "marriages_opp", "trump",
        "indicator", "indicator_out", "talon_state", "no_trick_at_close", "lead", "phase",
        "my_turn", "dealer", "points", "tricks", "talon", "match"))


@jit_norc
def _cards(out, start, mask, n):
    """Write the ``n`` bits of ``mask`` (bit ``i`` = card ``i``) as 0/1 from ``out[start]``."""
    for i in range(n):
        out[start + i] = (mask >> i) & 1


@jit_norc
def _encode(out, hand, played_me, played_opp, opp_known, marriages_me, marriages_opp, trump,
            indicator, closed, no_trick_at_close, lead, phase, my_turn, dealer, card_points_me,
            marriage_points_me, score_me, card_points_opp, marriage_points_opp, score_opp,
            tricks_me, tricks_opp, talon, m0, m1, m2, m3, m4, m5):
    """Every entry of ``out`` from the observer-relative facts (``closed``: -1 open, 0 by me,
    1 by the opponent; ``indicator``, ``lead``: a card id or -1; ``m0..m5``: the match block,
    already squashed)."""
    out[:] = 0
    _cards(out, 0, hand, 32)
    _cards(out, _PLAYED_ME, played_me, 32)
    _cards(out, _PLAYED_OPP, played_opp, 32)
    _cards(out, _OPP_KNOWN, opp_known, 32)
    _cards(out, _MARRIAGES_ME, marriages_me, 4)
    _cards(out, _MARRIAGES_OPP, marriages_opp, 4)
    out[_TRUMP + trump] = 1
    if closed < 0:
        if indicator >= 0:
            out[_INDICATOR + indicator] = 1
        else:
            out[_TALON_STATE + 2] = 1  # exhausted
    else:
        out[_INDICATOR_OUT + indicator] = 1
        out[_TALON_STATE + closed] = 1
        out[_NO_TRICK_AT_CLOSE] = no_trick_at_close
    if lead >= 0:
        out[_LEAD + lead] = 1
    if phase <= 2:
        out[_PHASE + phase] = 1
        out[_MY_TURN] = my_turn
    out[_DEALER] = dealer
    out[_POINTS] = card_points_me / CARD_POINTS_MAX
    out[_POINTS + 1] = marriage_points_me / MARRIAGE_POINTS_MAX
    out[_POINTS + 2] = score_me / SCORE_MAX
    out[_POINTS + 3] = card_points_opp / CARD_POINTS_MAX
    out[_POINTS + 4] = marriage_points_opp / MARRIAGE_POINTS_MAX
    out[_POINTS + 5] = score_opp / SCORE_MAX
    out[_TRICKS] = tricks_me / 16
    out[_TRICKS + 1] = tricks_opp / 16
    out[_TALON] = talon / 20
    out[_MATCH] = m0
    out[_MATCH + 1] = m1
    out[_MATCH + 2] = m2
    out[_MATCH + 3] = m3
    out[_MATCH + 4] = m4
    out[_MATCH + 5] = m5


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
        """Every entry of ``out``, in one compiled call: the facts are gathered here (the
        match standing squashed by ``math.tanh``), the kernel sets the bits and scales the
        counts. The unpackbits and three slice writes it replaces, mostly NumPy call overhead, were
        a third of a ``mariage_v1`` AEC step's instructions."""
        me, op = player, 1 - player
        tp, mp, gp, raw, streak = (s.trick_points, s.marriage_points, s.game_points,
                                   s.raw_points, s.streak)
        closed_by = s.closed_by
        _encode(out, s.hands[me], s.played[me], s.played[op], s.known[op] & s.hands[op],
                s.marriages[me], s.marriages[op], s.trump, s.talon[0] if s.talon else -1,
                -1 if closed_by < 0 else int(closed_by != me), s.no_trick_at_close, s.lead,
                int(s.phase), s.to_move == me, s.dealer == me,
                tp[me], mp[me], MariageGame.score(s, me), tp[op], mp[op], MariageGame.score(s, op),
                s.tricks[me], s.tricks[op], len(s.talon),
                tanh(gp[me] / 7), tanh(gp[op] / 7), tanh(raw[me] / 1000), tanh(raw[op] / 1000),
                tanh(streak[me] / 3), tanh(streak[op] / 3))
