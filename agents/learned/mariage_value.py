"""Mariage move values (:mod:`.afterstate`): the observation and the move, valued together.

A Mariage turn has no hand left to value the way a rummy discard has (the card played meets
the opponent's), so the rows are the seat's observation with the move one-hot beside it: a
Q-function of the heuristic's play, learned from replays of every legal move
(``afterstate_value --branch``), that orders the heuristic's moves.
"""

from __future__ import annotations

import numpy as np

from taas.agents.heuristic.mariage import MariageHeuristicAgent
from taas.agents.learned.afterstate import DiscardValuePlayer, one_hot
from taas.envs.core.game import make_layout
from taas.envs.mariage.actions import NUM_ACTIONS
from taas.envs.mariage.observation import SIZE

FEATURES, NUM_FEATURES = make_layout([
    ("observation", SIZE),  # the seat's observation, as the env gives it
    ("move", NUM_ACTIONS),  # one-hot
])


class MariageValueAgent(DiscardValuePlayer, MariageHeuristicAgent):
    """The heuristic, its legal moves ordered by a learned value of (observation, move)."""

    name = "value"
    CHOICES = (range(NUM_ACTIONS),)
    NUM_FEATURES = NUM_FEATURES
    SERIES_RULES = ()  # the observation shows match totals: a model of deals plays deals

    def __init__(self, value, seed: int | None = None, rules: dict | None = None,
                 margin: float = 0.0, width: int = 0):
        MariageHeuristicAgent.__init__(self, seed)  # it reads no rules: all is in the view
        self.value_fn, self.margin, self.width = value, margin, width

    @staticmethod
    def features(player, observation: np.ndarray, actions: np.ndarray) -> np.ndarray:
        return np.concatenate([np.repeat(observation[None], len(actions), 0),
                               one_hot(actions, NUM_ACTIONS)], 1, dtype=np.float32)
