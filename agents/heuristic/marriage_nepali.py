"""A rule-based Nepali Marriage agent that plays the way a Nepali player starts out: race to
see, keep the maal, finish as soon as the cards allow.

It reads only its own observation (through ``LAYOUT``) and the mask, plus the game's pure
combination maths for its own hand, so it is fair by construction: before it has seen, it has
no tiplu and treats every card at face value. A baseline, not a strong player: it does not
track what opponents collect, and it never holds a finish back for more maal.
"""

from __future__ import annotations

import numpy as np

from taas.agents.base import Agent
from taas.envs.core.cards import JOKER, NUM_RANKS
from taas.envs.marriage_nepali import actions as A
from taas.envs.marriage_nepali.combos import Splitter
from taas.envs.marriage_nepali.config import DECKS, Config
from taas.envs.marriage_nepali.observation import LAYOUT

_RANK = np.arange(JOKER) % NUM_RANKS
_SUIT = np.arange(JOKER) // NUM_RANKS


def keep_score(hand: np.ndarray, card: int, wild: np.ndarray, pairs_matter: bool) -> float:
    """How much ``card`` is worth keeping: wild cards most, then cards of a pure combination
    in the making (copies, same suit within two ranks, ace at both ends), then trial partners
    once wilds can fill trials."""
    if card == JOKER or wild[card]:
        return 100.0
    held = np.flatnonzero(hand[:JOKER])
    gap = np.abs(_RANK[held] - _RANK[card])
    gap = np.minimum(gap, np.where((_RANK[held] == 0) | (_RANK[card] == 0), 13 - gap, gap))
    near = (_SUIT[held] == _SUIT[card]) & (gap > 0) & (gap <= 2)
    score = 2.0 * near.sum() + 3.0 * (hand[card] - 1)
    if pairs_matter and hand[card] == 2:
        score += 4.0
    if wild.any():
        score += ((_RANK[held] == _RANK[card]) & (_SUIT[held] != _SUIT[card])).sum()
    return float(score)


class NepaliHeuristicAgent(Agent):
    """Expose every starting tunnela; show as soon as a show is offered; finish whenever a
    finish is legal; take the top discard when it completes a pure combination (unseen) or
    makes a finish possible (seen); discard the card least worth keeping."""

    name = "heuristic"

    def __init__(self, seed: int | None = None, config: Config | None = None):
        super().__init__(seed)
        self.config = config or Config()
        self._splitters: dict[bytes, Splitter] = {}

    @classmethod
    def build(cls, arg: str | None, env_id: str, seed: int | None, config: dict) -> Agent:
        if arg:
            raise ValueError(f"agent {cls.name!r} takes no argument (got {arg!r})")
        return cls(seed, Config(**config))

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        hand = np.rint(observation[LAYOUT["hand"]] * DECKS).astype(np.int64)
        wild = observation[LAYOUT["wild"]] > 0
        for first, last in ((A.FINISH, A.EXPOSE), (A.EXPOSE, A.EXPOSE_DONE),
                            (A.SHOW_EXPOSED, A.ABANDON_SHOW)):
            options = np.flatnonzero(action_mask[first:last])
            if options.size:
                return first + int(options[0])
        shows = np.flatnonzero(action_mask[A.SHOW_TUNNELA:A.SHOW_EXPOSED])
        if shows.size:
            return A.SHOW_TUNNELA + int(shows[0])
        if action_mask[A.DRAW_STOCK] or action_mask[A.DRAW_DISCARD]:
            return self._draw(observation, hand, wild, action_mask)
        legal = np.flatnonzero(action_mask[A.DISCARD:A.FINISH])
        if not legal.size:
            return int(np.flatnonzero(action_mask)[0])
        pairs = self.config.dublee_allowed and (hand[:JOKER] >= 2).sum() >= 4
        scores = [keep_score(hand, int(k), wild, pairs) for k in legal]
        return A.DISCARD + int(legal[int(np.argmin(scores))])

    def _draw(self, observation, hand, wild, mask) -> int:
        if not mask[A.DRAW_DISCARD]:
            return A.DRAW_STOCK
        top = int(np.flatnonzero(observation[LAYOUT["top_discard"]])[0])
        if not mask[A.DRAW_STOCK]:
            return A.DRAW_DISCARD
        with_top = hand.copy()
        with_top[top] += 1
        if observation[LAYOUT["seen"].start] and wild.any():
            if observation[LAYOUT["dublee_route"].start]:
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
