"""Environment speed: random legal play, Taas against the reference rummy environments.

Each runner plays random legal moves for a short time slice and counts decision steps and
finished episodes. All runners take turns slice by slice (``--reps`` rounds of interleaved
slices) and the table reports each runner's median, so a slow spell of this shared machine
hits every runner alike. Ratios are against peers measured in the same run.

Runners
- ``<env> AEC``: the PettingZoo AEC API as a learner sees it (``env()``): ``last()`` (which
  builds the observation and action mask) then ``step`` on every move.
- ``<env> engine``: the rules engine alone (legal mask + apply, no observation).
- ``rlcard gin-rummy``: RLCard's own step loop (``env.step`` builds the next state's
  observation and legal actions).
- ``open_spiel gin_rummy``: OpenSpiel's C++ game via pyspiel with ``observation_tensor`` and
  ``legal_actions`` on every decision step; chance steps (the deal) are applied but not counted.

Peers need the ``peers`` extra (``pip install -e ".[peers]"``); without it only Taas rows
are printed.

    python -m taas.benchmarks.speed --out results/speed.json
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import time
from collections.abc import Callable, Iterator

import numpy as np

import taas.envs

# (env id, rules) measured by default; an env not yet registered is skipped.
CASES = [
    ("continental_v1", {"num_players": 4}),
    ("marriage_v1", {"num_players": 4}),
    ("marriage_nepali_v0", {"num_players": 4}),
    ("mariage_v1", {}),
    ("mariage_v1", {"allow_false_claims": False}),
    ("romme_v1", {"num_players": 4}),
]

Runner = Iterator[int]  # yields after each finished episode the decision steps it took


def taas_aec(env_id: str, rules: dict, seed: int) -> Runner:
    env = taas.envs.make(env_id, **rules)
    rng = np.random.default_rng(seed)
    episode = 0
    while True:
        env.reset(seed=seed + episode)
        steps = 0
        for _ in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
        episode += 1
        yield steps


def taas_engine(env_id: str, rules: dict, seed: int) -> Runner:
    game = taas.envs.make(env_id, **rules).unwrapped.game
    rng = np.random.default_rng(seed)
    while True:
        state = game.new_state(rng)
        steps = 0
        while not game.is_terminal(state):
            legal = np.flatnonzero(game.legal_mask(state))
            game.apply_action(state, int(legal[rng.integers(len(legal))]))
            steps += 1
        yield steps


def rlcard_gin_rummy(seed: int) -> Runner:
    import rlcard

    env = rlcard.make("gin-rummy", config={"seed": seed})
    rng = np.random.default_rng(seed)
    while True:
        state, _ = env.reset()
        steps = 0
        while not env.is_over():
            legal = list(state["legal_actions"])
            state, _ = env.step(legal[rng.integers(len(legal))])
            steps += 1
        yield steps


def open_spiel_gin_rummy(seed: int) -> Runner:
    import pyspiel

    game = pyspiel.load_game("gin_rummy")
    rng = np.random.default_rng(seed)
    while True:
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(outcomes[rng.choice(len(outcomes), p=probs)])
                continue
            state.observation_tensor(state.current_player())
            legal = state.legal_actions()
            state.apply_action(legal[rng.integers(len(legal))])
            steps += 1
        yield steps


def _peers(seed: int) -> dict[str, Callable[[], Runner]]:
    found = {}
    try:
        import rlcard  # noqa: F401

        found["rlcard gin-rummy"] = lambda: rlcard_gin_rummy(seed)
    except ImportError:
        pass
    try:
        import pyspiel  # noqa: F401

        found["open_spiel gin_rummy"] = lambda: open_spiel_gin_rummy(seed)
    except ImportError:
        pass
    return found


def measure(runners: dict[str, Callable[[], Runner]], slice_s: float, reps: int) -> dict:
    """Interleave time slices of every runner; per runner, the median steps/s and episodes/s."""
    live = {name: make() for name, make in runners.items()}
    samples: dict[str, list[tuple[float, float]]] = {name: [] for name in live}
    for _ in range(reps):
        for name, runner in live.items():
            steps = episodes = 0
            start = time.perf_counter()
            while time.perf_counter() - start < slice_s:
                steps += next(runner)
                episodes += 1
            elapsed = time.perf_counter() - start
            samples[name].append((steps / elapsed, episodes / elapsed))
    return {
        name: {
            "steps_per_s": statistics.median(s for s, _ in rows),
            "episodes_per_s": statistics.median(e for _, e in rows),
            "slices": len(rows),
        }
        for name, rows in samples.items()
    }


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--envs", default=",".join(c[0] for c in CASES))
    parser.add_argument("--slice", type=float, default=1.0, help="seconds per time slice")
    parser.add_argument("--reps", type=int, default=7, help="interleaved slices per runner")
    parser.add_argument("--no-peers", action="store_true")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", help="write the results as JSON here")
    args = parser.parse_args(argv)

    wanted = set(args.envs.split(","))
    runners: dict[str, Callable[[], Runner]] = {}
    cases = [(e, r) for e, r in CASES if e in wanted and e in taas.envs.available_envs()]
    for env_id, rules in cases:
        label = env_id + "".join(f" {k}={v}" for k, v in rules.items() if k != "num_players")
        label += f" {rules['num_players']}p" if "num_players" in rules else ""
        runners[f"{label} AEC"] = lambda e=env_id, r=rules: taas_aec(e, r, args.seed)
        runners[f"{label} engine"] = lambda e=env_id, r=rules: taas_engine(e, r, args.seed)
    peers = {} if args.no_peers else _peers(args.seed)
    runners.update(peers)
    results = measure(runners, args.slice, args.reps)

    width = max(len(name) for name in results)
    header = f"{'runner':{width}} {'steps/s':>10} {'episodes/s':>11}" + "".join(
        f" {'x ' + p.split()[0]:>12}" for p in peers
    )
    print(header)
    print("-" * len(header))
    for name, row in results.items():
        ratios = "".join(f" {row['steps_per_s'] / results[p]['steps_per_s']:12.2f}" for p in peers)
        print(f"{name:{width}} {row['steps_per_s']:10.0f} {row['episodes_per_s']:11.2f}{ratios}")
    report = {
        "machine": {"python": platform.python_version(), "processor": platform.machine()},
        "slice_s": args.slice,
        "reps": args.reps,
        "cases": [{"env_id": e, "rules": r} for e, r in cases],
        "results": results,
    }
    if args.out:
        from pathlib import Path

        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(json.dumps(report, indent=2))
        print(f"\nwritten to {args.out}")
    return report


if __name__ == "__main__":
    main()
