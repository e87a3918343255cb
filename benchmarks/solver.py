"""Meld-solver benchmark: time per show check (the Marriage discard mask on 22 cards) and per
deadwood score (21 cards), on random-play hands and on near-show hands.

    python -m taas.benchmarks.solver [--hands N] [--seed S] [--wraparound]
        [--out results/solver.json]

Random-play hands: a 21-card deal from a 3-deck + 3-joker shoe with a random wild rank, then a
random number of turns of drawing from the stock and discarding a random card. Near-show
hands: about 21 cards dealt as runs and groups (a few wilds mixed in) plus one stray card.
Set TAAS_NO_NUMBA=1 to time the plain-Python kernel; ``--wraparound`` times the same hands with
K-A-2 runs allowed (a sweep per way of making the runs round the corner).
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable

import numpy as np

from taas.envs.core.cards import JOKER, NUM_KINDS, kind, shoe, shuffled
from taas.envs.core.jit import HAVE_NUMBA
from taas.envs.rummy.melds import MeldRules, card_values, deadwood, show_discards, wild_mask


def marriage_rules(wild_rank: int, wraparound: bool = False) -> MeldRules:
    return MeldRules(wild=wild_mask(ranks=[wild_rank]), values=card_values(), lives_required=1,
                     allow_wraparound=wraparound)


def random_play_hand(rng: np.random.Generator) -> tuple[np.ndarray, int]:
    deck = shuffled(shoe(3, 3), rng)
    counts = np.zeros(NUM_KINDS, np.int64)
    for card in deck[:21]:
        counts[card] += 1
    stock = deck[21:]
    for _ in range(int(rng.integers(0, 15))):
        counts[stock.pop()] += 1
        counts[rng.choice(np.flatnonzero(counts))] -= 1
    counts[stock.pop()] += 1
    return counts, int(rng.integers(13))


def near_show_hand(rng: np.random.Generator) -> tuple[np.ndarray, int]:
    wild_rank = int(rng.integers(13))
    avail = shoe(3, 3).astype(np.int64)
    counts = np.zeros(NUM_KINDS, np.int64)

    def take(k: int) -> None:
        if avail[k] == 0:  # that copy is gone: a wild instead
            k = JOKER if avail[JOKER] else kind(wild_rank, int(rng.integers(4)))
        if avail[k]:
            avail[k] -= 1
            counts[k] += 1

    def take_natural_or_wild(k: int) -> None:
        take(JOKER if rng.random() < 0.12 else k)

    while counts.sum() < 21:
        if rng.random() < 0.55:
            s, length = int(rng.integers(4)), int(rng.integers(3, 6))
            a = int(rng.integers(0, 15 - length))
            for q in range(a, a + length):
                take_natural_or_wild(kind(q % 13, s))
        else:
            r = int(rng.integers(13))
            for _ in range(int(rng.integers(3, 5))):
                take_natural_or_wild(kind(r, int(rng.integers(4))))
    while counts.sum() > 21:
        counts[rng.choice(np.flatnonzero(counts))] -= 1
    take(int(rng.integers(52)))
    return counts, wild_rank


def time_us(fn: Callable, counts: np.ndarray, rules: MeldRules) -> float:
    start = time.perf_counter()
    fn(counts, rules)
    return (time.perf_counter() - start) * 1e6


def run(hands: int, seed: int, wraparound: bool = False) -> dict:
    rng = np.random.default_rng(seed)
    sets = {"random_play": [random_play_hand(rng) for _ in range(hands)],
            "near_show": [near_show_hand(rng) for _ in range(hands)]}
    for w in range(13):  # compile (or load) the kernel and the rule tables outside the timing
        for counts, _ in sets["near_show"][:3] + sets["random_play"][:3]:
            show_discards(counts, marriage_rules(w, wraparound))
            deadwood(counts, marriage_rules(w, wraparound))
    results: dict = {"numba": HAVE_NUMBA, "hands": hands, "seed": seed, "wraparound": wraparound}
    for name, pairs in sets.items():
        show, score = [], []
        wilds = []
        for counts, wild_rank in pairs:
            rules = marriage_rules(wild_rank, wraparound)
            show.append(time_us(show_discards, counts, rules))
            less = counts.copy()
            less[rng.choice(np.flatnonzero(counts))] -= 1
            score.append(time_us(deadwood, less, rules))
            wilds.append(int(counts[JOKER] + counts[[kind(wild_rank, s) for s in range(4)]].sum()))
        for label, xs in (("show_22", show), ("deadwood_21", score)):
            a = np.array(xs)
            results[f"{name}/{label}"] = {
                "median_us": float(np.median(a)), "p99_us": float(np.percentile(a, 99)),
                "mean_us": float(a.mean()), "max_us": float(a.max())}
        results[f"{name}/mean_wilds"] = float(np.mean(wilds))
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000, help="hands per set")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--wraparound", action="store_true", help="allow K-A-2 runs")
    parser.add_argument("--out", help="write the results as JSON here")
    args = parser.parse_args()
    results = run(args.hands, args.seed, args.wraparound)
    print(f"meld solver, numba={'on' if results['numba'] else 'off'}, {args.hands} hands per set"
          + (", wrap-around runs" if args.wraparound else ""))
    print(f"{'set / call':32} {'median us':>10} {'p99 us':>10} {'mean us':>10} {'max us':>10}")
    for key, row in results.items():
        if isinstance(row, dict):
            print(f"{key:32} {row['median_us']:10.0f} {row['p99_us']:10.0f} "
                  f"{row['mean_us']:10.0f} {row['max_us']:10.0f}")
    for key in ("random_play/mean_wilds", "near_show/mean_wilds"):
        print(f"{key}: {results[key]:.1f}")
    if args.out:
        with open(args.out, "w") as f:
            json.dump(results, f, indent=2)


if __name__ == "__main__":
    main()
