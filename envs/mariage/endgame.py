"""Perfect play of a Mariage deal once nothing is hidden (the talon is gone, or closed in a
determinization that fixes its cards).

Alpha-beta with a transposition table of value bounds. A position's value is the game points of
the deal for player 0 (positive: player 0 wins them), so the two players are max and min.
Claims are moves like any other, so perfect play also claims 66 at the right moment. At most 12
cards are left, which keeps a full solve to about a millisecond.
"""

from __future__ import annotations

from taas.envs.mariage.actions import CLAIM, MARRY, POINTS
from taas.envs.mariage.rules import (
    _PAIR,
    FOLLOW,
    LAST_TRICK_BONUS,
    LEAD,
    MARRIAGE,
    TRICKS,
    WIN_SCORE,
    MariageGame,
    MariageState,
)


def deal_value(state: MariageState, deals_before: int) -> int | None:
    """Signed game points for player 0 once the deal that was running has ended, else None."""
    if len(state.results) == deals_before:
        return None
    result = state.results[deals_before]
    return result["game_points"] if result["winner"] == 0 else -result["game_points"]


def solve(game: MariageGame, state: MariageState) -> int:
    """The deal's value for player 0 under perfect play by both sides."""
    done = deal_value(state, len(state.results))
    if done is not None:
        return done
    return _Solver(game, state).value(state)


def action_values(game: MariageGame, state: MariageState) -> dict[int, float]:
    """Each legal move's perfect-play value for player 0 (one bound table for all of them),
    claims first."""
    return _Solver(game, state).action_values(state)


def best_action(game: MariageGame, state: MariageState) -> int:
    """A move of the player to move that achieves the position's perfect-play value."""
    values = action_values(game, state)
    pick = max if state.to_move == 0 else min
    return pick(values, key=values.__getitem__)


_INF = 1 << 20


class _Solver:
    """Alpha-beta on the few numbers that decide the rest of a deal once no card is drawn any
    more (hands, who is to move, the led card, points and whether each side has a trick),
    passed as ints rather than as cloned engine states: a solve visits about a thousand
    positions, and cloning the engine's state at each cost ten times the move itself. The
    rules are the engine's (:mod:`.rules`), restricted to the closed phase; the tests check it
    against an exhaustive search through the engine."""

    def __init__(self, game: MariageGame, s: MariageState):
        if MariageGame.is_open(s):
            raise ValueError("the endgame solver needs the talon closed or gone")
        cfg = game.config
        self.trump = s.trump
        self.closer = s.closed_by
        self.dealer = s.dealer
        self.bonus = list(s.bonus)
        self.last_bonus = LAST_TRICK_BONUS if cfg.last_trick_bonus and s.closed_by < 0 else 0
        self.head = cfg.must_head_trick
        self.marry = cfg.marriages_in_closed_phase
        self.false_claims = cfg.allow_false_claims
        self.false_points = cfg.false_claim_points
        self.penalty = (cfg.closing_penalty_no_trick if s.no_trick_at_close
                        else cfg.closing_penalty)
        self.table: dict = {}

    @staticmethod
    def _args(s: MariageState) -> tuple:
        return (s.hands[0], s.hands[1], s.to_move, int(s.phase), s.lead, s.marriage_suit,
                s.trick_points[0], s.trick_points[1], s.marriage_points[0],
                s.marriage_points[1], s.tricks[0] > 0, s.tricks[1] > 0)

    def value(self, s: MariageState) -> int:
        return self._search(*self._args(s), -_INF, _INF)

    def action_values(self, s: MariageState) -> dict[int, float]:
        args = self._args(s)
        return {a: self._child(args, a, -_INF, _INF) for a in self._moves(args)}

    def _score(self, p: int, tp: int, mp: int, won: bool) -> int:
        return tp + self.bonus[p] + (mp if won else 0)

    def _win(self, winner: int, points: int) -> int:
        return points if winner == 0 else -points

    def _beaten(self, loser: int, score: int, won: bool) -> int:
        """Game points for beating ``loser``: 3 if it took no trick, 2 below 33, else 1."""
        return self._win(1 - loser, 3 if not won else 2 if score < 33 else 1)

    def _moves(self, args: tuple) -> list[int]:
        """The engine's legal moves in its order, claims first."""
        h0, h1, p, phase, lead, suit, tp0, tp1, mp0, mp1, w0, w1 = args
        hand = h1 if p else h0
        moves = []
        if self.false_claims or (self._score(1, tp1, mp1, w1) if p else
                                 self._score(0, tp0, mp0, w0)) >= WIN_SCORE:
            moves.append(CLAIM)
        if phase == FOLLOW:
            hand = TRICKS.follow_mask(hand, lead, self.trump, self.head)
        elif phase == MARRIAGE:
            hand &= _PAIR[suit]
        pairs = [MARRY + u for u in range(4) if hand & _PAIR[u] == _PAIR[u]] if (
            phase == LEAD and self.marry) else []
        while hand:
            low = hand & -hand
            moves.append(low.bit_length() - 1)
            hand ^= low
        return moves + pairs

    def _child(self, args: tuple, a: int, alpha: int, beta: int) -> int:
        """The value after move ``a``."""
        h0, h1, p, phase, lead, _, tp0, tp1, mp0, mp1, w0, w1 = args
        if a == CLAIM:
            return self._claim(args)
        if a >= MARRY:
            u = a - MARRY
            gain = 40 if u == self.trump else 20
            if p:
                mp1 += gain
            else:
                mp0 += gain
            return self._search(h0, h1, p, MARRIAGE, -1, u, tp0, tp1, mp0, mp1, w0, w1,
                                alpha, beta)
        bit = 1 << a
        if p:
            h1 ^= bit
        else:
            h0 ^= bit
        if phase != FOLLOW:
            return self._search(h0, h1, 1 - p, FOLLOW, a, -1, tp0, tp1, mp0, mp1, w0, w1,
                                alpha, beta)
        w = p if TRICKS.follower_wins(lead, a, self.trump) else 1 - p
        points = POINTS[lead] + POINTS[a]
        if w:
            tp1 += points
            w1 = True
        else:
            tp0 += points
            w0 = True
        if h0 | h1:
            return self._search(h0, h1, w, LEAD, -1, -1, tp0, tp1, mp0, mp1, w0, w1,
                                alpha, beta)
        return self._played_out(w, tp0, tp1, mp0, mp1, w0, w1)

    def _claim(self, args: tuple) -> int:
        p, tp0, tp1, mp0, mp1, w0, w1 = args[2], *args[6:]
        scores = self._score(0, tp0, mp0, w0), self._score(1, tp1, mp1, w1)
        if scores[p] < WIN_SCORE:
            return self._win(1 - p, self.false_points)
        if self.closer == 1 - p:
            return self._win(p, self.penalty)
        return self._beaten(1 - p, scores[1 - p], w1 if p == 0 else w0)

    def _played_out(self, w: int, tp0: int, tp1: int, mp0: int, mp1: int, w0: bool,
                    w1: bool) -> int:
        if w:
            tp1 += self.last_bonus
        else:
            tp0 += self.last_bonus
        scores = self._score(0, tp0, mp0, w0), self._score(1, tp1, mp1, w1)
        won = (w0, w1)
        c = self.closer
        if c >= 0:
            if scores[c] < WIN_SCORE:
                return self._win(1 - c, self.penalty)
            return self._beaten(1 - c, scores[1 - c], won[1 - c])
        s0, s1 = scores
        winner = 0 if s0 > s1 else 1 if s1 > s0 else 1 - self.dealer
        return self._beaten(1 - winner, scores[1 - winner], won[1 - winner])

    def _search(self, h0: int, h1: int, p: int, phase: int, lead: int, suit: int, tp0: int,
                tp1: int, mp0: int, mp1: int, w0: bool, w1: bool, alpha: int,
                beta: int) -> int:
        args = (h0, h1, p, phase, lead, suit, tp0, tp1, mp0, mp1, w0, w1)
        table = self.table
        low, high = table.get(args, (-_INF, _INF))
        if low >= beta:
            return low
        if high <= alpha:
            return high
        if low == high:
            return low
        a, b = max(alpha, low), min(beta, high)
        a0, b0 = a, b
        best = -_INF if p == 0 else _INF
        for move in self._moves(args):
            v = self._child(args, move, a, b)
            if p == 0:
                if v > best:
                    best = v
                    if v > a:
                        a = v
            elif v < best:
                best = v
                if v < b:
                    b = v
            if a >= b:
                break
        if best <= a0:
            table[args] = (low, best)
        elif best >= b0:
            table[args] = (best, high)
        else:
            table[args] = (best, best)
        return best
