"""How strong is an agent? Duplicate deals against an opponent, with 95 % intervals.

Every deal seed is played once with the agent in each seat and the opponent in the others
(:func:`taas.arena.evaluate.duplicate_deals`); it prints the mean score difference per deal
(bootstrap interval over deals) and the win rate (Wilson interval).

    python -m taas.benchmarks.strength mariage_v1 --agent heuristic --deals 2000 \\
        --rule allow_false_claims=false
    python -m taas.benchmarks.strength romme_v1 --agent heuristic --deals 400 --rule num_players=2
"""

from __future__ import annotations

import argparse
import json
from concurrent.futures import ProcessPoolExecutor
from itertools import pairwise

import numpy as np

from taas.arena.evaluate import Evaluation, duplicate_deals
from taas.envs.core.config import parse_rule


def parallel_deals(env_id: str, agent: str, opponent: str, deals: int, seed: int, jobs: int,
                   **rules) -> Evaluation:
    """:func:`duplicate_deals` split into ``jobs`` processes over consecutive seed ranges; the
    result is the same deals as one process would play (deals are independent)."""
    if jobs <= 1:
        return duplicate_deals(env_id, agent, opponent, deals, seed, progress=True, **rules)
    cuts = np.linspace(seed, seed + deals, min(jobs, deals) + 1).round().astype(int).tolist()
    with ProcessPoolExecutor(len(cuts) - 1) as pool:
        parts = list(pool.map(_part, [(env_id, agent, opponent, b - a, a, rules)
                                      for a, b in pairwise(cuts)]))
    games = sum(p.games for p in parts)
    return Evaluation(env_id, agent, opponent, dict(rules),
                      np.concatenate([p.diffs for p in parts]), sum(p.wins for p in parts),
                      games, sum(p.mean_return * p.games for p in parts) / games)


def _part(args: tuple) -> Evaluation:
    env_id, agent, opponent, deals, seed, rules = args
    return duplicate_deals(env_id, agent, opponent, deals, seed, **rules)


def main(argv: list[str] | None = None) -> Evaluation:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("env_id")
    parser.add_argument("--agent", default="heuristic")
    parser.add_argument("--opponent", default="random")
    parser.add_argument("--deals", type=int, default=200, help="deal seeds, each in every seat")
    parser.add_argument("--seed", type=int, default=0, help="first deal seed")
    parser.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--jobs", type=int, default=1, help="processes to split the deals over")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rules = dict(parse_rule(r) for r in args.rule)
    ev = parallel_deals(
        args.env_id, args.agent, args.opponent, args.deals, args.seed, args.jobs, **rules
    )
    if args.json:
        print(json.dumps(ev.summary()))
    else:
        (dl, dh), (wl, wh) = ev.diff_interval, ev.win_interval
        print(
            f"{args.agent} vs {args.opponent} on {args.env_id} {rules or ''}: {ev.games} games "
            f"({args.deals} deals x every seat)\n"
            f"score difference per deal {ev.mean_diff:+.2f} (95% CI {dl:+.2f} to {dh:+.2f})\n"
            f"win rate {ev.win_rate:.3f} (Wilson 95% CI {wl:.3f}-{wh:.3f}), "
            f"mean return {ev.mean_return:+.2f}"
        )
    return ev


if __name__ == "__main__":
    main()
