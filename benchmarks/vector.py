"""Batched tables against the AEC loop: decision steps per second with observations and masks.

Every runner plays the same number ``B`` of tables in lockstep (one decision per table per
round, a finished table dealt again at once), uniformly random legal moves, from fresh deals
seeded ``seed + i``, so all of them visit the same mix of positions (a rummy round's steps get
dearer as it goes on; tables measured from their deal would flatter a runner measured against
whole episodes). Runners take interleaved time slices (``speed.measure``: a slow spell of the
shared machine hits every runner alike); the ratio is against the AEC row of the same env.

Runners per env
- ``AEC``: ``B`` envs (``taas.envs.make``), each ``env.last()`` (observation and mask) then
  ``env.step``, ``env.reset()`` after an episode: the PettingZoo loop a learner writes.
- ``vector``: :class:`~taas.envs.core.vector.VectorTables` of ``B`` tables: one ``step``
  writes every table's next observation and mask into the batch arrays (auto-reset included).
- ``engine``: ``B`` engine states, legal mask and apply only, no observation: the ceiling.
- with ``--single-agent``: the single-agent Gymnasium view against random opponents, ``B``
  envs in ``SingleAgentVectorEnv`` and in Gymnasium's ``SyncVectorEnv`` (learner steps/s; the
  opponents' moves are not counted).

    nice -n 10 python -m taas.benchmarks.vector --tables 64
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

import taas.agents
import taas.arena
import taas.envs
from taas.benchmarks.speed import CASES, Runner, measure
from taas.envs.core.vector import SingleAgentVectorEnv, VectorTables


def _random_legal(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    """One uniform legal action per row of ``masks``, for the whole batch at once."""
    return (rng.random(masks.shape) * masks).argmax(axis=1)


def aec_tables(env_id: str, rules: dict, seed: int, tables: int) -> Runner:
    envs = [taas.envs.make(env_id, **rules) for _ in range(tables)]
    for i, env in enumerate(envs):
        env.reset(seed=seed + i)
    rng = np.random.default_rng(seed)
    while True:
        for env in envs:
            obs = env.last()[0]
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            if env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
                env.reset()
        yield tables


def engine_tables(env_id: str, rules: dict, seed: int, tables: int) -> Runner:
    game = taas.envs.make(env_id, wrapped=False, **rules).game
    rngs = [np.random.default_rng(seed + i) for i in range(tables)]
    states = [game.new_state(r) for r in rngs]
    rng = np.random.default_rng(seed)
    while True:
        for i, state in enumerate(states):
            legal = np.flatnonzero(game.legal_mask(state))
            game.apply_legal(state, int(legal[rng.integers(len(legal))]))
            if game.is_terminal(state):
                states[i] = game.new_state(rngs[i])
        yield tables


def taas_vector(env_id: str, rules: dict, seed: int, tables: int) -> Runner:
    vec = VectorTables(env_id, tables, seed=seed, **rules)
    vec.reset()
    rng = np.random.default_rng(seed)
    while True:
        vec.step(_random_legal(rng, vec.mask))
        yield tables


def single_agent(env_id: str, rules: dict, seed: int, tables: int, sync: bool) -> Runner:
    from gymnasium.vector import AutoresetMode, SyncVectorEnv

    envs = [taas.arena.single_agent_env(env_id, seat=None, seed=seed + i, **rules)
            for i in range(tables)]
    venv = (SyncVectorEnv([lambda e=e: e for e in envs], autoreset_mode=AutoresetMode.SAME_STEP)
            if sync else SingleAgentVectorEnv(envs))
    venv.reset(seed=seed)
    rng = np.random.default_rng(seed)
    while True:
        masks = np.stack(venv.call("action_masks")) if sync else venv.action_masks()
        venv.step(_random_legal(rng, masks))
        yield tables


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--envs", default=",".join(dict.fromkeys(c[0] for c in CASES)))
    parser.add_argument("--tables", type=int, default=64, help="tables in a batch")
    parser.add_argument("--slice", type=float, default=1.0, help="seconds per time slice")
    parser.add_argument("--reps", type=int, default=5, help="interleaved slices per runner")
    parser.add_argument("--single-agent", action="store_true",
                        help="also the single-agent view: vector view vs SyncVectorEnv")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", help="write the results as JSON here")
    args = parser.parse_args(argv)

    b, first = args.tables, {}
    for env_id, rules in CASES:  # speed's first case of each env
        first.setdefault(env_id, rules)
    cases = [(e, first[e]) for e in args.envs.split(",")]
    runners = {}
    for env_id, rules in cases:
        for name, runner in (("AEC", aec_tables), ("vector", taas_vector),
                             ("engine", engine_tables)):
            runners[f"{env_id} {name} {b}"] = (
                lambda e=env_id, r=rules, f=runner: f(e, r, args.seed, b))
        if args.single_agent:
            for name, sync in (("SyncVectorEnv", True), ("SingleAgentVectorEnv", False)):
                runners[f"{env_id} single-agent {name} {b}"] = (
                    lambda e=env_id, r=rules, s=sync: single_agent(e, r, args.seed, b, s))
    results = measure(runners, args.slice, args.reps)

    width = max(len(name) for name in results)
    header = f"{'runner':{width}} {'steps/s':>10} {'x AEC':>7}"
    print(header)
    print("-" * len(header))
    for name, row in results.items():
        env_id = name.split()[0]
        base = results[f"{env_id} AEC {b}"]["steps_per_s"]
        if "SingleAgentVectorEnv" in name:  # against its SyncVectorEnv twin
            base = results[name.replace("SingleAgentVectorEnv", "SyncVectorEnv")]["steps_per_s"]
        row["ratio"] = row["steps_per_s"] / base
        print(f"{name:{width}} {row['steps_per_s']:10.0f} {row['ratio']:7.2f}")
    print("(single-agent SingleAgentVectorEnv rows: x SyncVectorEnv of the same envs)"
          if args.single_agent else "")
    report = {"tables": b, "slice_s": args.slice, "reps": args.reps,
              "cases": [{"env_id": e, "rules": r} for e, r in cases], "results": results}
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(json.dumps(report, indent=2))
        print(f"written to {args.out}")
    return report


if __name__ == "__main__":
    main()
