"""The agent protocol every player implements (``taas.agents.base``), the uniform random
player, and a small helper rule players share. The game loop that seats agents at a table is
:func:`taas.arena.play_game`."""

from __future__ import annotations

from abc import ABC, abstractmethod

import numpy as np


class Agent(ABC):
    """Chooses an action from what its seat sees. Each agent owns a seeded RNG; none touches
    global ``np.random``, so a game replays from its seeds."""

    name = "agent"
    uses_state = False  # True: play_game calls act_state(game, state, player) instead of act
    reads_observation = True  # False: act ignores it, so a caller may pass None, not encode it

    def __init__(self, seed: int | None = None):
        self.rng = np.random.default_rng(seed)

    @classmethod
    def build(cls, arg: str | None, env_id: str, seed: int | None, config: dict) -> Agent:
        """Construct from a spec string's parts (see :func:`taas.agents.make`); agents that take an
        argument or need the env's rules override this."""
        if arg:
            raise ValueError(f"agent {cls.name!r} takes no argument (got {arg!r})")
        return cls(seed)

    @abstractmethod
    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """An action id with ``action_mask[id] == 1``."""


class RandomAgent(Agent):
    """Uniform over legal actions: the floor every other agent must beat."""

    name = "random"
    reads_observation = False

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        legal = np.flatnonzero(action_mask)
        return int(legal[self.rng.integers(legal.size)])  # rng.choice's draw, without its checks


def either_first(first: int, second: int, mask: np.ndarray) -> list[int]:
    """Two alternatives (the two draws, buy or pass) with the preferred one first, keeping only
    the legal ones: a rule player's ``ranking`` of such a choice."""
    return [a for a in (first, second) if mask[a]]


def __getattr__(name: str):
    """``play_game`` and ``GameResult`` moved to :mod:`taas.arena` (importable here, with a
    warning, until taas 0.3)."""
    if name not in ("play_game", "GameResult"):
        raise AttributeError(f"module 'taas.agents.base' has no attribute {name!r}")
    from taas._moved import forward

    return forward(__name__, "taas.arena", name)
