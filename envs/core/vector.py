"""Batched tables: ``B`` tables of one env stepped together into preallocated arrays.

A learner that plays many tables at once wants one ``[B, D]`` observation batch and one
``[B, A]`` mask batch per step, not ``B`` dicts of fresh arrays. :class:`VectorTables` drives
the engines directly (no AEC bookkeeping: no dicts, no infos) and writes every table's row in
place with :meth:`~taas.envs.core.game.Observer.encode_into`; the arrays are allocated once and
rewritten by every :meth:`~VectorTables.reset` and :meth:`~VectorTables.step` (copy what you
keep). :class:`SingleAgentVectorEnv` is the same idea for the single-agent Gymnasium view
(opponents move inside ``step``), under ``gymnasium.vector.VectorEnv``'s conventions.

**Auto-reset.** A table whose episode ends in a step is dealt its next episode in the same
step: ``done[i]`` (and ``truncated[i]`` for a ``max_turns`` cut) is set, ``rewards[i]`` and
``final_returns[i]`` are the ended episode's, ``final_states[i]`` is its last state, and the
observation, mask and mover are already the new episode's. So every row is always a decision.

**Seeding** (table ``i`` of ``B``) reproduces ``B`` independent AEC envs exactly:
``reset(seed=s)`` deals table ``i`` as ``env_i.reset(seed=s + i)`` does (Gymnasium's vector
convention), a list of ``B`` seeds seeds the tables one by one, and every later episode of
table ``i`` (an auto-reset or ``reset()`` without a seed) continues its own stream as
``env_i.reset()`` does. A first ``reset()`` without a seed uses the ``seed`` given to the
constructor (``None``: fresh entropy per table). Table ``i`` then steps action for action,
observation for observation and reward for reward as ``env_i`` does
(``tests/test_vector.py`` checks every env).

**Table sizes.** ``num_players`` may be a list: table ``i`` seats ``num_players[i % k]``
players. Observations are padded to the game's largest table, so ``D`` and ``A`` are the same
for every size; per-seat arrays have ``P`` = the largest size (zeros in the empty seats).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode

from taas.envs.core.aec import check_seed
from taas.envs.core.game import Game, Observer
from taas.envs.core.single_agent import SingleAgentEnv


def _table_seeds(seed, n: int) -> list:
    """``None``, an int ``s`` (table ``i`` gets ``s + i``) or ``n`` seeds -> ``n`` seeds."""
    if seed is None:
        return [None] * n
    if isinstance(seed, (Sequence, np.ndarray)) and not isinstance(seed, str):
        if len(seed) != n:
            raise ValueError(f"{len(seed)} seeds for {n} tables; expected one per table")
        for s in seed:
            check_seed(s)
        return [None if s is None else int(s) for s in seed]
    check_seed(seed)
    return [int(seed) + i for i in range(n)]


def _actions(actions, n: int) -> np.ndarray:
    """``actions`` as an array of ``n`` integers; ``ValueError`` otherwise (bools and floats
    are bugs, not moves, as in :func:`~taas.envs.core.game.action_id`)."""
    a = np.asarray(actions)
    if a.shape != (n,) or a.dtype.kind not in "iu":
        raise ValueError(f"actions: expected {n} integer action ids, got shape {a.shape} of "
                         f"{a.dtype}")
    return a


class VectorTables:
    """``num_tables`` tables of ``env_id`` (``rules`` are the game's ``Config`` fields), stepped
    together; see the module docstring for auto-reset and seeding.

    Arrays, rewritten in place by :meth:`reset` and :meth:`step` (``B`` tables, ``D``
    observation size, ``A`` actions, ``P`` seats of the largest table):

    - ``obs`` ``[B, D]`` float32: the observation of the seat to move
    - ``mask`` ``[B, A]`` int8: its legal actions
    - ``player`` ``[B]`` int64: the seat to move
    - ``rewards`` ``[B, P]`` float64: each seat's reward from this step (the AEC env's
      ``rewards``: the change of the engine's returns)
    - ``returns`` ``[B, P]`` float64: each seat's return so far in the current episode
    - ``done`` / ``truncated`` ``[B]`` bool: the episode ended in this step (``truncated``: by
      the ``max_turns`` limit) and the table was dealt its next one
    - ``final_returns`` ``[B, P]`` float64: where ``done``, the ended episode's returns

    ``games[i]``, ``observers[i]``, ``states[i]`` and ``final_states[i]`` (where ``done``)
    are table ``i``'s engine objects, for what the arrays leave out (``game.info``, another
    seat's view).
    """

    def __init__(
        self,
        env_id: str,
        num_tables: int,
        *,
        seed: int | Sequence[int] | None = None,
        num_players: int | Sequence[int] | None = None,
        **rules,
    ):
        import taas.envs

        if type(num_tables) is not int or num_tables < 1:
            raise ValueError(f"num_tables {num_tables!r}: expected an int >= 1")
        sizes = num_players if isinstance(num_players, Sequence) else [num_players]
        if not sizes:
            raise ValueError("num_players: an empty list; give one table size or several")
        self._first_seeds = _table_seeds(seed, num_tables)
        kinds = []
        for n in sizes:
            raw = taas.envs.make(env_id, wrapped=False, **rules,
                                 **({} if n is None else {"num_players": n}))
            kinds.append((raw.game, raw.observer))
        shapes = {(o.size, g.num_actions) for g, o in kinds}
        if len(shapes) > 1:
            raise ValueError(f"{env_id}: table sizes {list(sizes)} give different "
                             f"(observation, action) sizes {sorted(shapes)}")
        self.env_id, self.num_tables = env_id, num_tables
        self.games: list[Game] = [kinds[i % len(kinds)][0] for i in range(num_tables)]
        self.observers: list[Observer] = [kinds[i % len(kinds)][1] for i in range(num_tables)]
        self.num_players = np.array([g.num_players for g in self.games], np.int64)
        self.obs_size, self.num_actions = shapes.pop()
        self.max_players = int(self.num_players.max())
        b, p = num_tables, self.max_players
        self.obs = np.zeros((b, self.obs_size), np.float32)
        self.mask = np.zeros((b, self.num_actions), np.int8)
        self.player = np.zeros(b, np.int64)
        self.rewards = np.zeros((b, p))
        self.returns = np.zeros((b, p))
        self.done = np.zeros(b, np.bool_)
        self.truncated = np.zeros(b, np.bool_)
        self.final_returns = np.zeros((b, p))
        self._before = np.zeros((b, p))  # the returns before a step
        self._obs_rows, self._mask_rows = list(self.obs), list(self.mask)  # views, made once
        self.states: list = [None] * b
        self.final_states: list = [None] * b
        self._rngs: list[np.random.Generator | None] = [None] * b
        self._dealt: list[dict | None] = [None] * b  # each generator's state before the deal
        self._moves: list[list[int]] = [[] for _ in range(b)]  # each episode's actions so far

    def reset(self, seed: int | Sequence[int] | None = None) -> None:
        """Deal a new episode at every table: ``seed`` reseeds them (an int ``s``: table ``i``
        gets ``s + i``; or one seed per table), ``None`` continues each table's stream."""
        seeds = _table_seeds(seed, self.num_tables)
        if seed is None and self._rngs[0] is None:
            seeds = self._first_seeds
        for i, s in enumerate(seeds):
            if s is not None or self._rngs[i] is None:
                self._rngs[i] = np.random.default_rng(s)
            self._deal(i)
        self.rewards.fill(0.0)
        self.done.fill(False)
        self.truncated.fill(False)
        self.final_returns.fill(0.0)

    def step(self, actions) -> None:
        """Play ``actions[i]`` (an int array of ``B`` ids) for the seat to move at every table.

        ``ValueError`` if an action is not an id, or is illegal (naming the table and the
        engine's message with the legal actions); all actions are checked before any is
        played, so after an error every table is as it was.
        """
        if self.states[0] is None:
            raise RuntimeError("call reset() before step()")
        acts = _actions(actions, self.num_tables).tolist()
        games, states, num_actions = self.games, self.states, self.num_actions
        for i, (game, state, a) in enumerate(zip(games, states, acts, strict=True)):
            if not (0 <= a < num_actions and game.legal_mask(state)[a]):
                try:
                    game.apply_action(state, a)  # raises, the state unchanged
                except ValueError as err:
                    raise ValueError(f"table {i}: {err}") from None
        returns, ended = self.returns, []
        np.copyto(self._before, returns)
        for i, (game, state, a) in enumerate(zip(games, states, acts, strict=True)):
            game.apply_legal(state, a)
            self._moves[i].append(a)
            returns[i, : game.num_players] = game.returns(state)
            if game.is_terminal(state):
                ended.append(i)
            else:
                self._observe(i)
        np.subtract(returns, self._before, out=self.rewards)  # the AEC env's r - q, all at once
        self.done.fill(False)
        self.truncated.fill(False)
        for i in ended:
            self.done[i] = True
            self.truncated[i] = games[i].is_truncated(states[i])
            self.final_returns[i] = returns[i]
            self.final_states[i] = states[i]
            self._deal(i)

    def records(self) -> list[dict]:
        """Every table's episode as plain values, for a checkpoint that loads without running
        pickled code: its generator's state before the deal (``dealt``), the actions since
        (``moves``) and its generator's state now (``rng``); :meth:`restore` replays them."""
        return [{"dealt": d, "moves": list(m), "rng": r.bit_generator.state}
                for d, m, r in zip(self._dealt, self._moves, self._rngs, strict=True)]

    def restore(self, records: Sequence[dict]) -> None:
        """Set every table to the episode of :meth:`records`: dealt again from the saved
        generator state and replayed move by move (the engines are deterministic given the
        deal's generator), then the generator set to continue where it was."""
        if len(records) != self.num_tables:
            raise ValueError(f"{len(records)} table records for {self.num_tables} tables")
        for i, record in enumerate(records):
            rng = self._rngs[i] = np.random.default_rng()
            rng.bit_generator.state = record["dealt"]
            self._deal(i)
            game, state = self.games[i], self.states[i]
            for a in record["moves"]:
                game.apply_action(state, a)
            self._moves[i] = list(record["moves"])
            rng.bit_generator.state = record["rng"]
            self.returns[i, : game.num_players] = game.returns(state)
            self._observe(i)
        self.rewards.fill(0.0)
        self.done.fill(False)
        self.truncated.fill(False)
        self.final_returns.fill(0.0)

    def _deal(self, i: int) -> None:
        game = self.games[i]
        self._dealt[i], self._moves[i] = self._rngs[i].bit_generator.state, []
        state = self.states[i] = game.new_state(self._rngs[i])
        self.returns[i, : game.num_players] = game.returns(state)
        self._observe(i)

    def _observe(self, i: int) -> None:
        game, state = self.games[i], self.states[i]
        self.player[i] = p = game.current_player(state)
        self.observers[i].encode_into(state, p, self._obs_rows[i])
        self._mask_rows[i][:] = game.legal_mask(state)


class SingleAgentVectorEnv(gym.vector.VectorEnv):
    """``gymnasium.vector.VectorEnv`` over single-agent views
    (:class:`~taas.envs.core.single_agent.SingleAgentEnv`, one per sub-env, all of one game),
    with same-step auto-reset (``metadata["autoreset_mode"]``).

    It returns exactly what ``gymnasium.vector.SyncVectorEnv(..., autoreset_mode=SAME_STEP)``
    returns over the same envs (``final_obs``/``final_info`` in ``infos`` where an episode
    ended, the reset infos of the new episode), plus every step ``infos["action_mask"]``
    (``[B, A]`` bool) and :meth:`action_masks` for sb3-contrib's ``MaskablePPO``; but each
    sub-env's observation and mask are written straight into the batch arrays. ``reset(seed=s)``
    resets sub-env ``i`` with seed ``s + i``. ``copy=False`` returns the batch arrays
    themselves, which the next call overwrites.
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012

    def __init__(self, envs: Sequence[SingleAgentEnv], copy: bool = True):
        envs = list(envs)
        if not envs:
            raise ValueError("no envs: give at least one single-agent env")
        if len({id(e) for e in envs}) != len(envs):
            raise ValueError("the same env appears twice; give each sub-env its own object")
        first = envs[0]
        shapes = {(e.observer.size, e.game.num_actions) for e in envs}
        if len(shapes) > 1:
            raise ValueError(f"the envs have different (observation, action) sizes {shapes}")
        self.envs, self.copy, self.num_envs = envs, copy, len(envs)
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.observation_space = gym.vector.utils.batch_space(first.observation_space,
                                                              self.num_envs)
        self.action_space = gym.vector.utils.batch_space(first.action_space, self.num_envs)
        b, a = self.num_envs, first.game.num_actions
        self._obs = np.zeros((b, first.observer.size), np.float32)
        self._mask = np.zeros((b, a), np.bool_)
        self._rewards = np.zeros(b)
        self._terminations = np.zeros(b, np.bool_)
        self._truncations = np.zeros(b, np.bool_)
        self._started = False

    def reset(self, *, seed: int | Sequence[int] | None = None,
              options: dict[str, Any] | None = None):
        infos: dict[str, Any] = {}
        for i, (env, s) in enumerate(zip(self.envs, _table_seeds(seed, self.num_envs),
                                         strict=True)):
            infos = self._add_info(infos, env.deal(seed=s, options=options), i)
            self._observe(i)
        self._started = True
        self._rewards.fill(0.0)
        self._terminations.fill(False)
        self._truncations.fill(False)
        return self._out(self._obs), self._with_masks(infos)

    def step(self, actions):
        if not self._started:
            raise RuntimeError("call reset() before step()")
        acts = _actions(actions, self.num_envs).tolist()
        num_actions = self.single_action_space.n
        for i, (env, a) in enumerate(zip(self.envs, acts, strict=True)):  # check all first
            if env.illegal_action == "raise" and not (
                    0 <= a < num_actions and env.game.legal_mask(env.state)[a]):
                try:
                    env.advance(a)  # raises, the state unchanged
                except ValueError as err:
                    raise ValueError(f"env {i}: {err}") from None
        infos: dict[str, Any] = {}
        for i, (env, a) in enumerate(zip(self.envs, acts, strict=True)):
            reward, terminated, truncated, info = env.advance(a)
            self._rewards[i] = reward
            self._terminations[i], self._truncations[i] = terminated, truncated
            if terminated or truncated:
                final = {"final_obs": env.observer.encode(env.state, env.seat),
                         "final_info": info}
                infos = self._add_info(infos, final, i)
                info = env.deal()
            self._observe(i)
            infos = self._add_info(infos, info, i)
        return (self._out(self._obs), self._rewards.copy(), self._terminations.copy(),
                self._truncations.copy(), self._with_masks(infos))

    def action_masks(self) -> np.ndarray:
        """``[B, A]`` bool: each sub-env's legal actions now (sb3-contrib's convention)."""
        return self._out(self._mask)

    def render(self) -> tuple:
        return tuple(env.render() for env in self.envs)

    def _observe(self, i: int) -> None:
        env = self.envs[i]
        env.observer.encode_into(env.state, env.seat, self._obs[i])
        self._mask[i] = env.game.legal_mask(env.state)

    def _with_masks(self, infos: dict) -> dict:
        infos["action_mask"] = self._out(self._mask)
        infos["_action_mask"] = np.ones(self.num_envs, np.bool_)
        return infos

    def _out(self, array: np.ndarray) -> np.ndarray:
        return array.copy() if self.copy else array

