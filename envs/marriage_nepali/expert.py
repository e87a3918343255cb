"""The rules of thumb of the Nepali Marriage heuristic, asked from what a seat knows.

One implementation serves two players: :class:`taas.agents.heuristic.marriage_nepali.\
NepaliHeuristicAgent` reads its inputs off its observation, and the search's rollouts
(:mod:`.determinize`) read them off the state they simulate (the mover's concealed cards and,
only if it may look at the tiplu, the wild kinds), so a rollout plays exactly what the
heuristic would without encoding an observation per move.
"""

from __future__ import annotations

import numpy as np

from taas.envs.core.cards import JOKER, NUM_RANKS
from taas.envs.marriage_nepali import actions as A
from taas.envs.marriage_nepali.combos import Splitter
from taas.envs.marriage_nepali.config import Config

_RANK = np.arange(JOKER) % NUM_RANKS
_SUIT = np.arange(JOKER) // NUM_RANKS
_GAP = np.abs(_RANK[:, None] - _RANK)
_GAP = np.minimum(_GAP, np.where((_RANK[:, None] == 0) | (_RANK == 0), 13 - _GAP, _GAP))
_RUN_PARTNER = ((_SUIT[:, None] == _SUIT) & (_GAP > 0) & (_GAP <= 2)).astype(np.int64)
"""``[c, h]``: natural kind ``h`` could join ``c`` in a pure sequence (same suit, one or two
ranks away, the ace at both ends)."""
_TRIAL_PARTNER = ((_RANK[:, None] == _RANK) & (_SUIT[:, None] != _SUIT)).astype(np.int64)


def keep_scores(hand: np.ndarray, kinds: np.ndarray, wild: np.ndarray,
                pairs_matter: bool) -> np.ndarray:
    """How much each card of ``kinds`` is worth keeping: wild cards (and printed jokers) most,
    100; then cards of a pure combination in the making (2 per held run partner, 3 per extra
    copy), 4 more for a pair when dublees matter, and 1 per trial partner once wilds can fill
    trials."""
    held = hand[:JOKER] > 0
    natural = np.minimum(kinds, JOKER - 1)
    score = 2.0 * (_RUN_PARTNER[natural] @ held) + 3.0 * (hand[kinds] - 1)
    if pairs_matter:
        score += 4.0 * (hand[kinds] == 2)
    if wild.any():
        score += _TRIAL_PARTNER[natural] @ held
    return np.where((kinds == JOKER) | wild[kinds], 100.0, score)


_BOUNDS = np.array([A.DISCARD, A.FINISH, A.FINISH_ALL, A.EXPOSE, A.EXPOSE_DONE, A.SHOW_TUNNELA,
                    A.SHOW_EXPOSED, A.ABANDON_SHOW])
"""Where each group of action ids starts: draws, discards, finishes, the finish without a
discard, exposes, expose_done, show steps, show_exposed (then abandon_show)."""


class Expert:
    """Expose every starting tunnela; show as soon as a show is offered; finish whenever a
    finish is legal; take the top discard when it completes a pure combination (unseen) or
    makes a finish possible (seen); discard the card least worth keeping."""

    def __init__(self, config: Config):
        self.config = config
        self._splitters: dict[bytes, Splitter] = {}

    def rank(self, hand: np.ndarray, wild: np.ndarray, seen: bool, dublee: bool, top: int,
             action_mask: np.ndarray) -> list[int]:
        """The ranking from what the seat knows (its concealed cards, the wild kinds it may
        use, whether it has seen and by which route, the top discard), so a search's rollouts
        can ask it without encoding an observation: the finishes (the lowest closing kind, then
        the others from least to most worth keeping), exposes and shows in mask order; both
        draws, its choice first; the discards from least to most worth keeping (ties in kind
        order)."""
        legal = np.flatnonzero(action_mask)
        cut = np.searchsorted(legal, _BOUNDS).tolist()
        finishes = legal[cut[1]:cut[2]] - A.FINISH
        if finishes.size:  # the lowest kind closes; the others from least worth keeping
            rest = finishes[1:][np.argsort(keep_scores(hand, finishes[1:], wild, False),
                                           kind="stable")]
            return (A.FINISH + np.concatenate((finishes[:1], rest))).tolist()
        for i in (2, 3, 6, 5):  # finish without a discard, exposes, show_exposed, shows
            if cut[i] < cut[i + 1]:
                return legal[cut[i]:cut[i + 1]].tolist()
        if cut[0]:
            first = self._draw(hand, wild, seen, dublee, top, action_mask)
            return [a for a in (first, A.DRAW_STOCK + A.DRAW_DISCARD - first) if action_mask[a]]
        discards = legal[cut[0]:cut[1]] - A.DISCARD
        if not discards.size:
            return legal.tolist()
        pairs = self.config.dublee_allowed and (hand[:JOKER] >= 2).sum() >= 4
        scores = keep_scores(hand, discards, wild, pairs)
        return (A.DISCARD + discards[np.argsort(scores, kind="stable")]).tolist()

    def _draw(self, hand, wild, seen, dublee, top, mask) -> int:
        if not mask[A.DRAW_DISCARD]:
            return A.DRAW_STOCK
        if not mask[A.DRAW_STOCK]:
            return A.DRAW_DISCARD
        with_top = hand.copy()
        with_top[top] += 1
        if seen and wild.any():
            if dublee:
                return A.DRAW_DISCARD  # the mask offers it only when it finishes
            splitter = self._splitter(wild)
            if splitter.closing_discards(with_top):
                return A.DRAW_DISCARD
            return A.DRAW_STOCK
        if top != JOKER and (hand[top] >= 2 or self._completes_run(hand, top)):
            return A.DRAW_DISCARD
        return A.DRAW_STOCK

    def _completes_run(self, hand: np.ndarray, card: int) -> bool:
        """Whether ``card`` and two held cards of its suit make a pure sequence."""
        r, s = int(_RANK[card]), int(_SUIT[card])
        ace_high = self.config.ace_sequence == "both_ends"
        for start in range(r - 2, r + 1):
            ranks = [start + i for i in range(3)]
            if min(ranks) < 0 or max(ranks) > (13 if ace_high else 12):
                continue
            kinds = [s * NUM_RANKS + (x % NUM_RANKS) for x in ranks]
            if all(hand[k] or k == card for k in kinds):
                return True
        return False

    def _splitter(self, wild: np.ndarray) -> Splitter:
        key = wild.tobytes()
        if key not in self._splitters:
            self._splitters[key] = Splitter(np.flatnonzero(wild).tolist(),
                                            self.config.ace_sequence == "both_ends",
                                            self.config.max_meld_size)
        return self._splitters[key]
