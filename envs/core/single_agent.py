"""A single-agent Gymnasium view of any Taas game, for SB3 ``MaskablePPO`` and similar.

The learner holds one seat; the other seats are played by agents inside ``step``, so every
observation and reward is the learner's. ``action_masks()`` follows sb3-contrib's convention.
It runs on the engine and observer directly (no AEC layer in between) because training spends
most of its time here.

Three choices make it train out of the box:

- ``reset()`` always returns a position where the learner has a decision. A round the opponents
  end before the learner's first move (a Mariage opponent may claim 66 on its first lead) is no
  episode for the learner: it is dealt again from the same stream. The reset ``info`` holds
  ``"redeals"`` (how many) and ``"seat"``. After ``max_redeals`` such deals in a row ``reset``
  raises ``RuntimeError``: those rules and opponents never let the learner play. (In a
  ``match`` episode a finished round does not end the episode, so nothing is redealt; points
  scored before the learner's first move come with its first reward.)
- ``reset(seed=s)`` reseeds the deal stream and every opponent's ``rng`` (the
  :class:`~taas.agents.base.Agent` protocol), so an episode replays from (seed, learner actions).
  An opponent without an ``rng`` attribute must be deterministic.
- ``illegal_action="raise"`` (the default) raises the engine's ``ValueError`` naming the action
  and the legal ones, with the state unchanged: a masked learner never sends one, so one is a
  bug. ``illegal_action="penalize"`` ends the episode instead (``terminated=True``, reward
  ``illegal_reward``, default -1, for that step; ``info["illegal_action"]`` and the engine's
  message in ``info["error"]``), so that Gymnasium's and SB3's ``check_env``, which step
  unmasked random actions, pass.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np

from taas.envs.core.aec import check_seed
from taas.envs.core.game import Game, Observer

ILLEGAL_ACTION_MODES = ("raise", "penalize")


class SingleAgentEnv(gym.Env):
    """``seat=None`` draws the learner's seat at random every episode (from the reset seed);
    ``seed`` seeds the first ``reset()`` that is given none."""

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012 (gymnasium's convention)

    def __init__(
        self,
        game: Game,
        observer: Observer,
        opponents: list,
        seat: int | None = 0,
        seed: int | None = None,
        render_mode: str | None = None,
        illegal_action: str = "raise",
        illegal_reward: float = -1.0,
        max_redeals: int = 100,
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
        if illegal_action not in ILLEGAL_ACTION_MODES:
            raise ValueError(
                f"illegal_action {illegal_action!r}: expected one of {ILLEGAL_ACTION_MODES}"
            )
        seed = check_seed(seed)
        if type(max_redeals) is not int or max_redeals < 0:
            raise ValueError(f"max_redeals {max_redeals!r}: expected an int >= 0")
        self.game, self.observer, self.opponents = game, observer, opponents
        self.fixed_seat, self.render_mode = seat, render_mode
        self.illegal_action, self.illegal_reward = illegal_action, float(illegal_reward)
        self.max_redeals = max_redeals
        self.observation_space = gym.spaces.Box(observer.low, observer.high, dtype=np.float32)
        self.action_space = gym.spaces.Discrete(game.num_actions)
        self.state = None
        self.seat = 0
        self._first_seed = seed
        self._over = True

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        info = self.deal(seed=seed, options=options)
        return self._observe(), info

    def deal(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> dict:
        """:meth:`reset` without building the observation (the vector view writes it into its
        batch array): deals until the learner has a decision and returns the reset ``info``."""
        seed = check_seed(seed)
        if seed is None and self._np_random is None:
            seed = self._first_seed
        super().reset(seed=seed)
        if seed is not None:
            children = np.random.SeedSequence(seed).spawn(len(self.opponents))
            for agent, child in zip(self.opponents, children, strict=True):
                if hasattr(agent, "rng"):
                    agent.rng = np.random.default_rng(child)
        game, rng = self.game, self.np_random
        self.state = game.new_state(rng)
        self.seat = self.fixed_seat
        if self.seat is None:
            self.seat = int(rng.integers(game.num_players))
        self._play_opponents()
        redeals = 0
        while game.is_terminal(self.state):
            if redeals == self.max_redeals:
                raise RuntimeError(
                    f"{game.env_id}: {redeals + 1} deals in a row ended before the learner "
                    f"(seat {self.seat}) had a decision; these rules and opponents never let it "
                    "play (raise max_redeals if that is only bad luck)"
                )
            redeals += 1
            self.state = game.new_state(rng)
            self._play_opponents()
        self._over = False
        self._last_return = 0.0
        return {"seat": self.seat, "redeals": redeals}

    def step(self, action: int):
        reward, terminated, truncated, info = self.advance(action)
        return self._observe(), reward, terminated, truncated, info

    def advance(self, action: int) -> tuple[float, bool, bool, dict]:
        """:meth:`step` without building the observation (the vector view writes it into its
        batch array): ``(reward, terminated, truncated, info)``."""
        if self.state is None:
            raise RuntimeError("call reset() before step()")
        if self._over:
            raise RuntimeError("the episode is over; call reset()")
        try:
            self.game.apply_action(self.state, action, player=self.seat)
        except ValueError as err:  # the engine's check: the state is unchanged
            if self.illegal_action == "raise":
                raise
            self._over = True
            return self.illegal_reward, True, False, {"illegal_action": action, "error": str(err)}
        self._play_opponents()
        ret = float(self.game.returns(self.state)[self.seat])
        reward, self._last_return = ret - self._last_return, ret
        self._over = done = self.game.is_terminal(self.state)
        truncated = done and self.game.is_truncated(self.state)
        info = self.game.info(self.state, self.seat) if done else {}
        return reward, done and not truncated, truncated, info

    def action_masks(self) -> np.ndarray:
        """Legal actions for the learner (all False once the episode is over)."""
        if self._over:
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
            obs = self.observer.encode(state, player) if agent.reads_observation else None
            game.apply_action(state, agent.act(obs, mask))
