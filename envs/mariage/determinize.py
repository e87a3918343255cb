"""What one Mariage seat cannot see, dealt afresh: the search agents' view of a deal.

A seat sees its own hand, every card played (by whom), the face-up trump indicator while the
talon is open (and remembers it after a close), the cards the opponent is known to hold (a
declared marriage's partner, the indicator taken by the trump-7 exchange, the last talon card
taken face up) and the suits the opponent has shown to lack (failing to follow, or to trump, in
the closed phase). Everything else — the rest of the opponent's hand and the talon's order — is
dealt at random from the unseen cards, so a determinization never contradicts the seat's
knowledge. With the talon gone, the unseen cards are exactly the opponent's hand: the deal has
become one of perfect information, and :func:`exact` plays it perfectly (:mod:`.endgame`); after a
close it solves sampled determinizations instead of searching.
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
from taas.envs.mariage.endgame import action_values, best_action
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
PIMC_SAMPLES = 6  # determinizations solved per closed-phase decision: keeps it under 0.2 s
ROLLOUT_DEPTH = 60  # a deal is at most 16 tricks and a few declarations: rollouts finish it


def unseen(state: MariageState, player: int) -> int:
    """Cards ``player`` has not seen anywhere and cannot place: the opponent's unknown cards and
    the face-down talon (bitmask)."""
    seen = state.hands[player] | state.played[0] | state.played[1] | state.known[1 - player]
    if state.talon:
        seen |= 1 << state.talon[0]
    return _ALL & ~seen


def determinize(game: MariageGame, state: MariageState, player: int,
                rng: np.random.Generator) -> MariageState:
    """A copy of ``state`` in which the cards ``player`` cannot see are dealt at random,
    consistently with the opponent's known cards, hand size and revealed voids."""
    opp = 1 - player
    pool = unseen(state, player)
    need = state.hands[opp].bit_count() - state.known[opp].bit_count()
    allowed = [c for c in range(NUM_CARDS) if pool >> c & 1 and not state.voids[opp] >> c & 1]
    barred = [c for c in range(NUM_CARDS) if pool >> c & 1 and state.voids[opp] >> c & 1]
    order = rng.permutation(len(allowed))
    dealt = [allowed[i] for i in order[:need]]
    rest = [allowed[i] for i in order[need:]] + barred
    s = state.clone()
    hand = state.known[opp]
    for c in dealt:
        hand |= 1 << c
    s.hands[opp] = hand
    if state.talon:
        s.talon = [state.talon[0]] + [rest[i] for i in rng.permutation(len(rest))]
    s.mask = None
    return s


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


def _choose(cfg, s: MariageState, rng: np.random.Generator) -> int:
    """Sixty-Six rules of thumb, as in :mod:`taas.agents.heuristic.mariage`: claim at 66 (never
    falsely); exchange the trump 7 and declare marriages (trumps first) when offered; close
    when the sure tricks reach 66; while the talon is open lead low, keep trumps, aces, tens
    and marriage pairs, take valuable leads cheaply; once it is closed pull trumps with masters
    and cash side masters."""
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
    if rng.random() * NOISE < 1:
        return moves[int(rng.integers(len(moves)))]
    out = _ALL & ~(hand | s.played[0] | s.played[1])  # held by the opponent or in the talon
    if open_:
        out &= ~(1 << s.talon[0])
    if s.phase == MARRIAGE:
        return min(moves, key=STRENGTH.__getitem__)

    def keep(c: int) -> float:
        v = POINTS[c] + STRENGTH[c] * 0.1
        if SUIT[c] == trump:
            v += 12
        if c in _PARTNER and (hand | out) >> _PARTNER[c] & 1:
            v += 8
        return v

    if s.phase == FOLLOW:
        value = POINTS[lead]
        same = [c for c in moves if SUIT[c] == SUIT[lead] and STRENGTH[c] > STRENGTH[lead]]
        ruff = [c for c in moves if SUIT[c] == trump != SUIT[lead]]
        if open_:
            free = [c for c in same if not (c in _PARTNER and (hand | out) >> _PARTNER[c] & 1)]
            if free:
                return max(free, key=POINTS.__getitem__)
            if value >= 10:
                cheap = [c for c in ruff if POINTS[c] < 10]
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


def exact(game: MariageGame, state: MariageState, player: int,
          rng: np.random.Generator, sample=determinize) -> int | None:
    """Solved play in the closed phase, else None. With the talon gone the opponent's hand is
    known and the move is perfect; after a close the unseen cards may lie in the opponent's
    hand or the dead talon, so each move is scored by its perfect-play value averaged over
    ``PIMC_SAMPLES`` determinizations (perfect-information Monte Carlo, strong in trick play).
    ``sample`` is the search's determinizer: the oracle's hands it the true state."""
    if not state.talon:
        return best_action(game, sample(game, state, player, rng))
    if state.closed_by < 0:
        return None
    sign = 1 if player == 0 else -1
    totals: dict[int, float] = {}
    for _ in range(PIMC_SAMPLES):
        for a, v in action_values(game, sample(game, state, player, rng)).items():
            totals[a] = totals.get(a, 0.0) + sign * v
    return max(totals, key=totals.__getitem__)
