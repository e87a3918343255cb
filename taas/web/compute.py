"""Bounded compute for the web table: which agents clients may seat (:class:`AgentPolicy`) and
where their moves think (:class:`Thinkers`).

The operator names the agents on offer and the longest an agent may think; a client's spec
outside them is refused before a game exists. Every agent move then runs in a fixed pool of
threads with a bounded queue, inside :func:`taas.agents.search.ismcts.limited` (so no search
outlasts the operator's budget whatever its own, and a cancelled one stops after its current
sample): request threads never think, so other games' requests are answered while agents think.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from importlib import resources
from pathlib import Path

import taas.agents
import taas.envs
from taas.agents.search.ismcts import limited, parse_budget

HUMAN = "human"
DEFAULT_AGENTS = ("random", "greedy", "heuristic", "ismcts", "ppo", "learned", "best")
BUDGETED = ("ismcts", "oracle", "pimc")  # specs whose argument is a search budget


def shipped_models() -> list[str]:
    """The names of the models shipped in the package (``ppo:<name>``)."""
    folder = resources.files("taas.agents") / "models"
    return sorted(p.name[:-3] for p in folder.iterdir() if p.name.endswith(".pt"))


class AgentPolicy:
    """The agents clients may seat: spec names in ``agents`` (default :data:`DEFAULT_AGENTS`),
    search budgets up to ``max_think`` seconds or ``max_simulations`` simulations, models by
    name only: the shipped ones and the ``NAME.pt`` files of the operator's ``models`` folder
    (``ppo:NAME``; the folder's path is never shown to a client)."""

    def __init__(self, agents: Sequence[str] | None = None, max_think: float = 2.0,
                 max_simulations: int = 1000, models: str | Path | None = None):
        agents = list(DEFAULT_AGENTS if agents is None else agents)
        known = {n for e in taas.envs.available_envs() for n in taas.agents.available(e)}
        unknown = sorted(set(agents) - known)
        if unknown:
            raise ValueError(f"unknown agents {', '.join(unknown)}; known: "
                             f"{', '.join(sorted(known))}")
        if not max_think > 0:
            raise ValueError(f"max_think {max_think}: expected seconds > 0")
        if max_simulations < 1:
            raise ValueError(f"max_simulations {max_simulations}: expected 1 or more")
        self.agents, self.max_think, self.max_simulations = agents, max_think, max_simulations
        self.folder = None if models is None else Path(models).resolve()
        if self.folder is not None and not self.folder.is_dir():
            raise ValueError(f"--models {models}: not a folder")
        clash = sorted(set(self._own_models()) & set(shipped_models()))
        if clash:
            raise ValueError(f"--models {models}: {', '.join(clash)} would hide the shipped "
                             "model of that name; rename the file")

    def _own_models(self) -> dict[str, Path]:
        """The operator's models by name (read afresh: a file added while serving is offered)."""
        if self.folder is None:
            return {}
        return {p.stem: p for p in sorted(self.folder.glob("*.pt")) if p.stem.isidentifier()}

    def models(self) -> list[str]:
        """Every model name a client may ask for."""
        return sorted({*shipped_models(), *self._own_models()})

    def engine_spec(self, spec: str) -> str:
        """The spec the server builds for a client's ``spec``: ``ppo:NAME`` of the operator's
        folder becomes that file's path (the game's record keeps the name)."""
        name, _, arg = spec.partition(":")
        path = self._own_models().get(arg) if name == "ppo" else None
        return spec if path is None else f"ppo:{path}"

    def scrub(self, text: str) -> str:
        """An error text with the operator's folder replaced by ``<models>``."""
        return text if self.folder is None else text.replace(str(self.folder), "<models>")

    def offered(self, env_id: str) -> list[str]:
        """The specs a client may ask for at ``env_id``'s table, as the refusals list them."""
        out = []
        for name in taas.agents.available(env_id):
            if name not in self.agents:
                continue
            if name in BUDGETED:
                name += f"[:1..{self.max_simulations} or :<={self.max_think:g}s]"
            elif name == "ppo":
                name += ":" + "|".join(self.models())
            out.append(name)
        return out

    def check(self, spec: str, env_id: str) -> None:
        """``ValueError`` (one line, listing what is allowed) unless a client may seat ``spec``."""
        if spec == HUMAN:
            return
        name, _, arg = spec.partition(":")
        allowed = f"allowed here: {HUMAN}, {', '.join(self.offered(env_id))}"
        if name not in self.agents or name not in taas.agents.available(env_id):
            known = name in taas.agents.available(env_id)
            raise ValueError(f"{'agent' if known else 'unknown agent'} {spec!r} is not offered "
                             f"at {env_id}; {allowed}")
        name, _, arg = taas.agents.resolve(spec, env_id).partition(":")  # an alias's own
        if name in BUDGETED:  # budget counts, whatever ``best`` stands for today
            budget = arg.partition(":")[0]  # pimc:0.2s:infer: the agent checks its option
            simulations, seconds = parse_budget(budget or None)
            if (seconds or 0) > self.max_think or (simulations or 0) > self.max_simulations:
                raise ValueError(f"agent {spec!r} is over this server's budget; {allowed}")
        elif name == "ppo" and arg not in self.models():
            raise ValueError(f"agent {spec!r}: models are chosen by name; {allowed}")


class Busy(RuntimeError):
    """Every worker is thinking and the queue is full, or the server is stopping."""


class Cancelled(RuntimeError):
    """The move's game was deleted, or the server stopped, while its agent thought."""


class Thinkers:
    """Agent moves on ``workers`` threads, at most ``queue`` more waiting; one move at a time
    per game (asking again for a game already thinking joins that move)."""

    def __init__(self, workers: int, queue: int, max_think: float):
        self._pool = ThreadPoolExecutor(workers, thread_name_prefix="taas-agent")
        self._slots = threading.BoundedSemaphore(workers + queue)
        self._jobs: dict[str, tuple[Future, threading.Event]] = {}
        self._lock = threading.Lock()
        self._closed = False
        self.max_think = max_think

    def submit(self, game_id: str, think: Callable[[threading.Event], object]) -> Future:
        """Run ``think(stop)`` for ``game_id``; :class:`Busy` if there is no room."""
        with self._lock:
            if self._closed:
                raise Busy("the server is stopping")
            if game_id in self._jobs:
                return self._jobs[game_id][0]
            if not self._slots.acquire(blocking=False):
                raise Busy("every agent worker is busy and the queue is full: try again shortly")
            stop = threading.Event()
            future = self._pool.submit(self._run, think, stop)
            self._jobs[game_id] = (future, stop)
        future.add_done_callback(lambda _: self._done(game_id))
        return future

    def _run(self, think, stop: threading.Event):
        if stop.is_set():
            raise Cancelled("the move was cancelled before it started")
        with limited(self.max_think, stop):
            return think(stop)

    def _done(self, game_id: str) -> None:
        with self._lock:
            self._jobs.pop(game_id, None)
        self._slots.release()

    def cancel(self, game_id: str) -> None:
        """Stop ``game_id``'s move: dropped if it waits, stopped after its current sample."""
        with self._lock:
            job = self._jobs.get(game_id)
        if job is not None:
            job[1].set()
            job[0].cancel()

    def close(self) -> None:
        """Cancel every move and take no more (the server is stopping)."""
        with self._lock:
            self._closed = True
            jobs = list(self._jobs.values())
        for future, stop in jobs:
            stop.set()
            future.cancel()
        self._pool.shutdown(wait=False, cancel_futures=True)
