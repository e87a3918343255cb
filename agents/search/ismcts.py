"""Determinized search over any engine: information-set MCTS and its cheating twin, the oracle.

``ismcts:N`` runs N simulations per decision (``ismcts:0.2s``: as many as fit in 0.2 s). It is
single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012): every simulation first deals the
cards its seat cannot see afresh (the game's *determinizer*, which its spec names),
then walks one shared tree keyed by action ids, choosing among the actions legal in that
determinization by UCB1 with availability counts, adds one node, plays on with a rollout policy
for a few moves (the game's own fast rollout player, else random moves) and scores the end
with the game's evaluator (or the true returns when the episode ended). A game module may set its
UCB constant (``EXPLORATION``, default 0.7). A game whose rollouts
are cheap enough to finish the episode may instead give a ``playout`` that plays on in place
with its own move generation (Mariage: its rule-of-thumb player, scored by the deal's game
points), skipping the engine's per-move legality checks. Every action of these
games is public (a draw from the stock is the same id whatever card comes), so one tree serves
all seats; each node keeps the value of the player who moved into it. A game may also answer a
position outright (its module's ``exact``): Mariage solves its closed phase instead of
searching it.

A game whose module sets ``WIDTH`` (the rummies) is searched differently, because there the
expert rules are stronger than anything a few hundred rollouts find from scratch: a move's
value is a whole hand of penalty points while one discard moves it by a few. ``ismcts:N`` is
then a *paired improvement search* on the game's ``heuristic`` (:class:`PairedSearch`): the
heuristic ranks the legal moves from the seat's observation, its first ``WIDTH`` are each
played in the same determinizations followed by the same rollouts (common random numbers),
and the heuristic's choice is replaced only by a move whose mean paired advantage exceeds
``CONFIDENCE`` standard errors. N counts rollouts, as simulations do in the tree search.

``oracle:N`` is the same search handed the true state in place of a determinization: it cheats,
and exists so experiments can report what hidden information is worth in each game.

A search agent needs the engine, not the observation vector: :func:`taas.arena.play_game`
calls :meth:`SearchAgent.act_state` for agents whose ``uses_state`` is true. The agent reads the
true state only through the determinizer, whose tests check it deals nothing the seat cannot
know, and through the seat's observation (the prior); its choice is unchanged when the hidden
cards are permuted.
"""

from __future__ import annotations

import contextlib
import contextvars
import dataclasses
import math
import threading
import time
from collections.abc import Callable, Iterator
from types import ModuleType

import numpy as np

from taas.agents.base import Agent
from taas.envs.core.game import Game, State

Determinizer = Callable[[Game, State, int, np.random.Generator], State]
Evaluator = Callable[[Game, State], np.ndarray]
Policy = Callable[[Game, State, np.random.Generator], int]
Playout = Callable[[Game, State, np.random.Generator], None]
Prior = Callable[[Game, State, int], list[int]]
Exact = Callable[[Game, State, int, np.random.Generator, Determinizer], int | None]
"""A move found without searching, or None; it samples hidden cards only through the search's
determinizer (the oracle's hands it the true state)."""


def parse_budget(arg: str | None, default: int = 200) -> tuple[int | None, float | None]:
    """``"200"`` -> 200 simulations; ``"0.2s"`` -> 0.2 seconds; ``None`` -> the default count."""
    if arg is None or arg == "":
        return default, None
    try:
        if arg.endswith("s"):
            seconds = float(arg[:-1])
            if seconds > 0:
                return None, seconds
        else:
            sims = int(arg)
            if sims > 0:
                return sims, None
    except ValueError:
        pass
    raise ValueError(f"search budget {arg!r}: expected simulations (e.g. 200) or seconds (0.2s)")


_LIMIT: contextvars.ContextVar[tuple[float | None, threading.Event | None]] = (
    contextvars.ContextVar("taas_search_limit", default=(None, None))
)


@contextlib.contextmanager
def limited(seconds: float | None = None, stop: threading.Event | None = None) -> Iterator[None]:
    """Searches started inside this block end after ``seconds`` whatever their own budget, and
    as soon as ``stop`` is set (after the sample under way): a server bounds and cancels the
    agents' thinking without knowing which agents search."""
    token = _LIMIT.set((seconds, stop))
    try:
        yield
    finally:
        _LIMIT.reset(token)


class Budget:
    """A search's budget, started now: ``within(n)`` says whether another sample may follow
    ``n`` simulations (``simulations`` of them, or until ``seconds`` have passed, and within
    the caller's :func:`limited` block; the first sample always runs)."""

    def __init__(self, simulations: int | None, seconds: float | None):
        cap, self.stop = _LIMIT.get()
        if cap is not None:
            seconds = cap if seconds is None else min(seconds, cap)
        self.simulations = simulations
        self.deadline = None if seconds is None else time.perf_counter() + seconds

    def __call__(self, n: int) -> bool:
        if n == 0:
            return True
        if self.stop is not None and self.stop.is_set():
            return False
        if self.simulations is not None and n >= self.simulations:
            return False
        return self.deadline is None or time.perf_counter() < self.deadline


def random_policy(game: Game, state: State, rng: np.random.Generator) -> int:
    """Uniform over the legal actions: the default rollout."""
    return int(rng.choice(np.flatnonzero(game.legal_mask(state))))


class _Node:
    __slots__ = ("avail", "children", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.total = 0.0  # summed value, for the player who moved into this node
        self.avail = 1  # simulations in which this node's action was legal at its parent


class _Simulations:
    """What both searches share: deal the hidden cards (``determinize``), play on with the
    rollout policy for ``rollout_depth`` moves, value the end (the true returns once the
    episode is over, else ``evaluate``), and check who is to move."""

    def __init__(self, determinize: Determinizer, evaluate: Evaluator | None, rollout: Policy,
                 rollout_depth: int):
        self.determinize = determinize
        self.evaluate = evaluate
        self.rollout = rollout
        self.rollout_depth = rollout_depth
        self.simulations = 0  # of the last search, for benchmarks

    @staticmethod
    def _check_mover(game: Game, state: State, player: int) -> None:
        if game.current_player(state) != player:
            raise ValueError(f"player {player} is not to move")

    def _roll_out(self, game: Game, s: State, rng: np.random.Generator) -> None:
        for _ in range(self.rollout_depth):
            if game.is_terminal(s):
                return
            game.apply_action(s, self.rollout(game, s, rng))

    def _values(self, game: Game, s: State) -> np.ndarray:
        if game.is_terminal(s) or self.evaluate is None:
            return game.returns(s)
        return np.asarray(self.evaluate(game, s), dtype=np.float64)


class ISMCTS(_Simulations):
    """The search itself, independent of any agent protocol (tests and notebooks call it)."""

    def __init__(
        self,
        determinize: Determinizer,
        evaluate: Evaluator | None = None,
        rollout: Policy = random_policy,
        rollout_depth: int = 20,
        exploration: float = 0.7,
        exact: Exact | None = None,
        playout: Playout | None = None,
    ):
        super().__init__(determinize, evaluate, rollout, rollout_depth)
        self.exploration = exploration
        self.exact = exact
        self.playout = playout

    def search(
        self,
        game: Game,
        state: State,
        player: int,
        rng: np.random.Generator,
        simulations: int | None = None,
        seconds: float | None = None,
    ) -> int:
        """The action for ``player`` (who must be to move in ``state``)."""
        self._check_mover(game, state, player)
        legal = np.flatnonzero(game.legal_mask(state))
        if len(legal) == 1:
            self.simulations = 0
            return int(legal[0])
        if self.exact is not None:
            move = self.exact(game, state, player, rng, self.determinize)
            if move is not None:
                self.simulations = 0
                return int(move)
        root = _Node()
        base = game.returns(state)
        within = Budget(simulations, seconds)
        bounds = [math.inf, -math.inf]
        n = 0
        while within(n):
            self._simulate(game, self.determinize(game, state, player, rng), root, base, rng,
                           bounds)
            n += 1
        self.simulations = n
        best = max(root.children.items(), key=lambda kv: (kv[1].visits, kv[1].total))
        return int(best[0])

    def _simulate(self, game: Game, s: State, root: _Node, base: np.ndarray,
                  rng: np.random.Generator, bounds: list[float]) -> None:
        node, path = root, []
        while not game.is_terminal(s):
            legal = np.flatnonzero(game.legal_mask(s))
            mover = game.current_player(s)
            untried = [a for a in legal.tolist() if a not in node.children]
            for a in legal.tolist():
                child = node.children.get(a)
                if child is not None:
                    child.avail += 1
            if untried:
                a = untried[int(rng.integers(len(untried)))]
                child = node.children[a] = _Node()
                game.apply_action(s, a)
                path.append((child, mover))
                break
            a = self._select(node, legal, bounds)
            node = node.children[a]
            game.apply_action(s, a)
            path.append((node, mover))
        if self.playout is not None:
            self.playout(game, s, rng)
        else:
            self._roll_out(game, s, rng)
        value = self._values(game, s) - base
        bounds[0] = min(bounds[0], float(value.min()))
        bounds[1] = max(bounds[1], float(value.max()))
        for child, mover in path:
            child.visits += 1
            child.total += float(value[mover])

    def _select(self, node: _Node, legal: np.ndarray, bounds: list[float]) -> int:
        low, span = bounds[0], bounds[1] - bounds[0]
        scale = 1.0 / span if span > 0 else 0.0
        best, best_score = -1, -math.inf
        for a in legal.tolist():
            child = node.children[a]
            mean = (child.total / child.visits - low) * scale
            score = mean + self.exploration * math.sqrt(math.log(child.avail) / child.visits)
            if score > best_score:
                best, best_score = a, score
        return best


class PairedSearch(_Simulations):
    """The expert's move, changed only where paired simulations say another is better.

    The prior (the game's ``heuristic``, reading the seat's observation) ranks the legal moves;
    the search keeps its first ``width``. Each sample deals a determinization and plays every
    kept move in it, each followed by the same rollout (the generator is rewound between
    them: common random numbers), so the candidates meet the same hidden cards and the same
    draws and their difference is measured with far less noise than their values. It plays
    the move with the best mean advantage over the expert's choice when that advantage
    exceeds ``confidence`` standard errors, else the expert's choice; a move the prior never
    questions (a single candidate) is played at once.
    """

    def __init__(
        self,
        determinize: Determinizer,
        prior: Prior,
        evaluate: Evaluator | None = None,
        rollout: Policy = random_policy,
        rollout_depth: int = 20,
        width: int = 3,
        confidence: float = 1.0,
    ):
        super().__init__(determinize, evaluate, rollout, rollout_depth)
        self.prior = prior
        self.width = width
        self.confidence = confidence

    def search(
        self,
        game: Game,
        state: State,
        player: int,
        rng: np.random.Generator,
        simulations: int | None = None,
        seconds: float | None = None,
    ) -> int:
        """The action for ``player`` (who must be to move in ``state``)."""
        self._check_mover(game, state, player)
        moves = self.prior(game, state, player)[: self.width]
        self.simulations = 0
        if len(moves) == 1:
            return moves[0]
        base = float(game.returns(state)[player])
        within = Budget(simulations, seconds)
        values: list[list[float]] = []
        n = 0
        while within(n):
            dealt = self.determinize(game, state, player, rng)
            start = rng.bit_generator.state
            row = []
            for i, move in enumerate(moves):
                rng.bit_generator.state = start
                s = dealt if i == len(moves) - 1 else dealt.clone()
                game.apply_action(s, move)
                self._roll_out(game, s, rng)
                row.append(float(self._values(game, s)[player]) - base)
            values.append(row)
            n += len(moves)
        self.simulations = n
        return moves[self.choose(np.array(values))]

    @staticmethod
    def advantages(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Each challenger's mean paired advantage over the expert's choice (column 0 of
        ``values``, samples x moves, at least 2 samples) and its standard error."""
        diffs = values[:, 1:] - values[:, :1]
        return diffs.mean(axis=0), diffs.std(axis=0, ddof=1) / math.sqrt(len(values))

    def choose(self, values: np.ndarray) -> int:
        """The column to play of ``values`` (samples x moves, the expert's choice first): the
        best mean advantage over column 0 if it exceeds ``confidence`` standard errors."""
        if len(values) < 2:
            return 0
        mean, error = self.advantages(values)
        sure = mean > self.confidence * error
        if not sure.any():
            return 0
        return 1 + int(np.argmax(np.where(sure, mean, -np.inf)))


class ExpertPrior:
    """The game's ``heuristic`` as a prior: its ranking of the legal moves (``ranking``) from
    the seat's observation, so the prior sees exactly what the seat may see. The expert and
    the observer are built for the config of the game being played."""

    def __init__(self, env_id: str, seed: int | None):
        self.env_id = env_id
        self.seed = seed
        self.config = None
        self.expert = self.observer = None

    def __call__(self, game: Game, state: State, player: int) -> list[int]:
        if game.config != self.config:
            import taas.agents
            import taas.envs

            rules = dataclasses.asdict(game.config)
            self.observer = taas.envs.make(self.env_id, wrapped=False, **rules).observer
            self.expert = taas.agents.make("heuristic", self.env_id, seed=self.seed,
                                           config=rules)
            self.config = game.config
        return self.expert.ranking(self.observer.encode(state, player), game.legal_mask(state))


def determinizer(env_id: str) -> ModuleType:
    """The module named by ``env_id``'s spec as its determinizer (``determinize`` and the
    search settings); ``ValueError`` for a game that names none."""
    import taas.envs

    module = taas.envs.spec_for(env_id).determinize_module()
    if module is None:
        raise ValueError(f"{env_id} has no determinizer: search agents cannot play it")
    return module


class SearchAgent(Agent):
    """``ismcts:N`` / ``ismcts:0.2s``: determinized ISMCTS with the game's evaluator and rollout
    policy (see the module docstring)."""

    name = "ismcts"
    uses_state = True
    cheats = False

    def __init__(self, search: ISMCTS | PairedSearch, simulations: int | None,
                 seconds: float | None,
                 seed: int | None = None):
        super().__init__(seed)
        self.search = search
        self.simulations = simulations
        self.seconds = seconds

    @classmethod
    def build(cls, arg: str | None, env_id: str, seed: int | None, config: dict) -> Agent:
        simulations, seconds = parse_budget(arg)
        module = determinizer(env_id)
        determinize = _true_state if cls.cheats else module.determinize
        play_on = {
            "evaluate": getattr(module, "evaluate", None),
            "rollout": getattr(module, "rollout", random_policy),
            "rollout_depth": getattr(module, "ROLLOUT_DEPTH", 20),
        }
        if hasattr(module, "WIDTH"):
            search = PairedSearch(determinize, ExpertPrior(env_id, seed), width=module.WIDTH,
                                  confidence=module.CONFIDENCE, **play_on)
        else:
            search = ISMCTS(determinize, exploration=getattr(module, "EXPLORATION", 0.7),
                            exact=getattr(module, "exact", None),
                            playout=getattr(module, "playout", None), **play_on)
        return cls(search, simulations, seconds, seed)

    def act_state(self, game: Game, state: State, player: int) -> int:
        """Search from ``state`` as ``player`` sees it (the true state only for the oracle)."""
        return self.search.search(game, state, player, self.rng, self.simulations, self.seconds)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        raise TypeError(
            f"{self.name} searches the engine: play it through taas.arena.play_game, which "
            "hands it the state (act_state), not through the observation alone"
        )


class OracleAgent(SearchAgent):
    """``oracle:N``: the same search given the true hidden state. It cheats, by design: the gap
    between it and ``ismcts`` at equal budget is the value of hidden information."""

    name = "oracle"
    cheats = True


def _true_state(game: Game, state: State, player: int, rng: np.random.Generator) -> State:
    return state.clone()
