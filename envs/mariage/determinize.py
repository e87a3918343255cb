"""What one Mariage seat cannot see, dealt afresh: the search agents' view of a deal.

A seat sees its own hand, every card played (by whom), the face-up trump indicator while the
talon is open (and remembers it after a close), the cards the opponent is known to hold (a
declared marriage's partner, the indicator taken by the trump-7 exchange, the last talon card
taken face up) and the suits the opponent has shown to lack (failing to follow, or to trump, in
the closed phase). Everything else — the rest of the opponent's hand and the talon's order — is
dealt at random from the unseen cards, so a determinization never contradicts the seat's
knowledge. With the talon gone, the unseen cards are exactly the opponent's hand: the deal has
become one of perfect information, and :func:`exact` plays it perfectly (:mod:`.endgame`).
"""

from __future__ import annotations

import numpy as np
from taas.envs.mariage.actions import CLAIM, NUM_CARDS
from taas.envs.mariage.endgame import best_action
from taas.envs.mariage.rules import WIN_SCORE, MariageGame, MariageState

_ALL = (1 << NUM_CARDS) - 1
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
    """Random play that claims 66 as soon as it is reached and never claims falsely: a random
    false claim would end most rollouts in noise."""
    legal = np.flatnonzero(game.legal_mask(state))
    if legal[-1] == CLAIM:
        if game.score(state, state.to_move) >= WIN_SCORE:
            return CLAIM
        legal = legal[:-1]
    return int(legal[rng.integers(len(legal))])


def exact(game: MariageGame, state: MariageState, player: int) -> int | None:
    """The perfect move once the talon is gone (the opponent's hand is then known), else None."""
    if state.talon:
        return None
    return best_action(game, determinize(game, state, player, np.random.default_rng(0)))
