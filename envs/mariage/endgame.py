"""Perfect play of a Mariage deal once nothing is hidden (the talon is gone).

Alpha-beta over the engine's own moves with a transposition table of value bounds. A position's
value is the game points of the deal for player 0 (positive: player 0 wins them), so the two
players are max and min. Claims are moves like any other, so perfect play also claims 66 at the
right moment. At most 12 cards are left, which keeps a full solve to milliseconds.
"""

from __future__ import annotations

import math

import numpy as np

from taas.envs.mariage.actions import CLAIM
from taas.envs.mariage.rules import OVER, MariageGame, MariageState


def deal_value(state: MariageState, deals_before: int) -> int | None:
    """Signed game points for player 0 once the deal that was running has ended, else None."""
    if len(state.results) == deals_before:
        return None
    result = state.results[deals_before]
    return result["game_points"] if result["winner"] == 0 else -result["game_points"]


def _key(s: MariageState) -> tuple:
    """Everything that decides the rest of the deal (trick counts matter only as zero or not)."""
    return (s.hands[0], s.hands[1], s.to_move, int(s.phase), s.lead, s.marriage_suit,
            s.trick_points[0], s.trick_points[1], s.marriage_points[0], s.marriage_points[1],
            s.bonus[0], s.bonus[1], s.tricks[0] > 0, s.tricks[1] > 0, s.closed_by,
            s.no_trick_at_close, len(s.talon))


def _moves(game: MariageGame, s: MariageState) -> list[int]:
    """Legal moves, claims first (they end the deal at once and often cut the search)."""
    legal = np.flatnonzero(game.legal_mask(s)).tolist()
    return [CLAIM, *legal[:-1]] if legal[-1] == CLAIM else legal


def solve(game: MariageGame, state: MariageState) -> int:
    """The deal's value for player 0 under perfect play by both sides."""
    return _alphabeta(game, state, -math.inf, math.inf, {}, len(state.results))


def action_values(game: MariageGame, state: MariageState) -> dict[int, float]:
    """Each legal move's perfect-play value for player 0 (one bound table for all of them)."""
    table: dict = {}
    n = len(state.results)
    out = {}
    for a in _moves(game, state):
        child = state.clone()
        game.apply_action(child, a)
        out[a] = _alphabeta(game, child, -math.inf, math.inf, table, n)
    return out


def best_action(game: MariageGame, state: MariageState) -> int:
    """A move of the player to move that achieves the position's perfect-play value."""
    values = action_values(game, state)
    pick = max if state.to_move == 0 else min
    return pick(values, key=values.__getitem__)


def _alphabeta(game: MariageGame, s: MariageState, alpha: float, beta: float,
               table: dict, deals_before: int) -> float:
    done = deal_value(s, deals_before)
    if done is not None:
        return done
    if s.phase == OVER:  # cut by the max_turns safety limit: no score
        return 0
    key = _key(s)
    low, high = table.get(key, (-math.inf, math.inf))
    if low >= beta:
        return low
    if high <= alpha:
        return high
    if low == high:
        return low
    a, b = max(alpha, low), min(beta, high)
    a0, b0 = a, b
    maximize = s.to_move == 0
    best = -math.inf if maximize else math.inf
    for move in _moves(game, s):
        child = s.clone()
        game.apply_action(child, move)
        v = _alphabeta(game, child, a, b, table, deals_before)
        if maximize:
            best = max(best, v)
            a = max(a, best)
        else:
            best = min(best, v)
            b = min(b, best)
        if a >= b:
            break
    if best <= a0:
        table[key] = (low, best)
    elif best >= b0:
        table[key] = (best, high)
    else:
        table[key] = (best, best)
    return best
