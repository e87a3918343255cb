"""The agent protocol and the one game loop that tests, benchmarks, tournaments and the CLI
share."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np


class Agent(ABC):
    """Chooses an action from what its seat sees. Each agent owns a seeded RNG; none touches
    global ``np.random``, so a game replays from its seeds."""

    name = "agent"
    uses_state = False  # True: play_game calls act_state(game, state, player) instead of act

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

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return int(self.rng.choice(np.flatnonzero(action_mask)))


@dataclass
class GameResult:
    """What one episode produced: each seat's total reward, the steps taken, the final infos
    and every move as ``(seat, action)``, so that (seed, moves) replays it."""

    returns: list[float]
    steps: int
    truncated: bool
    infos: dict[str, dict] = field(default_factory=dict)
    moves: list[tuple[int, int]] = field(default_factory=list)


def either_first(first: int, second: int, mask: np.ndarray) -> list[int]:
    """Two alternatives (the two draws, buy or pass) with the preferred one first, keeping only
    the legal ones: a rule player's ``ranking`` of such a choice."""
    return [a for a in (first, second) if mask[a]]


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def play_game(
    env,
    agents: list[Agent],
    seed: int | None = None,
    render: bool = False,
    show: Callable[[str], None] = print,
) -> GameResult:
    """Play one episode of a PettingZoo AEC ``env`` with ``agents[i]`` in seat ``player_i``.

    With ``render`` every move is passed to ``show`` as it happens (who moved, the action's
    name, what became public: see :func:`taas.agents.replay.describe_move`), then the table.
    """
    env.reset(seed=seed)
    seats = {a: i for i, a in enumerate(env.possible_agents)}
    if len(agents) != len(seats):
        raise ValueError(
            f"{_count(len(agents), 'agent')} for {_count(len(seats), 'seat')}: "
            "give one agent per seat"
        )
    if render:
        from taas.agents.replay import MoveRenderer

        renderer = MoveRenderer(env.unwrapped)
    returns = [0.0] * len(seats)
    moves: list[tuple[int, int]] = []
    truncated = False
    infos: dict[str, dict] = {}
    for agent in env.agent_iter():
        obs, reward, terminated, trunc, info = env.last()
        returns[seats[agent]] += reward
        if terminated or trunc:
            truncated |= trunc
            infos[agent] = info
            env.step(None)
            continue
        player = agents[seats[agent]]
        if player.uses_state:  # search agents read the engine through their determinizer
            action = player.act_state(env.unwrapped.game, env.unwrapped.state, seats[agent])
        else:
            action = player.act(obs["observation"], obs["action_mask"])
        env.step(action)
        moves.append((seats[agent], int(action)))
        if render:
            show(renderer.move(seats[agent], int(action), env.rewards))
    if render:
        show(env.unwrapped.game.render(env.unwrapped.state))
    return GameResult(returns, len(moves), truncated, infos, moves)
