"""The rule-of-thumb Mariage player that search plays deals out with (:func:`playout`): the
heuristic's rules, with one move in ``1 / NOISE`` random.

It reads the engine state, but only what the seat to move could know (its hand, the cards
played, the indicator, the scores), and works on the bitmasks directly: a rollout calls it at
every move, and the engine's mask costs more than the move.
"""

from __future__ import annotations

import numpy as np

from taas.envs.mariage.actions import (
    CLAIM,
    CLOSE,
    EXCHANGE,
    KING,
    MARRY,
    NUM_CARDS,
    POINTS,
    QUEEN,
    STRENGTH,
    SUIT,
    card,
)
from taas.envs.mariage.rules import (
    _PAIR,
    _SEVEN,
    _SUIT_BITS,
    FOLLOW,
    MARRIAGE,
    OVER,
    TRICKS,
    WIN_SCORE,
    MariageGame,
    MariageState,
)

_ALL = (1 << NUM_CARDS) - 1
_PARTNER = {card(a, s): card(b, s) for s in range(4) for a, b in ((KING, QUEEN), (QUEEN, KING))}


def rollout(game: MariageGame, state: MariageState, rng: np.random.Generator) -> int:
    """The rollout player's move (see :func:`playout`), checked legal by the engine's mask."""
    return _choose(game.config, state, rng)


def playout(game: MariageGame, state: MariageState, rng: np.random.Generator) -> None:
    """Play the deal out in place with the rollout player. A determinized deal hides nothing,
    but the player looks only at what its seat could know; it computes its own legal moves
    from the bitmasks (the engine's mask costs more than the move) and one move in
    ``1 / NOISE`` is random among them."""
    cfg = game.config
    while state.phase != OVER:
        game._apply(state, _choose(cfg, state, rng))
    state.mask = None


NOISE = 10


def _choose(cfg, s: MariageState, rng: np.random.Generator | None = None) -> int:
    """The rules of :mod:`taas.agents.heuristic.mariage`, move for move (a test plays them
    against each other), on the engine's bitmasks: claim at 66 (never falsely); exchange the
    trump 7 and declare marriages (trumps first) when offered; close when the sure tricks
    reach 66; while the talon is open lead low, keep trumps, aces, tens and marriage pairs,
    take valuable leads cheaply, take the trick that reaches 66; once it is closed pull trumps
    with masters and cash side masters. With ``rng``, one card move in ``1 / NOISE`` is
    random; without, the move is the rules' own."""
    p = s.to_move
    if MariageGame.score(s, p) >= WIN_SCORE:
        return CLAIM
    hand = s.hands[p]
    open_ = s.closed_by < 0 and bool(s.talon)
    trump = s.trump
    if s.phase == FOLLOW:
        lead = s.lead
        cards = hand if open_ else TRICKS.follow_mask(hand, lead, trump, cfg.must_head_trick)
    elif s.phase == MARRIAGE:
        cards = hand & _PAIR[s.marriage_suit]
    else:
        cards = hand
    moves = _cards(cards)
    if rng is not None and rng.random() * NOISE < 1:
        return moves[int(rng.integers(len(moves)))]
    out = _ALL & ~(hand | s.played[0] | s.played[1])  # held by the opponent or in the talon
    if s.talon:  # the indicator, face up or put out of play by a close
        out &= ~(1 << s.talon[0])
    if s.phase == MARRIAGE:
        return min(moves, key=STRENGTH.__getitem__)

    def in_pair(c: int) -> bool:
        return c in _PARTNER and bool((hand | out) >> _PARTNER[c] & 1)

    def keep(c: int) -> float:
        v = POINTS[c] + STRENGTH[c] * 0.1
        if SUIT[c] == trump:
            v += 12
        if in_pair(c):
            v += 8
        return v

    if s.phase == FOLLOW:
        value = POINTS[lead]
        same = [c for c in moves if SUIT[c] == SUIT[lead] and STRENGTH[c] > STRENGTH[lead]]
        ruff = [c for c in moves if SUIT[c] == trump != SUIT[lead]]
        winners = same + ruff
        score = MariageGame.score(s, p)
        if winners and score + value + max(POINTS[c] for c in winners) >= WIN_SCORE:
            need = WIN_SCORE - score - value  # take the trick that reaches 66, cheaply
            return max(winners, key=lambda c: (POINTS[c] >= need, -keep(c)))
        if open_:
            free = [c for c in same if not in_pair(c)]
            if free:
                return max(free, key=POINTS.__getitem__)
            if value >= 10:
                cheap = [c for c in ruff if POINTS[c] < 10 and not in_pair(c)]
                if cheap:
                    return min(cheap, key=keep)
            return min(moves, key=keep)
        if same:
            return max(same, key=POINTS.__getitem__)
        if ruff:
            return min(ruff, key=STRENGTH.__getitem__)
        return min(moves, key=lambda c: (POINTS[c], SUIT[c] == trump, STRENGTH[c]))
    if open_:
        seven = _SEVEN[trump]
        if (hand >> seven & 1 and len(s.talon) - 1 >= cfg.exchange_min_facedown
                and (s.tricks[p] or not cfg.exchange_requires_trick)):
            return EXCHANGE
    if open_ or cfg.marriages_in_closed_phase:
        pairs = [u for u in range(4) if hand & _PAIR[u] == _PAIR[u]]
        if pairs:
            return MARRY + (trump if trump in pairs else pairs[0])
    if open_:
        if MariageGame.score(s, p) + _sure_points(hand, out, trump) >= WIN_SCORE:
            return CLOSE
        return min(moves, key=keep)
    trumps_out = out & _SUIT_BITS[trump]
    masters = [c for c in moves if not out & TRICKS.above[c]]
    master_trumps = [c for c in masters if SUIT[c] == trump]
    if master_trumps and trumps_out:
        return max(master_trumps, key=STRENGTH.__getitem__)
    side = [c for c in masters if SUIT[c] != trump]
    if side and not trumps_out:
        return max(side, key=lambda c: (POINTS[c], STRENGTH[c]))
    if master_trumps:
        return max(master_trumps, key=STRENGTH.__getitem__)
    return min(moves, key=keep)


def _sure_points(hand: int, out: int, trump: int) -> int:
    """Points the hand takes for certain in the closed phase: its unbroken run of top trumps,
    then (if that drains the outstanding trumps) its side-suit masters, each with a low card."""
    pts = wins = 0
    for c in _cards(_SUIT_BITS[trump] & (hand | out)):  # ids ascend from the ace down
        if not hand >> c & 1:
            break
        pts += POINTS[c] + 2
        wins += 1
    if wins >= (out & _SUIT_BITS[trump]).bit_count():
        for c in _cards(hand & ~_SUIT_BITS[trump]):
            if not out & TRICKS.above[c]:
                pts += POINTS[c] + 2
    return pts


_SUIT_CARDS = [[tuple(u * 8 + r for r in range(8) if b >> r & 1) for b in range(256)]
               for u in range(4)]


def _cards(mask: int) -> list[int]:
    """The card ids of a bitmask, ascending (a table lookup per suit: rollouts call it a lot)."""
    return [*_SUIT_CARDS[0][mask & 255], *_SUIT_CARDS[1][mask >> 8 & 255],
            *_SUIT_CARDS[2][mask >> 16 & 255], *_SUIT_CARDS[3][mask >> 24]]
