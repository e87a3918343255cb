"""Playing scheduled games in a worker: agents built from the game's seeds, forfeits caught.

A *forfeit* is an agent's fault: it raised, chose an action its mask forbids, or took longer
than the tournament's ``move_timeout`` over one move. The game stops
there, the error is kept, and the tournament goes on. How a forfeit scores (see
:mod:`taas.tournament.stats`): the offender finishes last, the other seats share first place,
and the game adds no points to anyone's mean. An error of the engine itself is not a forfeit:
it stops the tournament, since it is a bug to fix rather than a result.
"""

from __future__ import annotations

import signal
import threading
import time
from dataclasses import dataclass

import numpy as np

import taas.agents
import taas.arena
import taas.envs
from taas.agents.base import Agent
from taas.arena import replay as replays
from taas.tournament.roundrobin import Definition, Game


@dataclass
class Outcome:
    """What one game produced, as the parent stores it."""

    index: int
    status: str  # "ok" or "forfeit"
    scores: list[float] | None  # one per seat; None for a forfeit
    forfeit_seat: int | None
    error: str | None
    steps: int
    truncated: bool
    duration: float
    record: dict | None = None  # the replay record, with record=True and status "ok"


class Forfeit(Exception):
    """Raised by :class:`Guard` when its agent fails; carries the seat and the reason."""

    def __init__(self, seat: int, reason: str):
        super().__init__(reason)
        self.seat = seat


class _MoveTimeout(BaseException):
    """Raised into an agent whose move ran out of time (a ``BaseException``, so an agent's own
    ``except Exception`` cannot swallow it)."""


def _out_of_time(signum, frame) -> None:
    raise _MoveTimeout


class Guard(Agent):
    """Wraps a seat's agent so that anything it does wrong becomes a :class:`Forfeit`.

    With ``timeout`` a move is interrupted after that many seconds of wall time by a ``SIGALRM``
    timer, which is why it needs the process's main thread (where every backend's workers run
    games). A hang is caught the next time the agent runs Python code; a generous limit is a
    guard against hangs, not a thinking budget, as a machine's load moves wall time."""

    def __init__(self, inner: Agent, seat: int, timeout: float | None = None):
        super().__init__(None)
        self.inner, self.seat, self.moves, self.timeout = inner, seat, 0, timeout
        self.uses_state = inner.uses_state

    def _timed(self, choose):
        if self.timeout is None:
            return choose()
        previous = signal.signal(signal.SIGALRM, _out_of_time)
        signal.setitimer(signal.ITIMER_REAL, self.timeout)
        try:
            return choose()
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)

    def _checked(self, choose, mask: np.ndarray) -> int:
        decision = self.moves + 1
        try:
            action = self._timed(choose)
        except _MoveTimeout:
            raise Forfeit(self.seat, f"decision {decision}: took longer than "
                          f"{self.timeout:g} s") from None
        except Exception as err:
            raise Forfeit(self.seat, f"decision {decision}: {type(err).__name__}: {err}") from err
        if not isinstance(action, (int, np.integer)) or not 0 <= action < len(mask) or not mask[
            action
        ]:
            raise Forfeit(self.seat, f"decision {decision}: illegal action {action!r}")
        self.moves = decision
        return int(action)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return self._checked(lambda: self.inner.act(observation, action_mask), action_mask)

    def act_state(self, game, state, player: int) -> int:
        mask = game.legal_mask(state)
        return self._checked(lambda: self.inner.act_state(game, state, player), mask)


_ENVS: dict[str, object] = {}  # one env per definition per process: building one compiles rules


def _env(definition: Definition):
    key = definition.to_json()
    if key not in _ENVS:
        _ENVS[key] = taas.envs.make(definition.env_id, wrapped=False, **definition.env_rules)
    return _ENVS[key]


def play_game(definition: Definition, game: Game, record: bool = False) -> Outcome:
    """Play ``game`` of ``definition`` (a pure function of the two: any worker gives the same)."""
    env, rules = _env(definition), definition.env_rules
    specs = [definition.agents[e] for e in game.entrants]
    if definition.move_timeout is not None and (
            threading.current_thread() is not threading.main_thread()):
        raise RuntimeError("a move timeout needs the process's main thread (SIGALRM)")
    start = time.perf_counter()
    try:
        agents = []
        for seat, (spec, seed) in enumerate(zip(specs, game.agent_seeds, strict=True)):
            try:
                agent = taas.agents.make(spec, definition.env_id, seed, rules)
                agents.append(Guard(agent, seat, definition.move_timeout))
            except Exception as err:
                raise Forfeit(seat, f"building {spec!r}: {type(err).__name__}: {err}") from err
        result = taas.arena.play_game(env, agents, seed=game.deal_seed)
    except Forfeit as forfeit:
        moves = sum(a.moves for a in agents)  # the moves made before the fault
        return Outcome(game.index, "forfeit", None, forfeit.seat, str(forfeit), moves, False,
                       time.perf_counter() - start)
    rec = None
    if record:
        rec = replays.make_record(env, result, game.deal_seed, specs, list(game.agent_seeds))
    return Outcome(game.index, "ok", [float(r) for r in result.returns], None, None,
                   result.steps, result.truncated, time.perf_counter() - start, rec)


def play_games(definition: Definition, games: list[Game], record: bool = False) -> list[Outcome]:
    """A batch of games: the unit of work a backend sends to a worker."""
    return [play_game(definition, g, record) for g in games]
