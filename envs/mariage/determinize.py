"""What one Mariage seat cannot see, dealt afresh: the search agents' view of a deal.

A seat sees its own hand, every card played (by whom), the face-up trump indicator while the
talon is open (and remembers it after a close), the cards the opponent is known to hold (a
declared marriage's partner, the indicator taken by the trump-7 exchange, the last talon card
taken face up) and the suits the opponent has shown to lack (failing to follow, or to trump, in
the closed phase). Everything else — the rest of the opponent's hand and the talon's order — is
dealt at random from the unseen cards, so a determinization never contradicts the seat's
knowledge. With the talon gone, the unseen cards are exactly the opponent's hand: the deal has
become one of perfect information, and :func:`exact` plays it perfectly (:mod:`.endgame`); after a
close it solves sampled determinizations instead of searching. That is ``ismcts``'s and the
oracle's hook; PIMC plays those phases by its worlds too (:data:`pimc_exact`).
"""

from __future__ import annotations

import numpy as np

from taas.envs.mariage.actions import NUM_CARDS
from taas.envs.mariage.endgame import action_values, best_action
from taas.envs.mariage.playout_kernel import worlds  # noqa: F401 (search hook)
from taas.envs.mariage.rollout_player import playout, rollout  # noqa: F401 (search hooks)
from taas.envs.mariage.rules import MariageGame, MariageState

_ALL = (1 << NUM_CARDS) - 1
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


# PIMC solves nothing: its worlds, played out by the rule player, judge the closed phase and
# the end better than solved deals do (docs/agents.md, "The compiled world loop"; 1,000
# deals, 3,000 inferred worlds, one random playout move in 5: +1.97 with worlds everywhere,
# +1.89 with the talon's end solved, +1.83 with closed deals solved too). Solved deals assume
# a perfect, clairvoyant opponent; the worlds' opponent plays as the rule player does, and so
# takes its mistakes into account.
pimc_exact = None


def __getattr__(name: str):
    """``Inference`` (:mod:`.inference`, which builds on this module) for PIMC's worlds."""
    if name == "Inference":
        from taas.envs.mariage.inference import Inference

        return Inference
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
