"""How strong is an agent? Duplicate deals against an opponent, with 95 % intervals.

Every deal seed is played once with the agent in each seat and the opponent in the others
(:func:`taas.arena.evaluate.duplicate_deals`); it prints the mean score difference per deal
(bootstrap interval over deals) and the win rate (Wilson interval). With ``--sprt DELTA`` the
deals are played in batches and the duel stops as soon as a sequential test (:func:`sprt`)
says the agent is clearly better, clearly worse, or level within ``DELTA`` points a deal;
``--deals`` is then the most it plays.

    python -m taas.benchmarks.strength mariage_v1 --agent heuristic --deals 2000 \\
        --rule allow_false_claims=false
    python -m taas.benchmarks.strength romme_v1 --agent heuristic --deals 400 --rule num_players=2
    python -m taas.benchmarks.strength mariage_v1 --agent pimc:100 --opponent heuristic \\
        --deals 1000 --sprt 0.5
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from itertools import pairwise

import numpy as np

from taas.arena.evaluate import Evaluation, duplicate_deals
from taas.envs.core.config import parse_rule

BETTER, WORSE, LEVEL = "better", "worse", "level"  # the sequential test's decisions


def parallel_deals(env_id: str, agent: str, opponent: str, deals: int, seed: int, jobs: int,
                   progress: bool = True, **rules) -> Evaluation:
    """:func:`duplicate_deals` split into ``jobs`` processes over consecutive seed ranges; the
    result is the same deals as one process would play (deals are independent)."""
    if jobs <= 1:
        return duplicate_deals(env_id, agent, opponent, deals, seed, progress=progress, **rules)
    cuts = np.linspace(seed, seed + deals, min(jobs, deals) + 1).round().astype(int).tolist()
    with ProcessPoolExecutor(len(cuts) - 1) as pool:
        parts = list(pool.map(_part, [(env_id, agent, opponent, b - a, a, rules)
                                      for a, b in pairwise(cuts)]))
    return Evaluation.concat(parts)


def _part(args: tuple) -> Evaluation:
    env_id, agent, opponent, deals, seed, rules = args
    return duplicate_deals(env_id, agent, opponent, deals, seed, **rules)


def sprt(diffs: np.ndarray, delta: float, alpha: float = 0.05) -> str | None:
    """The decision of Sobel and Wald's three-decision sequential test (Ann. Math. Statist.
    20, 1949) on the per-deal paired score differences so far, or None: keep playing.

    It runs two of Wald's sequential probability ratio tests at once, on the normal
    approximation of the mean difference with the sample variance plugged in for the unknown
    one (the "generalized SPRT" of engine testing, e.g. Fishtest): mean 0 against ``+delta``
    and mean 0 against ``-delta``, each with error rates ``alpha`` both ways (Wald's bounds
    log((1-alpha)/alpha) and its negative). ``better``: the first test rejects mean 0;
    ``worse``: the second does; ``level``: both accept it, the mean is within ``delta``. A
    duel of equal players therefore ends ``better`` or ``worse`` with probability about
    ``2 * alpha``. Deals are independent, so the per-deal differences are the test's samples.
    """
    if not delta > 0:
        raise ValueError(f"delta={delta}: expected a positive score difference per deal")
    if not 0 < alpha < 0.5:
        raise ValueError(f"alpha={alpha}: expected an error rate between 0 and 0.5")
    diffs = np.asarray(diffs, dtype=np.float64)
    n = len(diffs)
    if n < 2:
        return None
    # a constant sample (every deal the same difference) has no spread: one tiny variance
    # then decides at once, as it should
    var = max(float(diffs.var(ddof=1)), 1e-12 * (1.0 + delta * delta))
    total = float(diffs.sum())
    up = delta * (total - n * delta / 2) / var  # log-likelihood ratio of +delta to 0
    down = -delta * (total + n * delta / 2) / var  # of -delta to 0
    bound = math.log((1 - alpha) / alpha)
    if up >= bound:
        return BETTER
    if down >= bound:
        return WORSE
    if up <= -bound and down <= -bound:
        return LEVEL
    return None


def sequential(play: Callable[[int, int], Evaluation], deals: int, seed: int, delta: float,
               alpha: float = 0.05, batch: int = 20) -> tuple[Evaluation, str | None]:
    """Play ``batch`` deals at a time (``play(first_seed, count)``) from ``seed`` until
    :func:`sprt` decides or ``deals`` have been played; the evaluation of every deal played
    and the decision (None: the cap came first). Testing only after whole batches keeps the
    plugged-in variance from resting on a handful of deals."""
    if batch < 2:
        raise ValueError(f"batch={batch}: test after 2 deals or more")
    parts, decision, start = [], None, seed
    while decision is None and start < seed + deals:
        count = min(batch, seed + deals - start)
        parts.append(play(start, count))
        start += count
        decision = sprt(Evaluation.concat(parts).diffs, delta, alpha)
    return Evaluation.concat(parts), decision


def duel(env_id: str, agent: str, opponent: str, deals: int, seed: int, jobs: int,
         sprt_delta: float | None = None, alpha: float = 0.05, batch: int = 20,
         progress: bool = True, **rules) -> tuple[Evaluation, str | None]:
    """``agent`` against ``opponent`` on ``deals`` duplicate deals, or, with ``sprt_delta``,
    on batches of them until the sequential test decides (the decision, else None)."""
    if sprt_delta is None:
        return parallel_deals(env_id, agent, opponent, deals, seed, jobs, progress, **rules), None
    return sequential(
        lambda first, count: parallel_deals(env_id, agent, opponent, count, first, jobs,
                                            progress, **rules),
        deals, seed, sprt_delta, alpha, batch)


def add_sprt_arguments(parser: argparse.ArgumentParser, what: str) -> None:
    """``--sprt DELTA``, ``--alpha`` and ``--batch``: the sequential test's options (:func:`sprt`),
    the same for a duel and for the ladder's duels."""
    parser.add_argument("--sprt", type=float, metavar="DELTA",
                        help=f"{what} once a sequential test tells better, worse, or level "
                             "within DELTA points a deal")
    parser.add_argument("--alpha", type=float, default=0.05,
                        help="the sequential test's error rate, each way (default 0.05)")
    parser.add_argument("--batch", type=int, default=20,
                        help="deals played between two looks of the sequential test")


def main(argv: list[str] | None = None) -> Evaluation:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("env_id")
    parser.add_argument("--agent", default="heuristic")
    parser.add_argument("--opponent", default="random")
    parser.add_argument("--deals", type=int, default=200,
                        help="deal seeds, each in every seat (with --sprt: the most)")
    parser.add_argument("--seed", type=int, default=0, help="first deal seed")
    parser.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--jobs", type=int, default=1, help="processes to split the deals over")
    add_sprt_arguments(parser, "stop early")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rules = dict(parse_rule(r) for r in args.rule)
    try:
        ev, decision = duel(args.env_id, args.agent, args.opponent, args.deals, args.seed,
                            args.jobs, args.sprt, args.alpha, args.batch, **rules)
    except ValueError as err:
        parser.error(str(err))
    deals = len(ev.diffs)
    if args.json:
        print(json.dumps({**ev.summary(), **({"sprt": {
            "delta": args.sprt, "alpha": args.alpha, "decision": decision}} if args.sprt else {})}))
    else:
        (dl, dh), (wl, wh) = ev.diff_interval, ev.win_interval
        print(
            f"{args.agent} vs {args.opponent} on {args.env_id} {rules or ''}: {ev.games} games "
            f"({deals} deals x every seat)\n"
            f"score difference per deal {ev.mean_diff:+.2f} (95% CI {dl:+.2f} to {dh:+.2f})\n"
            f"win rate {ev.win_rate:.3f} (Wilson 95% CI {wl:.3f}-{wh:.3f}), "
            f"mean return {ev.mean_return:+.2f}"
        )
        if args.sprt is not None:
            print(f"sequential test (delta {args.sprt:g}, alpha {args.alpha:g}): "
                  + (f"{decision} after {deals} deals" if decision
                     else f"no decision within {deals} deals"))
    return ev


if __name__ == "__main__":
    main()
