"""Training throughput: learner steps per second of each training script per game, the
configuration of earlier versions against today's in the same run, and where the time goes.

``selfplay_ppo`` trains ``--steps`` learner steps in pure self-play with evaluation off, once per
configuration of ``--configs`` (``CONFIGS``), one torch thread per process, with the hidden width
of the game's shipped model (the trainer's default where none ships): ``previous`` is the
defaults of earlier versions (16 tables x 32 decisions an update, 4 epochs, the rollout in
the learner's process), ``batched`` the batched tables with those epochs (128 tables),
``current`` today's defaults (two rollout worker processes overlapping the update, 2 epochs),
``inprocess`` those with the rollout in the learner's process, ``ray2`` the two workers as Ray
actors (a local Ray). The ratio is each configuration's steps/s over ``previous``'s. The script
times its own phases (``selfplay_ppo.PHASES``): the tables' step (the engines' moves and the
observation and mask of the next mover), the networks' forward passes and sampling, the PPO
update, waiting for the workers' rollouts (with the IPC), and "other" (the rollout's
bookkeeping, advantages, checkpoints). Steps/s and the shares are of the updates' time, which
is what a long run spends; the setup (building the tables, agents and workers) and the final
plot are a separate column of seconds. The tables' step is split into stepping and encoding by
replaying as many steps through the same tables with uniformly random legal moves and timing
the observers' ``encode_into`` inside it (random moves stand in for an untrained policy's, so
read the split as an estimate). With workers, learning, waiting and other split the learner's
time; stepping, encoding and inference are the workers' busy seconds per worker as a share of
the same wall time (they run beside the learner's, so a row sums to more than 100 %).

``sb3_maskable_ppo`` (on the vector view, against random opponents) runs ``SB3_CONFIGS``: its
configuration in earlier versions (8 envs, 64 steps, minibatches of 128, 4 epochs) and
today's defaults; steps/s are of ``MaskablePPO.learn`` and its environment share is replayed
the same way through the single-agent view's ``step``. ``afterstate_value`` (the game whose
spec has an afterstate player) is timed in its two phases, in this process: collecting
``--afterstate-games`` games of its first iteration's player (games/s, and decisions/s: the
discards that become training rows) and fitting its value network to them with its default
epochs (its ``env_share`` is the collection's). The machine is shared: compare rows of one
run, not across runs.

    python -m taas.benchmarks.training --steps 32768 --scripts selfplay_ppo --out results/t.json
"""

from __future__ import annotations

import argparse
import csv
import importlib.util
import json
import tempfile
import time
from pathlib import Path

import numpy as np

import taas.arena
import taas.envs
from taas.envs.core.vector import VectorTables

GAMES = ["continental_v1", "mariage_v1", "marriage_v1", "marriage_nepali_v0", "romme_v1"]
# the configurations of --configs; the ratio is over "previous", the defaults of earlier
# versions (16 tables x 32 decisions, 4 epochs, the rollout in the learner's process)
CONFIGS = {"previous": {"num_tables": 16, "num_steps": 32, "update_epochs": 4, "workers": 1},
           "batched": {"num_tables": 128, "num_steps": 32, "update_epochs": 4, "workers": 1},
           "current": {},  # today's defaults
           "inprocess": {"workers": 1},  # today's defaults with the rollout in this process
           "ray2": {"workers": 2, "backend": "ray"}}
SB3_CONFIGS = {"previous": {"num_envs": 8, "n_steps": 64, "batch_size": 128, "n_epochs": 4},
               "current": {}}


def shipped_hidden(env_id: str) -> int | None:
    """The hidden width of the game's shipped PPO model (speeds are compared at the size that
    ships), or None when the game ships none (the trainer's default then)."""
    from taas.agents.learned.ppo import load_checkpoint, resolve

    learned = taas.envs.spec_for(env_id).learned or ""
    if not learned.startswith("ppo:"):
        return None
    ckpt = load_checkpoint(resolve(learned.removeprefix("ppo:")))
    return ckpt["hidden"] if ckpt["script"] in ("selfplay_ppo", "sb3_maskable_ppo") else None


def encoding_share(env_id: str, num_tables: int, steps: int, seed: int = 0) -> float:
    """The share of the tables' ``step`` spent in the observers' ``encode_into``, over ``steps``
    learner steps of random legal moves at ``num_tables`` tables."""
    tables = VectorTables(env_id, num_tables, seed=seed)
    spent = [0.0]
    for observer in {id(o): o for o in tables.observers}.values():
        def timed(state, player, out, encode=observer.encode_into):
            start = time.perf_counter()
            encode(state, player, out)
            spent[0] += time.perf_counter() - start
        observer.encode_into = timed  # this instance only: the benchmark's own tables
    rng = np.random.default_rng(seed)
    tables.reset()
    stepping = 0.0
    for _ in range(max(1, steps // num_tables)):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in tables.mask])
        start = time.perf_counter()
        tables.step(actions)
        stepping += time.perf_counter() - start
    return min(1.0, spent[0] / stepping)


def single_agent_seconds(env_id: str, steps: int, seed: int = 0) -> float:
    """SB3's environment work for ``steps`` learner steps: the single-agent view's ``step``."""
    env = taas.arena.single_agent_env(env_id, opponents="random", seat=None, seed=seed)
    rng = np.random.default_rng(seed)
    start = time.perf_counter()
    env.reset()
    for _ in range(steps):
        _, _, terminated, truncated, _ = env.step(
            int(rng.choice(np.flatnonzero(env.action_masks()))))
        if terminated or truncated:
            env.reset()
    return time.perf_counter() - start


def selfplay_row(env_id: str, steps: int, config: str, num_tables: int | None = None) -> dict:
    """One self-play run of at least ``steps`` learner steps (whole updates) with the settings
    of ``CONFIGS[config]`` (``num_tables``: instead of the default's, except for ``previous``):
    steps/s and each phase's share of the updates' time."""
    from taas.training import selfplay_ppo

    settings = {"hidden": shipped_hidden(env_id) or selfplay_ppo.Args.hidden,
                **CONFIGS[config]}
    if config != "previous" and num_tables:
        settings["num_tables"] = num_tables
    timings: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as run_dir:
        args = selfplay_ppo.Args(env_id=env_id, run_dir=run_dir, total_steps=steps,
                                 selfplay_prob=1.0, eval_deals=0, progress=False,
                                 tensorboard=False, threads=1, **settings)
        start = time.perf_counter()
        selfplay_ppo.train(args, timings)
        seconds = time.perf_counter() - start
        with open(Path(run_dir) / "curve.csv", newline="") as f:
            steps = int(list(csv.DictReader(f))[-1]["global_step"])  # whole updates
    # the updates, without the setup and the final plot
    loop = sum(timings[k] for k in selfplay_ppo.PHASES)
    local = args.workers == 1 and args.backend == "local"
    # in-process: this process's seconds; with workers: theirs per worker, beside the learner's
    env, inference = ((timings["env"], timings["inference"]) if local else
                      (timings["worker_env"] / args.workers,
                       timings["worker_inference"] / args.workers))
    encoding = env * encoding_share(env_id, args.num_tables, steps)
    shares = {"env_stepping": env - encoding, "encoding": encoding, "inference": inference,
              "learning": timings["learning"], "waiting": timings["waiting"],
              "other": timings["other"]}
    return {"script": "selfplay_ppo", "config": config, "env_id": env_id,
            "num_tables": args.num_tables, "num_steps": args.num_steps, "workers": args.workers,
            "hidden": args.hidden, "update_epochs": args.update_epochs,
            "backend": args.backend, "steps": steps, "seconds": loop,
            "setup_seconds": seconds - loop, "steps_per_s": steps / loop, "env_share": env / loop,
            **{f"{k}_share": v / loop for k, v in shares.items()}}


def sb3_row(env_id: str, steps: int, config: str) -> dict:
    """One SB3 run against random opponents with ``SB3_CONFIGS[config]`` on the vector view:
    steps/s of ``MaskablePPO.learn`` (without the setup and the plot) and its replayed env
    share."""
    from taas.training import sb3_maskable_ppo

    timings: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as run_dir:
        args = sb3_maskable_ppo.Args(
            env_id=env_id, run_dir=run_dir, total_steps=steps, eval_every=10**9, eval_deals=0,
            progress=False, hidden=shipped_hidden(env_id) or sb3_maskable_ppo.Args.hidden,
            **SB3_CONFIGS[config])
        start = time.perf_counter()
        sb3_maskable_ppo.train(args, timings)
        seconds = time.perf_counter() - start
    rollout = args.num_envs * args.n_steps
    steps = -(-steps // rollout) * rollout  # SB3 learns whole rollouts
    env_s = single_agent_seconds(env_id, steps)
    learn = timings["learning"]
    return {"script": "sb3_maskable_ppo", "config": config, "env_id": env_id,
            "num_envs": args.num_envs, "n_steps": args.n_steps, "batch_size": args.batch_size,
            "hidden": args.hidden, "steps": steps, "seconds": learn,
            "setup_seconds": seconds - learn, "steps_per_s": steps / learn,
            "env_share": min(1.0, env_s / learn)}


def afterstate_row(games: int) -> dict:
    """The afterstate trainer's first iteration on ``games`` games: collection, then the fit."""
    import torch

    from taas.agents.learned.ppo import afterstate_player, mlp
    from taas.training import afterstate_value

    args = afterstate_value.Args(games=games, chunk_games=games)
    env_id = args.env_id  # the trainer's default: the game whose model it made
    player = taas.envs.spec_for(env_id).default_opponent
    rules = {"num_players": args.num_players}
    with tempfile.TemporaryDirectory() as run_dir:
        path = Path(run_dir) / "chunk.npz"
        start = time.perf_counter()
        afterstate_value.collect((env_id, player, rules, afterstate_value.chunk_seeds(
            args, 0, 0), args.epsilon, path))
        collecting = time.perf_counter() - start
        data = dict(np.load(path))
    net = mlp(afterstate_player(env_id).NUM_FEATURES, args.hidden, 1, out_gain=1.0)
    start = time.perf_counter()
    afterstate_value.fit(net, data, args, torch.Generator().manual_seed(0))
    fitting = time.perf_counter() - start
    decisions = len(data["targets"])
    return {"script": "afterstate_value", "config": "current", "env_id": env_id,
            "games": games, "decisions": decisions, "steps": decisions,  # its training rows
            "seconds": collecting + fitting,
            "games_per_s": games / collecting, "decisions_per_s": decisions / collecting,
            "steps_per_s": decisions / (collecting + fitting),
            "env_share": collecting / (collecting + fitting)}


COLUMNS = ("env_stepping", "encoding", "inference", "learning", "waiting", "other")
LEARNER_COLUMNS = ("learning", "waiting", "other")  # with workers, the learner's own split


def main(argv: list[str] | None = None) -> list[dict]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=8192,
                        help="learner steps per run (default: %(default)s)")
    parser.add_argument("--games", default=",".join(GAMES),
                        help="env ids (default: %(default)s)")
    parser.add_argument("--scripts", default="selfplay_ppo,sb3_maskable_ppo,afterstate_value",
                        help="training scripts (default: %(default)s)")
    parser.add_argument("--afterstate-games", type=int, default=40,
                        help="games the afterstate trainer collects (default: %(default)s)")
    parser.add_argument("--configs", default="previous,batched,current,ray2",
                        help=f"selfplay_ppo's configurations, of {', '.join(CONFIGS)}; previous "
                        "always runs, first: the ratios are over it (default: %(default)s)")
    parser.add_argument("--num-tables", type=int,
                        help="selfplay_ppo's tables in every configuration but previous "
                        "(default: its own default)")
    parser.add_argument("--out", help="write the rows as JSON here")
    args = parser.parse_args(argv)
    if args.steps <= 0:
        parser.error(f"--steps {args.steps}: expected a positive number of learner steps")
    configs = args.configs.split(",")
    if not set(configs) <= set(CONFIGS):
        parser.error(f"--configs {args.configs}: expected any of "
                     f"{', '.join(CONFIGS)}")
    configs = ["previous", *[c for c in configs if c != "previous"]]  # the ratios' base first
    if "ray2" in configs and importlib.util.find_spec("ray") is None:
        print("ray2 left out: Ray is not installed (pip install -e '.[ray]')")
        configs.remove("ray2")
    import matplotlib.pyplot  # noqa: F401  (imported once here, not inside the first timing)
    import torch

    torch.set_num_threads(1)
    torch.optim.Adam([torch.zeros(1)])  # its first use imports torch._dynamo: seconds
    rows = []
    print(f"{'script':<18}{'env':<20}{'config':<10}{'steps/s':>8}{'ratio':>7}{'env':>6}"
          + "".join(f"{c.replace('env_', ''):>10}" for c in COLUMNS) + f"{'setup s':>9}")
    for script in args.scripts.split(","):
        if script == "afterstate_value":  # one game has an afterstate player
            row = afterstate_row(args.afterstate_games)
            rows.append(row)
            print(f"{script:<18}{row['env_id']:<20}{row['config']:<10}"
                  f"{row['steps_per_s']:>8.0f}{'':>7}{row['env_share']:>6.0%}  "
                  f"{row['games_per_s']:.2f} games/s, {row['decisions_per_s']:.0f} "
                  "decisions/s while collecting; steps/s counts the fit too", flush=True)
            continue
        for env_id in args.games.split(","):
            encoding_share(env_id, 2, 50)  # compile the engine's kernels outside the timing
            if script == "selfplay_ppo":
                pair = [selfplay_row(env_id, args.steps, c, args.num_tables) for c in configs]
            else:
                pair = [sb3_row(env_id, args.steps, c) for c in SB3_CONFIGS]
            for row in pair:
                row["ratio"] = row["steps_per_s"] / pair[0]["steps_per_s"]  # over previous
            for row in pair:
                rows.append(row)
                ratio = f"{row['ratio']:.2f}x"
                split = "".join(f"{row[c + '_share']:>10.0%}" if c + "_share" in row else
                                f"{'':>10}" for c in COLUMNS)
                print(f"{script:<18}{env_id:<20}{row['config']:<10}{row['steps_per_s']:>8.0f}"
                      f"{ratio:>7}{row['env_share']:>6.0%}{split}"
                      f"{row.get('setup_seconds', float('nan')):>9.1f}", flush=True)
    if args.out:
        with open(args.out, "w") as f:
            json.dump(rows, f, indent=1)
    return rows


if __name__ == "__main__":
    main()
