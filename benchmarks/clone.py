"""State copy cost: µs per ``clone()`` of a mid-round state against µs per engine step.

Search agents clone the state at every node, so a clone should cost about as much as a step or
less. For every registered env (4 players; 2 for Mariage) the benchmark deals a few states,
plays random legal moves into the middle of the round (avoiding moves that end it), then times
``clone()`` on those states and random legal play (legal mask + apply) of the same engine.
Clone and step slices alternate ``--reps`` times and the table reports medians, so a slow
spell of this shared machine hits both alike; the ratio is the number to compare.

    python -m taas.benchmarks.clone --out results/clone.json
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import time
from dataclasses import fields

import numpy as np

import taas.envs


def mid_round_states(game, seeds: range, moves: int) -> list:
    """One state per seed, ``moves`` random legal moves into its first round."""
    out = []
    for seed in seeds:
        rng = np.random.default_rng(seed)
        state = game.new_state(np.random.default_rng(seed))
        for _ in range(moves):
            for action in rng.permutation(np.flatnonzero(game.legal_mask(state))):
                trial = state.clone()
                game.apply_action(trial, int(action))
                if not game.is_terminal(trial):
                    state = trial
                    break
        out.append(state)
    return out


def time_clones(states: list, seconds: float) -> float:
    """µs per clone, cycling over ``states`` for about ``seconds`` (at least one pass, so a
    stalled machine cannot leave nothing to divide by)."""
    n, start = 0, time.perf_counter()
    while True:
        for s in states:
            s.clone()
        n += len(states)
        if (elapsed := time.perf_counter() - start) >= seconds:
            return elapsed / n * 1e6


def time_steps(game, rng: np.random.Generator, seconds: float) -> float:
    """µs per decision step of random legal play (legal mask + apply), new episodes as needed;
    at least one batch of 50."""
    n, start = 0, time.perf_counter()
    state = game.new_state(rng)
    while True:
        for _ in range(50):
            if game.is_terminal(state):
                state = game.new_state(rng)
            legal = np.flatnonzero(game.legal_mask(state))
            game.apply_action(state, int(legal[rng.integers(len(legal))]))
        n += 50
        if (elapsed := time.perf_counter() - start) >= seconds:
            return elapsed / n * 1e6


def engine(env_id: str):
    """The env's engine at 4 players where the game has a player count."""
    config_cls = type(taas.envs.make(env_id, wrapped=False).game.config)
    rules = {"num_players": 4} if "num_players" in {f.name for f in fields(config_cls)} else {}
    return taas.envs.make(env_id, wrapped=False, **rules).game


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--envs", nargs="*", default=taas.envs.available_envs())
    parser.add_argument("--states", type=int, default=8, help="mid-round states per env")
    parser.add_argument("--moves", type=int, default=30, help="random moves into the round")
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--slice", type=float, default=0.3, help="seconds per timing slice")
    parser.add_argument("--out", help="write the results as JSON here")
    args = parser.parse_args(argv)

    setups = {}
    for env_id in args.envs:
        game = engine(env_id)
        moves = min(args.moves, 8) if game.num_players == 2 else args.moves
        setups[env_id] = (game, mid_round_states(game, range(args.states), moves))
        time_steps(game, np.random.default_rng(0), 0.05)  # warm caches and compiled code
    clone_us = {e: [] for e in setups}
    step_us = {e: [] for e in setups}
    for rep in range(args.reps):
        for env_id, (game, states) in setups.items():
            clone_us[env_id].append(time_clones(states, args.slice))
            step_us[env_id].append(time_steps(game, np.random.default_rng(rep), args.slice))

    rows = []
    for env_id, (game, _) in setups.items():
        c, s = statistics.median(clone_us[env_id]), statistics.median(step_us[env_id])
        rows.append({"env": env_id, "players": game.num_players, "clone_us": round(c, 2),
                     "step_us": round(s, 2), "clone_per_step": round(c / s, 3)})
    print(f"{'env':<18}{'players':>8}{'µs/clone':>11}{'µs/step':>10}{'clone/step':>12}")
    for r in rows:
        print(f"{r['env']:<18}{r['players']:>8}{r['clone_us']:>11.1f}{r['step_us']:>10.1f}"
              f"{r['clone_per_step']:>12.2f}")
    result = {"rows": rows, "args": vars(args), "python": platform.python_version(),
              "machine": platform.machine()}
    if args.out:
        with open(args.out, "w") as f:
            json.dump(result, f, indent=2)
    return result


if __name__ == "__main__":
    main()
