"""The one PettingZoo AEC adapter: any :class:`~taas.envs.core.game.Game` as an ``AECEnv``.

Observations are ``{"observation": float32 vector, "action_mask": int8 vector}``; the mask is
all zeros for an agent that is not to move. Rewards are the per-step differences of the
engine's cumulative ``returns``. ``reset(seed=s)`` reseeds the episode stream; ``reset()``
continues it; the engine is never rebuilt.

``infos`` are refreshed at every step (round number, running scores), not only at the ends.

Bad input is a clear ``ValueError``, never a silent wrong state: a seed that is not ``None`` or
a non-negative int, an action that is not an integer (``True`` and ``0.0`` are not actions;
``np.int64(3)`` is), and in the raw env a step for an agent that is not the engine's mover.
Observing or stepping before ``reset()`` is a ``RuntimeError``.

Illegal actions: the raw env raises the engine's ``ValueError`` naming the action, the player
and the legal actions; the state is unchanged. :func:`wrap` (every game's ``env()``) switches
to PettingZoo's convention for classic games, as its ``TerminateIllegalWrapper`` does: a
warning is logged, the episode ends for everyone and the offender gets ``illegal_reward`` (-1).
Both live in this one class rather than in stacked PettingZoo wrappers, whose attribute
forwarding cost a third of each step.
"""

from __future__ import annotations

import operator
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.env_logger import EnvLogger

from taas.envs.core.config import build_config
from taas.envs.core.game import Game, Observer, action_id


class CardGameEnv(AECEnv):
    """PettingZoo AEC environment over a rules engine and an observer."""

    metadata: ClassVar[dict] = {"render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(
        self,
        game: Game,
        observer: Observer,
        render_mode: str | None = None,
    ):
        super().__init__()
        if render_mode not in self.metadata["render_modes"] + [None]:
            raise ValueError(
                f"render_mode {render_mode!r}: expected one of {self.metadata['render_modes']}"
            )
        self.illegal = "raise"
        self.illegal_reward = -1.0
        self.metadata = {**self.metadata, "name": game.env_id}
        self.game = game
        self.observer = observer
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(game.num_players)]
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(observer.low, observer.high, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (game.num_actions,), dtype=np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = {a: spaces.Discrete(game.num_actions) for a in self.possible_agents}
        self._no_moves = np.zeros(game.num_actions, dtype=np.int8)
        self._rng: np.random.Generator | None = None
        self.state = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        seed = check_seed(seed)
        if seed is not None or self._rng is None:
            self._rng = np.random.default_rng(seed)
        self.state = self.game.new_state(self._rng)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self._returns = self.game.returns(self.state).tolist()
        self._update_infos()
        self.agent_selection = self.possible_agents[self.game.current_player(self.state)]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        if self.state is None:
            raise RuntimeError("call reset() before observe()")
        if agent not in self._index:
            raise ValueError(f"unknown agent {agent!r}; agents: {self.possible_agents}")
        player = self._index[agent]
        obs = self.observer.encode(self.state, player)
        if player == self.game.current_player(self.state):
            mask = self.game.legal_mask(self.state).copy()
        else:
            mask = self._no_moves.copy()
        return {"observation": obs, "action_mask": mask}

    def last(self, observe: bool = True):
        # AECEnv.last's body, inlined: a learner calls this on every step
        if self.state is None:
            raise RuntimeError("call reset() before last()")
        agent = self.agent_selection
        assert agent is not None
        return (
            self.observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def step(self, action: int) -> None:
        if self.state is None:
            raise RuntimeError("call reset() before step()")
        if not self.agents:  # PettingZoo's convention (its OrderEnforcingWrapper): warn, no-op
            EnvLogger.warn_step_after_terminated_truncated()
            return
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game, state = self.game, self.state
        if self.illegal == "terminate":
            action = action_id(action, game.num_actions)
            if not self._is_legal(action):
                self._terminate_illegal(agent)
                return
            game.apply_legal(state, action)  # (the agent selected is always the mover)
        else:
            game.apply_action(state, action, player=self._index[agent])  # checks the id itself
        self._cumulative_rewards[agent] = 0.0
        returns, last = game.returns(state).tolist(), self._returns
        self._returns = returns
        # most steps score nothing: skip the per-agent bookkeeping then (lists compare and
        # subtract faster than the small arrays did, to the same floats)
        if returns != last or any(self.rewards.values()):
            delta = [r - q for r, q in zip(returns, last, strict=True)]
            self.rewards = dict(zip(self.possible_agents, delta, strict=True))
            self._accumulate_rewards()
        if game.is_terminal(state):
            done = dict.fromkeys(self.agents, True)
            if game.is_truncated(state):
                self.truncations = done
            else:
                self.terminations = done
        else:
            self.agent_selection = self.possible_agents[game.current_player(state)]
        self._update_infos()
        if self.render_mode == "human":
            self.render()

    def _is_legal(self, action: int) -> bool:
        game = self.game
        return 0 <= action < game.num_actions and bool(game.legal_mask(self.state)[action])

    def _terminate_illegal(self, agent: str) -> None:
        EnvLogger.warn_on_illegal_move()
        self._cumulative_rewards[agent] = 0.0
        self.terminations = dict.fromkeys(self.agents, True)
        self.truncations = dict.fromkeys(self.agents, True)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.rewards[agent] = float(self.illegal_reward)
        self._accumulate_rewards()
        self._deads_step_first()

    def _update_infos(self) -> None:
        # every step: all agents are still in play whenever it runs (reset or a live step).
        # Public info is built once and shared (a dict per agent cost ~10% of a 4-player step).
        info, state = self.game.info, self.state
        if self.game.info_varies_by_player:
            self.infos = {a: info(state, i) for a, i in self._index.items()}
        else:
            self.infos = dict.fromkeys(self.possible_agents, info(state, 0))

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = self.game.render(self.state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def check_seed(seed) -> int | None:
    """``seed`` as a Python int (or ``None``); ``ValueError`` unless it is ``None`` or a
    non-negative integer (NumPy ints and 0-d integer arrays too). NumPy alone takes a list or
    ``True`` as a seed without a word and rejects a float, a string or a 0-d array with an error
    from deep inside ``SeedSequence``; one message here names the rule."""
    if seed is None:
        return None
    if not isinstance(seed, (bool, np.bool_)) and not (
            isinstance(seed, np.ndarray) and seed.dtype == np.bool_):
        try:
            if operator.index(seed) >= 0:
                return operator.index(seed)
        except TypeError:
            pass
    raise ValueError(f"seed={seed!r}: expected None or a non-negative int")


def wrap(env: CardGameEnv, illegal_reward: float = -1.0) -> CardGameEnv:
    """Give ``env`` PettingZoo's illegal-move convention (see the module docstring)."""
    env.illegal = "terminate"
    env.illegal_reward = illegal_reward
    return env


def env_factories(game: str, config_cls: type, game_cls: type, observer_cls: type):
    """The ``raw_env``/``env`` pair every game's ``env.py`` exports."""

    def raw_env(render_mode: str | None = None, **rules) -> CardGameEnv:
        """The AEC env; an illegal action raises ``ValueError`` (state unchanged)."""
        config = build_config(config_cls, game, rules)
        return CardGameEnv(game_cls(config), observer_cls(config), render_mode)

    def env(render_mode: str | None = None, **rules) -> CardGameEnv:
        """The AEC env with PettingZoo's illegal-move convention (the episode ends, -1)."""
        return wrap(raw_env(render_mode, **rules))

    return raw_env, env
