"""A simple greedy Continental Rummy agent: collect ranks, shed singletons, go out at once.

It reads only its own observation (through ``LAYOUT``), so it is fair by construction. It is a
baseline that clearly beats random play, not a strong player. The observation gives card counts
per copy in the shoe, so the agent is built with the env's rules to turn them back into counts.
"""

from __future__ import annotations

import numpy as np

from taas.agents.base import Agent
from taas.envs.continental import actions as A
from taas.envs.continental.config import Config
from taas.envs.continental.hands import CARD_VALUES
from taas.envs.continental.observation import LAYOUT
from taas.envs.core.cards import JOKER, NUM_RANKS, shoe
from taas.envs.core.config import build_config

_RANK_OF = np.arange(JOKER) % NUM_RANKS


class GreedyAgent(Agent):
    """Take a discard that matches a held rank (or a joker); go out whenever legal; otherwise
    discard the card whose rank has the fewest copies in hand, the most expensive first;
    buy a discard that completes a group."""

    name = "greedy"

    def __init__(self, seed: int | None = None, rules: dict | None = None):
        super().__init__(seed)
        config = build_config(Config, "continental", rules or {})
        self._copies = shoe(config.decks, config.total_jokers)

    @classmethod
    def build(cls, arg: str | None, env_id: str, seed: int | None, config: dict) -> GreedyAgent:
        if arg:
            raise ValueError(f"agent {cls.name!r} takes no argument (got {arg!r})")
        return cls(seed, config)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        hand = np.rint(observation[LAYOUT["hand"]] * self._copies)
        per_rank = np.bincount(_RANK_OF, weights=hand[:JOKER], minlength=NUM_RANKS)
        top = np.flatnonzero(observation[LAYOUT["top_discard"]])
        if action_mask[A.DRAW_STOCK] or action_mask[A.DRAW_DISCARD]:
            wanted = top.size and (top[0] == JOKER or per_rank[top[0] % NUM_RANKS] >= 1)
            if action_mask[A.DRAW_DISCARD] and (wanted or not action_mask[A.DRAW_STOCK]):
                return A.DRAW_DISCARD
            return A.DRAW_STOCK
        if action_mask[A.BUY]:
            completes = top.size and top[0] != JOKER and per_rank[top[0] % NUM_RANKS] >= 2
            return A.BUY if completes else A.PASS
        out = go_out_or_joker(action_mask)
        if out is not None:
            return out
        naturals = discardable_naturals(action_mask)
        # fewest copies of the rank first, then the most expensive card
        key = per_rank[naturals % NUM_RANKS] * 100 - CARD_VALUES[naturals]
        return A.DISCARD + int(naturals[np.argmin(key)])


def go_out_or_joker(action_mask: np.ndarray) -> int | None:
    """The play every Continental rule agent makes first: go out whenever legal (shedding the
    dearest card), or discard the joker when it is the only card that may go; else ``None``."""
    go_out = np.flatnonzero(action_mask[A.GO_OUT : A.GO_OUT + JOKER + 1])
    if go_out.size:
        return A.GO_OUT + int(go_out[np.argmax(CARD_VALUES[go_out])])
    if action_mask[A.GO_OUT_NO_DISCARD]:
        return A.GO_OUT_NO_DISCARD
    if not discardable_naturals(action_mask).size:
        return A.DISCARD + int(np.flatnonzero(action_mask[A.DISCARD : A.DISCARD + JOKER + 1])[0])
    return None


def discardable_naturals(action_mask: np.ndarray) -> np.ndarray:
    """Kinds of the natural cards that may be discarded now."""
    return np.flatnonzero(action_mask[A.DISCARD : A.DISCARD + JOKER])
