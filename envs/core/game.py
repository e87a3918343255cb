"""The contract between a game's rules engine and everything above it.

An engine is pure Python state plus functions over it (OpenSpiel's game/state split, Pgx's pure
functions): no gym, no pettingzoo. The one AEC adapter (:mod:`taas.envs.core.aec`), the conformance
checker, agents and benchmarks use only what is declared here, so a new game plugs in by
subclassing :class:`Game` and :class:`Observer`.
"""

from __future__ import annotations

import copy
import operator
from abc import ABC, abstractmethod
from enum import Enum
from typing import Any

import numpy as np
from numpy.random.bit_generator import ISeedSequence

_ATOMS = frozenset({int, float, bool, str, bytes, type(None)})


class State:
    """Base of every engine state. States are mutable and applied in place; ``clone`` gives an
    independent copy for search and for the conformance checker. ``mask`` caches the legal-action
    mask until the next action (see :meth:`Game.legal_mask`)."""

    mask: np.ndarray | None = None

    def clone(self):
        """An independent copy, without ``deepcopy``'s memo bookkeeping (search clones a lot):
        arrays, lists, dicts, tuples and sets are copied field by field, generators by their
        bit-generator state; the cached mask is read-only and shared. Fields must not alias each
        other (two fields holding one array would become two arrays); engines with a hot
        search path override this with a copy of exactly their mutable fields."""
        new = object.__new__(type(self))
        new.__dict__ = {k: v if k == "mask" else _copy(v) for k, v in self.__dict__.items()}
        return new

    # A rummy state's table records into views of the state's own arrays (``table.discarded_by``
    # is a view of ``public``); deepcopy and pickle copy a view as an array of its own, so the
    # copy's table would write records its observation never reads. Both go through ``clone``,
    # which builds those links over the copy's arrays.
    def __deepcopy__(self, memo):
        return self.clone()

    def __setstate__(self, fields: dict) -> None:
        self.__dict__.update(fields)
        self.__dict__.update(self.clone().__dict__)


def _copy(v):
    t = type(v)
    if t in _ATOMS or isinstance(v, (np.generic, Enum)):
        return v
    if t is np.ndarray:
        return v.copy()
    if t is list:
        return v.copy() if set(map(type, v)) <= _ATOMS else [_copy(x) for x in v]
    if t is tuple:
        return v if set(map(type, v)) <= _ATOMS else tuple(_copy(x) for x in v)
    if t is dict:
        return {k: _copy(x) for k, x in v.items()}
    if t in (set, frozenset):
        return t(v)  # members are hashable, so immutable by convention
    if t is np.random.Generator:
        bits = type(v.bit_generator)(_NO_SEED)
        bits.state = v.bit_generator.state
        return np.random.Generator(bits)
    return copy.deepcopy(v)  # anything else (an engine's own object): correct, if slower


class _NoSeed(ISeedSequence):
    """Seeds a bit generator whose state is overwritten at once: a real seed costs a
    ``SeedSequence`` hash (30-60 µs, most of a clone) for bits that are thrown away."""

    def generate_state(self, n_words, dtype=np.uint32):
        return np.ones(n_words, dtype)


_NO_SEED = _NoSeed()


def action_id(action, num_actions: int) -> int:
    """``action`` as a plain int; ``ValueError`` unless it is an integer (``np.int64`` and 0-d
    integer arrays included). A bool or a float is a bug in the caller, not a move: ``True`` and
    ``1.0`` would silently play action 1. The range ``0..num_actions - 1`` is named in the
    message but checked by the caller (the wrapped env ends the episode on an out-of-range id)."""
    if not isinstance(action, (bool, np.bool_)):
        try:
            return operator.index(action)
        except TypeError:
            pass
    raise ValueError(
        f"action {action!r} ({type(action).__name__}) is not an action id 0..{num_actions - 1}"
    )


class Game(ABC):
    """A rules engine bound to one frozen config.

    All randomness of an episode comes from the ``rng`` passed to :meth:`new_state`: the engine
    draws one seed from it, stores it in the state and derives every later shuffle from the
    state's own generator, so an episode replays exactly from (seed, actions).
    """

    env_id: str
    num_players: int
    num_actions: int

    def __init__(self, config: Any):
        self.config = config

    @abstractmethod
    def new_state(self, rng: np.random.Generator) -> State:
        """Deal a new episode (one round, or a whole match when ``config.episode == "match"``)."""

    # The four queries below read the state conventions most engines share (``over``,
    # ``truncated``, ``current``, ``returns``); an engine with other fields overrides them.
    def current_player(self, state: State) -> int:
        """The player to act, or -1 when the episode is over."""
        return -1 if state.over else state.current

    def legal_mask(self, state: State) -> np.ndarray:
        """``np.int8`` vector of length ``num_actions``: 1 exactly where ``apply_action`` accepts.

        Cached on the state until the next action, because the observation, the agent and
        ``apply_action`` all ask for it in one step. The array is read-only, so no agent can
        change the cache (copy it to edit); clones share it until either side moves.
        """
        if state.mask is None:
            mask = self._legal_mask(state)
            mask.setflags(write=False)
            state.mask = mask
        return state.mask

    def apply_action(self, state: State, action: int, player: int | None = None) -> None:
        """Apply ``action`` for the player to move, in place.

        Raises ``ValueError`` naming the action, the player and the legal actions if the action
        is not legal now, if it is not an integer (see :func:`action_id`), or if ``player`` is
        given and is not the player to move; the state is then unchanged.
        """
        mover = self.current_player(state)
        if player is not None and player != mover:
            raise ValueError(
                f"player {player} tried action {action}, but it is "
                f"{'nobody' if mover < 0 else f'player {mover}'}'s turn"
            )
        a = action_id(action, self.num_actions)
        if not 0 <= a < self.num_actions:
            raise ValueError(
                f"action {action!r} for player {mover} is not an action id "
                f"0..{self.num_actions - 1}"
            )
        mask = self.legal_mask(state)
        if not mask[a]:
            legal = ", ".join(self.action_to_str(x) for x in np.flatnonzero(mask))
            raise ValueError(
                f"illegal action {a} ({self.action_to_str(a)}) for player {mover}; "
                f"legal: {legal or 'none (episode over)'}"
            )
        self.apply_legal(state, a)

    def apply_legal(self, state: State, action: int) -> None:
        """Apply an int action id the caller has just read as legal in :meth:`legal_mask`, for
        the player to move: :meth:`apply_action` without its checks, for the adapter's step,
        which has made them already (they were a tenth of a Marriage step)."""
        state.mask = None
        self._apply(state, action)

    @abstractmethod
    def _legal_mask(self, state: State) -> np.ndarray:
        """Compute the legal-action mask (see :meth:`legal_mask`)."""

    @abstractmethod
    def _apply(self, state: State, action: int) -> None:
        """Apply an action already checked to be legal."""

    def is_terminal(self, state: State) -> bool:
        """True when the episode ended by the rules or by truncation."""
        return state.over

    def is_truncated(self, state: State) -> bool:
        """True when the episode was cut by the ``max_turns`` safety limit (no scores)."""
        return state.truncated

    def returns(self, state: State) -> np.ndarray:
        """Cumulative reward of each player so far in this episode (a new float64 array, one
        per player). The adapter's per-step rewards are differences between consecutive calls."""
        return np.array(state.returns, dtype=np.float64)

    @abstractmethod
    def action_to_str(self, action: int) -> str:
        """A short human-readable name for an action id."""

    @abstractmethod
    def zones(self, state: State) -> dict[str, np.ndarray]:
        """Every place a card can be (hands, stock, piles, table), as count vectors over card
        kinds; their sum must always equal :meth:`shoe` (the conformance checker asserts it)."""

    @abstractmethod
    def shoe(self, state: State) -> np.ndarray:
        """Count vector of all cards in play this episode."""

    @abstractmethod
    def render(self, state: State, symbols: bool = True) -> str:
        """The table as text, from an all-seeing spectator's view."""

    # True when ``info`` differs between players (e.g. a rule lets only some players see a
    # card); otherwise the adapter builds one info per step and hands it to every agent.
    info_varies_by_player = False

    # Zones of :meth:`zones` (besides the hands) whose cards no seat sees; every other zone is
    # face up, and the public move log (:mod:`taas.arena.moves`) shows what enters and leaves it.
    private_zones: tuple[str, ...] = ("stock",)

    def info(self, state: State, player: int) -> dict:
        """Per-player info; engines add the scores and, at the end, the revealed result."""
        return {}


class Observer(ABC):
    """Encodes a state as one player sees it: the only place hidden information is dropped.

    ``layout`` names the slices of the flat vector so agents, tests and docs never use raw offsets.
    ``low``/``high`` are the exact bounds of every feature and lie within [-1, 1] (unbounded
    counts are squashed), so networks need no normalisation; the conformance checker asserts
    both.
    """

    layout: dict[str, slice]
    size: int
    low: np.ndarray
    high: np.ndarray

    @abstractmethod
    def encode(self, state: State, player: int) -> np.ndarray:
        """``np.float32`` vector of length ``size`` for ``player``."""

    def encode_into(self, state: State, player: int, out: np.ndarray) -> None:
        """Write :meth:`encode`'s vector into ``out`` (a float32 row of ``size``, e.g. one row
        of a batch), every entry: batched tables fill their preallocated arrays with it. A game
        whose encoder can write the row itself overrides this to skip the fresh array."""
        out[:] = self.encode(state, player)


def make_layout(blocks: list[tuple[str, int]]) -> tuple[dict[str, slice], int]:
    """Name consecutive blocks of a flat observation: ``(LAYOUT, SIZE)`` from (name, length)."""
    layout, offset = {}, 0
    for name, size in blocks:
        layout[name] = slice(offset, offset + size)
        offset += size
    return layout, offset

