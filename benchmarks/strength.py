"""How strong is an agent? Duplicate games against an opponent, with a Wilson 95% interval.

Every deal seed is played once with the agent in each seat (the opponents in the others), so
every seat gets the same cards and the luck of the deal cancels out. A game is a win when the
agent's return is strictly higher than every other seat's.

    python -m taas.benchmarks.strength mariage_v1 --agent heuristic --deals 2000 \\
        --rule allow_false_claims=false
    python -m taas.benchmarks.strength romme_v0 --agent heuristic --deals 400 --rule num_players=2
"""

from __future__ import annotations

import argparse
import json
import math
from dataclasses import asdict, dataclass

import taas.agents
import taas.envs
from taas.agents.cli import parse_rule
from tqdm import tqdm


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval for a win rate: honest near 0 and 1, unlike the normal one."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    return centre - half, centre + half


@dataclass
class Tally:
    """Games played, games won and the agent's mean return per game."""

    games: int
    wins: int
    mean_return: float

    @property
    def win_rate(self) -> float:
        return self.wins / self.games

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)


def duplicate_games(
    env_id: str,
    agent: str,
    opponent: str = "random",
    deals: int = 100,
    seed: int = 0,
    progress: bool = False,
    **rules,
) -> Tally:
    """Play ``deals`` deal seeds, each once with ``agent`` in every seat."""
    env = taas.envs.make(env_id, wrapped=False, **rules)
    n = len(env.possible_agents)
    wins = games = 0
    total = 0.0
    for d in tqdm(range(seed, seed + deals), disable=not progress, unit="deal"):
        for seat in range(n):
            seats = [
                taas.agents.make(opponent, env_id, seed=d * n + i, config=rules) for i in range(n)
            ]
            seats[seat] = taas.agents.make(agent, env_id, seed=d, config=rules)
            returns = taas.agents.play_game(env, seats, seed=d).returns
            wins += all(returns[seat] > r for i, r in enumerate(returns) if i != seat)
            total += returns[seat]
            games += 1
    return Tally(games, wins, total / games)


def main(argv: list[str] | None = None) -> Tally:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("env_id")
    parser.add_argument("--agent", default="heuristic")
    parser.add_argument("--opponent", default="random")
    parser.add_argument("--deals", type=int, default=200, help="deal seeds, each in every seat")
    parser.add_argument("--seed", type=int, default=0, help="first deal seed")
    parser.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rules = dict(parse_rule(r) for r in args.rule)
    tally = duplicate_games(
        args.env_id, args.agent, args.opponent, args.deals, args.seed, progress=True, **rules
    )
    low, high = tally.interval
    if args.json:
        print(json.dumps({**asdict(tally), "win_rate": tally.win_rate, "ci95": [low, high]}))
    else:
        print(
            f"{args.agent} vs {args.opponent} on {args.env_id} {rules or ''}: {tally.games} games "
            f"({args.deals} deals x every seat)\nwin rate {tally.win_rate:.3f} "
            f"(Wilson 95% CI {low:.3f}-{high:.3f}), mean return {tally.mean_return:+.2f}"
        )
    return tally


if __name__ == "__main__":
    main()
