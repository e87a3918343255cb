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
from taas.envs.marriage_nepali.config import DECKS, Config
from taas.envs.marriage_nepali.expert import Expert
from taas.envs.marriage_nepali.observation import LAYOUT


class NepaliHeuristicAgent(Agent):
    """:class:`~taas.envs.marriage_nepali.expert.Expert`'s rules of thumb read off the
    observation: expose every starting tunnela, show as soon as a show is offered, finish
    whenever a finish is legal, take the top discard when it completes a pure combination
    (unseen) or makes a finish possible (seen), discard the card least worth keeping."""

    name = "heuristic"

    def __init__(self, seed: int | None = None, config: Config | None = None):
        super().__init__(seed)
        self.config = config or Config()
        self.expert = Expert(self.config)

    @classmethod
    def build(cls, arg: str | None, env_id: str, seed: int | None, config: dict) -> Agent:
        if arg:
            raise ValueError(f"agent {cls.name!r} takes no argument (got {arg!r})")
        return cls(seed, Config(**config))

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return self.ranking(observation, action_mask)[0]

    def ranking(self, observation: np.ndarray, action_mask: np.ndarray) -> list[int]:
        """The legal moves this player would consider, best first (``act`` plays the first);
        see :meth:`Expert.rank <taas.envs.marriage_nepali.expert.Expert.rank>`."""
        top = np.flatnonzero(observation[LAYOUT["top_discard"]])
        hand = np.rint(observation[LAYOUT["hand"]] * DECKS).astype(np.int64)
        return self.expert.rank(hand, observation[LAYOUT["wild"]] > 0,
                                bool(observation[LAYOUT["seen"].start]),
                                bool(observation[LAYOUT["dublee_route"].start]),
                                int(top[0]) if top.size else -1, action_mask)
