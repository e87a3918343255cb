"""A padded PettingZoo Parallel view of any Taas game: every seat present at every step.

Multi-agent libraries built on the Parallel API (TorchRL's ``PettingZooWrapper``, Sample
Factory, BenchMARL, RLlib's ``ParallelPettingZooEnv``, SuperSuit's vectorization) expect every
agent to observe and act at every step, but a card game has one mover. This view pads the turn:
every step, every seat gets its own fixed-size observation ``{"observation": float32 vector,
"action_mask": int8 vector, "is_acting": int8 [1 or 0]}`` (the mask all zero for seats not to
act) and sends an action; only the mover's is played, the others are ignored (send anything:
PettingZoo's sampler sends 0 for an all-zero mask). Rewards are every seat's change of the
engine's returns in the step, as the AEC env's are. The episode ends for all seats at once;
``agents`` is then empty until ``reset``.

Seeding is the AEC env's: ``reset(seed=s)`` reseeds, ``reset()`` continues the stream, so this
view plays the same episodes as ``taas.envs.make(env_id)`` given the mover's actions. An
illegal action for the mover raises the engine's ``ValueError`` (state unchanged). ``infos``
are empty dicts: these libraries turn every info entry into a tensor, and the engine's nested
info does not fit; ``env.game.info(env.state, seat)`` gives it.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv

from taas.envs.core.aec import check_seed
from taas.envs.core.game import Game, Observer


class PaddedParallelEnv(ParallelEnv):
    """The padded Parallel view over an engine and its observer (see the module docstring)."""

    metadata: ClassVar[dict] = {"render_modes": ["ansi"], "is_parallelizable": True}

    def __init__(self, game: Game, observer: Observer, render_mode: str | None = None):
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode {render_mode!r}: expected None or 'ansi'")
        self.metadata = {**self.metadata, "name": f"{game.env_id}_padded_parallel"}
        self.game, self.observer, self.render_mode = game, observer, render_mode
        self.possible_agents = [f"player_{i}" for i in range(game.num_players)]
        self.agents: list[str] = []
        space = spaces.Dict({
            "observation": spaces.Box(observer.low, observer.high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (game.num_actions,), dtype=np.int8),
            "is_acting": spaces.Box(0, 1, (1,), dtype=np.int8),
        })
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = {a: spaces.Discrete(game.num_actions) for a in self.possible_agents}
        self._no_moves = np.zeros(game.num_actions, np.int8)
        self._rng: np.random.Generator | None = None
        self.state = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None):
        seed = check_seed(seed)
        if seed is not None or self._rng is None:
            self._rng = np.random.default_rng(seed)
        self.state = self.game.new_state(self._rng)
        self.agents = self.possible_agents[:]
        self._returns = self.game.returns(self.state)
        return self._observe(), {a: {} for a in self.agents}

    def step(self, actions: dict[str, Any]):
        if self.state is None:
            raise RuntimeError("call reset() before step()")
        if not self.agents:
            raise RuntimeError("the episode is over; call reset()")
        game, state = self.game, self.state
        mover = game.current_player(state)
        agent = self.possible_agents[mover]
        if agent not in actions:
            raise ValueError(f"{agent} is to act, but actions has no entry for it")
        game.apply_action(state, actions[agent], player=mover)
        returns = game.returns(state)
        rewards = dict(zip(self.possible_agents, (returns - self._returns).tolist(), strict=True))
        self._returns = returns
        ended = game.is_terminal(state)
        truncated = ended and game.is_truncated(state)
        terminations = dict.fromkeys(self.agents, ended and not truncated)
        truncations = dict.fromkeys(self.agents, truncated)
        observations, infos = self._observe(), {a: {} for a in self.agents}
        if ended:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        return self.game.render(self.state) if self.render_mode == "ansi" else None

    def close(self) -> None:
        pass

    def _observe(self) -> dict[str, dict[str, np.ndarray]]:
        game, state = self.game, self.state
        mover = game.current_player(state)
        out = {}
        for p, agent in enumerate(self.possible_agents):
            acting = p == mover
            out[agent] = {
                "observation": self.observer.encode(state, p),
                "action_mask": game.legal_mask(state).copy() if acting else self._no_moves.copy(),
                "is_acting": np.array([acting], np.int8),
            }
        return out


def padded_parallel_env(env_id: str, render_mode: str | None = None,
                        **rules) -> PaddedParallelEnv:
    """The padded Parallel view of ``env_id``; ``rules`` are the game's ``Config`` fields."""
    import taas.envs

    raw = taas.envs.make(env_id, wrapped=False, **rules)
    return PaddedParallelEnv(raw.game, raw.observer, render_mode)
