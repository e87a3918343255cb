"""How strong is the rule-based Mariage agent? Duplicate deals against ``random``.

Every deal seed is played twice with the seats swapped, so both players get the same cards and
the luck of the deal cancels out. Prints the heuristic's win rate over all games with a Wilson
95% confidence interval, and its mean game points per deal.

    python -m benchmarks.mariage_strength --deals 2000
"""

from __future__ import annotations

import argparse
import math
import time

from agents.base import Agent, RandomAgent, play_game
from agents.mariage_heuristic import MariageHeuristicAgent
from envs.mariage.env import env as make_env


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval for a win rate: honest near 0 and 1, unlike the normal one."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    return centre - half, centre + half


def duplicate_deals(deals: int, seed: int = 0, **rules) -> tuple[int, int, float]:
    """Heuristic vs random over ``deals`` seeds, both seatings each: (wins, games, points)."""
    env = make_env(**rules)
    wins = games = 0
    points = 0.0
    for d in range(seed, seed + deals):
        for seat in (0, 1):
            agents: list[Agent] = [RandomAgent(d), RandomAgent(d)]
            agents[seat] = MariageHeuristicAgent(d)
            result = play_game(env, agents, seed=d)
            wins += result.returns[seat] > 0
            points += result.returns[seat]
            games += 1
    return wins, games, points


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000, help="deal seeds (each played twice)")
    parser.add_argument("--seed", type=int, default=0, help="first deal seed")
    parser.add_argument("--allow-false-claims", action="store_true",
                        help="keep the default rule (random then loses many deals by false claims)")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    wins, games, points = duplicate_deals(args.deals, args.seed,
                                          allow_false_claims=args.allow_false_claims)
    low, high = wilson(wins, games)
    print(f"heuristic vs random, mariage_v0 allow_false_claims={args.allow_false_claims}: "
          f"{args.deals} deals x 2 seatings = {games} games")
    print(f"win rate {wins / games:.3f}  (Wilson 95% CI {low:.3f}-{high:.3f}), "
          f"mean game points {points / games:+.2f}, {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
