"""Tournament throughput: games per second of a ``random`` vs ``random`` tournament with 1 and
with 2 local worker processes (the whole run: scheduling, worker start, play, one SQLite
transaction per game).

Runs alternate 1 worker, 2 workers, ``--reps`` times, each into a fresh folder, and the table
reports medians, so a slow spell of a shared machine hits both alike; the speed-up is the number
to compare (the target is 1.7x or more on a quiet 2-core machine).

    python -m taas.benchmarks.tournament [--env romme_v1] [--deals 20] [--out results/t.json]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import tempfile
import time

from taas import tournament


def games_per_second(definition: tournament.Definition, workers: int) -> float:
    with tempfile.TemporaryDirectory() as out:
        start = time.perf_counter()
        played, _ = tournament.run(definition, out, workers=workers, progress=False)
        return played / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--env", default="romme_v1")
    parser.add_argument("--players", type=int, default=None, help="default: the env's")
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--out", help="write the results as JSON here")
    args = parser.parse_args(argv)
    definition = tournament.define(args.env, ["random", "random"], args.players, args.deals)
    games_per_second(definition, 1)  # warm up: compile and load the engine once
    rates: dict[int, list[float]] = {1: [], 2: []}
    for _ in range(args.reps):
        for workers in rates:
            rates[workers].append(games_per_second(definition, workers))
    one, two = (statistics.median(rates[w]) for w in (1, 2))
    result = {
        "env_id": args.env, "players": definition.players, "deals": args.deals,
        "games": len(tournament.schedule(definition)),
        "games_per_s_1_worker": one, "games_per_s_2_workers": two, "speedup": two / one,
        "runs": {str(w): r for w, r in rates.items()},
        "cpus": os.cpu_count(), "load_average": os.getloadavg(),
        "python": platform.python_version(),
    }
    print(f"{args.env}: {result['games']} games, random vs random; median games/s: "
          f"1 worker {one:.1f}, 2 workers {two:.1f}, speed-up {two / one:.2f}x "
          f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs)")
    if args.out:
        os.makedirs(os.path.dirname(args.out) or ".", exist_ok=True)
        with open(args.out, "w") as f:
            json.dump(result, f, indent=1)
    return result


if __name__ == "__main__":
    main()
