"""A rule-based Continental Rummy player: greedy's shape, plus live copies and a look ahead.

It reads only its own observation (through ``LAYOUT``), so it is fair by construction. Like
:class:`~taas.agents.heuristic.continental_greedy.GreedyAgent` it builds several groups at once
(keeps the ranks it holds most of, sheds loose cards, the most expensive first) and never
throws a joker while a natural card can go. On top, it counts the copies of each rank still
live (the shoe less its hand, the pile and what the others took from the pile and still hold,
so the ranks others collect count as gone) and, from the discard, looks one draw ahead: it
keeps the hand that the most live cards would let go out next turn. It takes a discard only
when the rank can still grow, and buys (when the rules allow) only a card that completes a
group of a hand near going out.
"""

from __future__ import annotations

import numpy as np

from taas.agents.base import Agent, either_first
from taas.agents.heuristic.continental_greedy import discardable_naturals, go_out_or_joker
from taas.envs.continental import actions as A
from taas.envs.continental.config import MAX_PLAYERS, Config
from taas.envs.continental.hands import CARD_VALUES, go_out_discards
from taas.envs.continental.observation import LAYOUT
from taas.envs.continental.rules import SEAT, SEAT_SIZE
from taas.envs.core.cards import JOKER, NUM_RANKS, shoe
from taas.envs.core.config import build_config

_RANK_OF = np.arange(JOKER) % NUM_RANKS
BUY_MISSING = 4
"""Buy only when the hand lacks at most this many cards to be all in groups: two penalty cards
set a far hand back further than one wanted card brings it on."""


def _ranks(counts: np.ndarray) -> np.ndarray:
    """Natural cards per rank (suits do not matter in groups)."""
    return np.bincount(_RANK_OF, weights=counts[:JOKER], minlength=NUM_RANKS)


class ContinentalHeuristicAgent(Agent):
    """Go out at once; keep live pairs and jokers; discard dead, loose, expensive cards."""

    name = "heuristic"

    def __init__(self, seed: int | None = None, rules: dict | None = None):
        super().__init__(seed)
        self.config = build_config(Config, "continental", rules or {})
        self._copies = shoe(self.config.decks, self.config.total_jokers)

    @classmethod
    def build(
        cls, arg: str | None, env_id: str, seed: int | None, config: dict
    ) -> ContinentalHeuristicAgent:
        if arg:
            raise ValueError(f"agent {cls.name!r} takes no argument (got {arg!r})")
        return cls(seed, config)

    def read(self, obs: np.ndarray) -> None:
        self.hand = np.rint(obs[LAYOUT["hand"]] * self._copies)
        self.per_rank = _ranks(self.hand)
        self.jokers = int(self.hand[JOKER])
        seen = np.rint(obs[LAYOUT["discard_pile"]] * self._copies)
        start = LAYOUT["seats"].start
        for seat in range(1, MAX_PLAYERS):
            block = obs[start + seat * SEAT_SIZE : start + (seat + 1) * SEAT_SIZE]
            taken = np.rint(block[SEAT["taken"]] * self._copies)
            discarded = np.rint(block[SEAT["discarded"]] * self._copies)
            seen += np.maximum(0, taken - discarded)  # still held, as far as anyone can tell
        self.live = np.maximum(0, _ranks(self._copies) - self.per_rank - _ranks(seen))
        self.live_jokers = max(0, int(self._copies[JOKER] - self.jokers - seen[JOKER]))
        top = np.flatnonzero(obs[LAYOUT["top_discard"]])
        self.top = int(top[0]) if top.size else -1

    def missing(self, per_rank: np.ndarray, jokers: int) -> int:
        """Cards the hand still needs for every natural card to sit in a group of three."""
        short = np.where(per_rank > 0, np.maximum(0, 3 - per_rank), 0).sum()
        return max(0, int(short) - jokers)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return self.ranking(observation, action_mask)[0]

    def ranking(self, observation: np.ndarray, action_mask: np.ndarray) -> list[int]:
        """The legal moves this player would consider, best first (``act`` plays the first):
        both draws or both buy answers in its order of preference, the discards of natural
        cards from least to most wanted, or only the move it never questions (going out)."""
        self.read(observation)
        if action_mask[A.DRAW_STOCK] or action_mask[A.DRAW_DISCARD]:
            if self._wants_top(action_mask):
                return either_first(A.DRAW_DISCARD, A.DRAW_STOCK, action_mask)
            return either_first(A.DRAW_STOCK, A.DRAW_DISCARD, action_mask)
        if action_mask[A.BUY]:
            buy = self.top >= 0 and self._completes(self.top)
            buy = buy and self.missing(self.per_rank, self.jokers) <= BUY_MISSING
            return either_first(A.BUY, A.PASS, action_mask) if buy else either_first(
                A.PASS, A.BUY, action_mask)
        out = go_out_or_joker(action_mask)
        if out is not None:
            return [out]
        naturals = discardable_naturals(action_mask)
        keys = {r: self._keep(r) for r in set(_RANK_OF[naturals].tolist())}
        return [A.DISCARD + int(k) for k in sorted(naturals, key=lambda k: keys[_RANK_OF[k]])]

    def _keep(self, r: int) -> tuple:
        """How much the hand wants to keep a card of rank ``r`` (the least wanted is thrown):
        first the live cards that would let the rest go out on the next draw (:meth:`outs`),
        then greedy's order: the rank with the fewest cards in hand, the most expensive."""
        rest = self.per_rank.copy()
        rest[r] -= 1
        return (-self.outs(rest, self.jokers), self.per_rank[r], -CARD_VALUES[r])

    @staticmethod
    def _spread(per_rank: np.ndarray, jokers: int) -> np.ndarray:
        """A count vector with these ranks and jokers: suits do not matter in groups, so every
        rank sits in one suit's slots."""
        hand = np.zeros(JOKER + 1, np.int64)
        hand[:NUM_RANKS] = per_rank
        hand[JOKER] = jokers
        return hand

    def outs(self, per_rank: np.ndarray, jokers: int) -> int:
        """Live cards (counted copy by copy) that would let this hand go out if drawn."""
        hand = self._spread(per_rank, jokers)
        m = self.config.min_naturals_per_group
        total = 0
        for k, live in [*enumerate(self.live.tolist()), (JOKER, self.live_jokers)]:
            if live:
                hand[k] += 1
                if go_out_discards(hand, m):
                    total += live
                hand[k] -= 1
        return total

    def _completes(self, k: int) -> bool:
        return k == JOKER or self.per_rank[_RANK_OF[k]] >= 2

    def _wants_top(self, mask: np.ndarray) -> bool:
        """The discard when it lets the hand go out now, or when it is a joker or matches a
        held rank (greedy's rule) and the hand it leaves has at least the outs of this one."""
        if not mask[A.DRAW_DISCARD]:
            return False
        if not mask[A.DRAW_STOCK] or self.top < 0 or self.top == JOKER:
            return True
        r = _RANK_OF[self.top]
        if self.per_rank[r] == 0:
            return False
        ranks = self.per_rank.copy()
        ranks[r] += 1
        if go_out_discards(self._spread(ranks, self.jokers), self.config.min_naturals_per_group):
            return True
        now = self.outs(self.per_rank, self.jokers)
        if not now:
            return True
        one = np.eye(NUM_RANKS, dtype=ranks.dtype)
        after = max(self.outs(ranks - one[d], self.jokers)
                    for d in np.flatnonzero(ranks) if d != r or ranks[r] > 1)
        return after >= now
