"""Is agent A stronger than agent B? Duplicate deals with the seats rotated, 95 % intervals.

Each deal seed is played once per seat with A in that seat and B in every other one, so A plays
every seat of every deal with the same cards the B players got: the luck of the deal cancels
out. A deal's *score difference* is A's mean return over its rotations minus the mean return of
the B seats; deals are independent, so a bootstrap over deals gives an honest interval.
A game is a *win* for A when its return is strictly above every B seat's (Wilson interval).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from tqdm import tqdm

import taas.agents
import taas.envs
from taas.arena.loop import play_game


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval for a win rate: honest near 0 and 1, unlike the normal one."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    return centre - half, centre + half


def mean_interval(
    values: np.ndarray, resamples: int = 10_000, seed: int = 0
) -> tuple[float, float]:
    """Percentile-bootstrap 95 % interval of a mean (seeded, so a report reproduces)."""
    values = np.asarray(values, dtype=np.float64)
    if len(values) < 2:
        return -math.inf, math.inf
    rng = np.random.default_rng(seed)
    means = values[rng.integers(len(values), size=(resamples, len(values)))].mean(axis=1)
    low, high = np.percentile(means, [2.5, 97.5])
    return float(low), float(high)


@dataclass
class Evaluation:
    """A against B on duplicate deals: per-deal score differences and per-game wins."""

    env_id: str
    agent: str
    opponent: str
    rules: dict
    diffs: np.ndarray  # one per deal: A's mean return minus B's, over the seat rotations
    wins: int
    games: int
    mean_return: float  # A's mean return per game
    returns: np.ndarray  # [deal, A's seat, seat]: every seat's return in each game

    @classmethod
    def concat(cls, parts: list[Evaluation]) -> Evaluation:
        """One evaluation of the deals of ``parts`` (the same pair, rules and env), in order."""
        first = parts[0]
        games = sum(p.games for p in parts)
        return cls(first.env_id, first.agent, first.opponent, first.rules,
                   np.concatenate([p.diffs for p in parts]), sum(p.wins for p in parts), games,
                   sum(p.mean_return * p.games for p in parts) / games,
                   np.concatenate([p.returns for p in parts]))

    @property
    def mean_diff(self) -> float:
        return float(self.diffs.mean())

    @property
    def diff_interval(self) -> tuple[float, float]:
        return mean_interval(self.diffs)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games

    @property
    def win_interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    def summary(self) -> dict:
        """JSON-ready figures."""
        return {
            "env_id": self.env_id, "agent": self.agent, "opponent": self.opponent,
            "rules": self.rules, "deals": len(self.diffs), "games": self.games,
            "mean_diff": self.mean_diff, "diff_ci95": list(self.diff_interval),
            "win_rate": self.win_rate, "win_ci95": list(self.win_interval),
            "mean_return": self.mean_return,
        }


def duplicate_deals(
    env_id: str,
    agent: str,
    opponent: str = "random",
    deals: int = 100,
    seed: int = 0,
    progress: bool = False,
    **rules,
) -> Evaluation:
    """Play ``deals`` deal seeds from ``seed``, each once with ``agent`` in every seat and
    ``opponent`` in the others (agents are rebuilt per game from seeds derived from the deal)."""
    env = taas.envs.make(env_id, wrapped=False, **rules)
    n = len(env.possible_agents)
    diffs, wins, games, total, table = [], 0, 0, 0.0, []
    for d in tqdm(range(seed, seed + deals), disable=not progress, unit="deal"):
        deal_diff = 0.0
        table.append([])
        for seat in range(n):
            seats = [
                taas.agents.make(opponent, env_id, seed=d * n + i, config=rules) for i in range(n)
            ]
            seats[seat] = taas.agents.make(agent, env_id, seed=d, config=rules)
            returns = play_game(env, seats, seed=d).returns
            table[-1].append(returns)
            others = [r for i, r in enumerate(returns) if i != seat]
            deal_diff += returns[seat] - sum(others) / len(others)
            wins += all(returns[seat] > r for r in others)
            total += returns[seat]
            games += 1
        diffs.append(deal_diff / n)
    return Evaluation(env_id, agent, opponent, dict(rules), np.array(diffs), wins, games,
                      total / games, np.array(table, dtype=np.float64).reshape(deals, n, n))
