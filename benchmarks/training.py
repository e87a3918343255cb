"""Training throughput: learner steps per second of each training script per game, and the
share of that time spent in the environment rather than in the network.

Each script trains for ``--steps`` learner steps with evaluation off (pure self-play for
``selfplay_ppo``, random opponents for ``sb3_maskable_ppo``). The environment's share is then
measured by replaying as many steps through the same environment alone, with uniformly random
legal moves instead of the network's (for self-play: every seat's observation, mask and move,
as the script computes them; for SB3: ``step`` of the single-agent view with its opponents), and
dividing that time by the script's. Random moves stand in for an untrained policy's, so read the
share as an estimate. The machine is shared: compare rows of one run, not across runs.

    python -m taas.benchmarks.training --steps 2048 --out results/training.json
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time

import numpy as np

import taas.agents
import taas.arena
import taas.envs

GAMES = ["continental_v1", "mariage_v1", "marriage_v1", "romme_v1"]


def engine_seconds(env_id: str, steps: int, seed: int = 0) -> float:
    """Self-play's environment work for ``steps`` moves: observe, mask, apply, redeal."""
    raw = taas.envs.make(env_id, wrapped=False)
    game, observer, rng = raw.game, raw.observer, np.random.default_rng(seed)
    start = time.perf_counter()
    state = game.new_state(rng)
    for _ in range(steps):
        player = game.current_player(state)
        observer.encode(state, player)
        game.apply_action(state, int(rng.choice(np.flatnonzero(game.legal_mask(state)))))
        if game.is_terminal(state):
            state = game.new_state(rng)
    return time.perf_counter() - start


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


def script_seconds(script: str, env_id: str, steps: int) -> tuple[int, float]:
    """Learner steps taken and seconds spent by one short training run."""
    from taas.training import sb3_maskable_ppo, selfplay_ppo

    with tempfile.TemporaryDirectory() as run_dir:
        start = time.perf_counter()
        if script == "selfplay_ppo":
            args = selfplay_ppo.Args(env_id=env_id, run_dir=run_dir, total_steps=steps,
                                     num_envs=16, num_steps=32, selfplay_prob=1.0,
                                     eval_deals=0, progress=False, tensorboard=False)
            selfplay_ppo.train(args)
        else:
            args = sb3_maskable_ppo.Args(env_id=env_id, run_dir=run_dir, total_steps=steps,
                                         num_envs=8, n_steps=64, batch_size=128,
                                         eval_every=10**9, eval_deals=0, progress=False)
            sb3_maskable_ppo.train(args)
        seconds = time.perf_counter() - start
    return steps, seconds


def main(argv: list[str] | None = None) -> list[dict]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=2048, help="learner steps per run")
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--scripts", default="selfplay_ppo,sb3_maskable_ppo")
    parser.add_argument("--out", help="write the rows as JSON here")
    args = parser.parse_args(argv)
    import matplotlib.pyplot  # noqa: F401  (imported once here, not inside the first timing)
    import torch

    torch.set_num_threads(1)
    torch.optim.Adam([torch.zeros(1)])  # its first use imports torch._dynamo: seconds
    rows = []
    print(f"{'script':<18}{'env':<16}{'steps/s':>9}{'env share':>11}")
    for script in args.scripts.split(","):
        for env_id in args.games.split(","):
            engine_seconds(env_id, 50)  # compile the engine's kernels outside the timing
            steps, seconds = script_seconds(script, env_id, args.steps)
            env_time = (engine_seconds if script == "selfplay_ppo" else single_agent_seconds)(
                env_id, steps)
            row = {"script": script, "env_id": env_id, "steps": steps, "seconds": seconds,
                   "steps_per_s": steps / seconds, "env_share": min(1.0, env_time / seconds)}
            rows.append(row)
            print(f"{script:<18}{env_id:<16}{row['steps_per_s']:>9.0f}{row['env_share']:>10.0%}")
    if args.out:
        with open(args.out, "w") as f:
            json.dump(rows, f, indent=1)
    return rows


if __name__ == "__main__":
    main()
