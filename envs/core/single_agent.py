"""A single-agent Gymnasium view of any Taas game, for SB3 ``MaskablePPO`` and similar.

The learner holds one seat; the other seats are played by agents inside ``step``, so every
observation and reward is the learner's. ``action_masks()`` follows sb3-contrib's convention.
It runs on the engine and observer directly (no AEC layer in between) because training spends
most of its time here.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from taas.envs.core.game import Game, Observer


class SingleAgentEnv(gym.Env):
    """``seat=None`` draws the learner's seat at random every episode (from the reset seed)."""

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012 (gymnasium's convention)

    def __init__(
        self,
        game: Game,
        observer: Observer,
        opponents: list,
        seat: int | None = 0,
        render_mode: str | None = None,
    ):
        if len(opponents) != game.num_players - 1:
            raise ValueError(
                f"{len(opponents)} opponents for a {game.num_players}-player game; "
                f"expected {game.num_players - 1}"
            )
        if seat is not None and not 0 <= seat < game.num_players:
            raise ValueError(f"seat {seat} is not in 0..{game.num_players - 1}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode {render_mode!r}: expected None or 'ansi'")
        self.game, self.observer, self.opponents = game, observer, opponents
        self.fixed_seat, self.render_mode = seat, render_mode
        self.observation_space = gym.spaces.Box(observer.low, observer.high, dtype=np.float32)
        self.action_space = gym.spaces.Discrete(game.num_actions)
        self.state = None
        self.seat = 0
        self._rng: np.random.Generator | None = None

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        if seed is not None or self._rng is None:
            self._rng = np.random.default_rng(seed)
        self.state = self.game.new_state(self._rng)
        if self.fixed_seat is None:
            self.seat = int(self._rng.integers(self.game.num_players))
        else:
            self.seat = self.fixed_seat
        self._last_return = 0.0
        self._play_opponents()
        return self._observe(), {}

    def step(self, action: int):
        if self.state is None:
            raise RuntimeError("call reset() before step()")
        if self.game.is_terminal(self.state):
            raise RuntimeError("the episode is over; call reset()")
        self.game.apply_action(self.state, action, player=self.seat)
        self._play_opponents()
        ret = float(self.game.returns(self.state)[self.seat])
        reward, self._last_return = ret - self._last_return, ret
        done = self.game.is_terminal(self.state)
        truncated = done and self.game.is_truncated(self.state)
        info = self.game.info(self.state, self.seat) if done else {}
        return self._observe(), reward, done and not truncated, truncated, info

    def action_masks(self) -> np.ndarray:
        """Legal actions for the learner (all False once the episode is over)."""
        if self.game.current_player(self.state) != self.seat:
            return np.zeros(self.game.num_actions, dtype=bool)
        return self.game.legal_mask(self.state).astype(bool)

    def render(self) -> str | None:
        return self.game.render(self.state) if self.render_mode == "ansi" else None

    def _observe(self) -> np.ndarray:
        return self.observer.encode(self.state, self.seat)

    def _play_opponents(self) -> None:
        game, state = self.game, self.state
        while not game.is_terminal(state) and game.current_player(state) != self.seat:
            player = game.current_player(state)
            agent = self.opponents[(player - self.seat - 1) % game.num_players]
            mask = game.legal_mask(state)
            game.apply_action(state, agent.act(self.observer.encode(state, player), mask))
