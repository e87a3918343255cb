"""Afterstate values for Continental Rummy: Monte-Carlo regression, then greedy play (policy
iteration), the method behind the shipped ``ppo:continental``.

    python -m taas.training.afterstate_value --num-players 4 --games 20000 --iterations 2 \\
        --run-dir runs/continental_value

Why: a Continental turn is "draw one card, shed one", and suits never matter (groups only), so
what a decision leaves behind is an *afterstate*: the seat's count per rank and jokers, and
what it knows about the live cards (:mod:`taas.agents.learned.continental_value` lists the
features).
Every seat's every discard is a training example whose target is the seat's score difference
at the end of the round (its return minus the mean of the others', the number the strength
benchmark reports). A network fitted to those targets is the value of the afterstates *under
the policy that played the games*; a player that picks, at each discard, the afterstate with
the highest value (and draws by the expected value of the best discard after each possible
draw) improves on that policy as far as the values are right (policy improvement). Iteration 0
plays ``heuristic`` in every seat; iteration ``k`` plays iteration ``k-1``'s player, each
move replaced by a random one of the player's candidates with probability ``--epsilon``, so the
values also see the afterstates the player does not choose. Behaviour cloning and PPO stayed
level with ``heuristic`` here (docs/training/models.md); this is the method that passed it.

Algorithm logic, per iteration:
  1. collect ``--games`` games in ``--jobs`` processes, in chunks of ``--chunk-games`` saved as
     ``data/iter<k>_<c>.npz`` (rows of features, targets, game seeds, seats); a rerun skips the
     chunks on disk, so a crash loses at most the chunks in progress;
  2. fit the value network (:func:`taas.agents.learned.mlp`, tanh, ``--hidden``) to the
     targets times ``--reward-scale`` by mean squared error on this iteration's games, a tenth
     of the games held out (the curve's ``val_r2``), starting from the previous iteration's
     network;
  3. evaluate the greedy player against ``heuristic`` on ``--eval-deals`` duplicate deals;
  4. save ``iter<k>.pt`` and ``model.pt`` (``ppo:RUN_DIR/model.pt``), append to ``curve.csv``
     (its ``update`` column counts the iterations done, k + 1) and redraw ``curve.png``.
A rerun resumes after the last iteration saved. Same arguments, same files (one thread).
"""

from __future__ import annotations

import dataclasses
import shutil
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import torch
from tqdm import tqdm

import taas.agents
import taas.envs
from taas.agents.learned.ppo import afterstate_player, load_checkpoint, mlp, model_meta, save_model
from taas.training.common import CurveLog, evaluate, parse_args, parse_rules, plot_curve

FIELDS = ["update", "games", "rows", "train_mse", "val_r2", "eval_diff", "eval_diff_low",
          "eval_diff_high", "eval_win_rate"]


@dataclass
class Args:
    env_id: str = field(default="", metadata={
        "help": "an env whose game has an afterstate player (default: the one game that has)"})
    num_players: int = field(default=4, metadata={"help": "players at the table"})
    rules: str = field(default="", metadata={"help": "other Config fields as JSON"})
    iterations: int = field(default=2, metadata={"help": "policy-iteration steps"})
    games: int = field(default=20_000, metadata={"help": "games collected per iteration"})
    epsilon: float = field(default=0.05, metadata={"help": "chance of a random candidate move"})
    hidden: int = 256
    epochs: int = 6
    learning_rate: float = 1e-3
    batch_size: int = 2048
    reward_scale: float = field(default=0.01, metadata={"help": "targets times this"})
    eval_deals: int = field(default=100, metadata={
        "help": "duplicate deals vs the game's default opponent (heuristic)"})
    eval_seed: int = 100_000
    seed: int = 1
    jobs: int = field(default=2, metadata={"help": "processes collecting games"})
    chunk_games: int = 500
    threads: int = field(default=1, metadata={"help": "torch threads while fitting"})
    run_dir: str = field(default="", metadata={"help": "default: runs/<game>_value"})


def chunk_seeds(args: Args, iteration: int, chunk: int) -> range:
    """The game seeds of one chunk: disjoint across iterations, chunks and ``--seed``."""
    start = (args.seed * 1_000 + iteration) * 1_000_000 + chunk * args.chunk_games
    return range(start, start + min(args.chunk_games, args.games - chunk * args.chunk_games))


def collect(task: tuple) -> Path:
    """Play one chunk of games with ``player`` in every seat; write each discard's afterstate
    row with its seat's final score difference."""
    env_id, player, rules, seeds, epsilon, path = task
    recorder = afterstate_player(env_id)
    torch.set_num_threads(1)  # one process per core: small batches gain nothing from threads
    env = taas.envs.make(env_id, wrapped=False, **rules)
    n = len(env.possible_agents)
    rows, targets, games, seats_of = [], [], [], []
    for seed in seeds:
        seats = [taas.agents.make(player, env_id, seed=seed * n + i, config=rules)
                 for i in range(n)]
        explore = np.random.default_rng(seed)
        env.reset(seed=seed)
        mine: list[list[np.ndarray]] = [[] for _ in range(n)]
        returns = [0.0] * n
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, _ = env.last()
            i = env.possible_agents.index(agent)
            returns[i] += reward
            if terminated or truncated:
                env.step(None)
                continue
            o, mask = obs["observation"], obs["action_mask"]
            ranked = seats[i].ranking(o, mask)
            action = ranked[0]
            if len(ranked) > 1 and explore.random() < epsilon:
                action = ranked[explore.integers(len(ranked))]
            row = recorder.afterstate(seats[i], o, mask, action)
            if row is not None:
                mine[i].append(row)
            env.step(action)
        for i in range(n):
            diff = returns[i] - (sum(returns) - returns[i]) / (n - 1)
            rows += mine[i]
            targets += [diff] * len(mine[i])
            games += [seed] * len(mine[i])
            seats_of += [i] * len(mine[i])
    tmp = path.with_suffix(".tmp.npz")
    features = np.array(rows, np.float32).reshape(-1, recorder.NUM_FEATURES)
    np.savez_compressed(tmp, features=features,
                        targets=np.array(targets, np.float32), games=np.array(games),
                        seats=np.array(seats_of))
    tmp.replace(path)
    return path


def fit(net: torch.nn.Module, data: dict, args: Args, gen: torch.Generator) -> tuple:
    """Mean squared error on nine tenths of the games (by seed); R² on the held-out tenth."""
    x = torch.from_numpy(data["features"])
    y = torch.from_numpy(data["targets"]) * args.reward_scale
    held = torch.from_numpy(data["games"] % 10 == 0)
    xt, yt, xv, yv = x[~held], y[~held], x[held], y[held]
    opt = torch.optim.Adam(net.parameters(), lr=args.learning_rate)
    for epoch in range(args.epochs):
        for group in opt.param_groups:  # halve the step size twice over the epochs
            group["lr"] = args.learning_rate * 0.5 ** (3 * epoch // args.epochs)
        order = torch.randperm(len(xt), generator=gen)
        total = 0.0
        for start in range(0, len(xt), args.batch_size):
            b = order[start : start + args.batch_size]
            loss = ((net(xt[b]).squeeze(-1) - yt[b]) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(b)
    with torch.no_grad():
        val = ((net(xv).squeeze(-1) - yv) ** 2).mean().item() if len(xv) else float("nan")
    base = ((yv - yt.mean()) ** 2).mean().item() if len(xv) else float("nan")
    return total / max(1, len(xt)), 1 - val / base if base else float("nan")


def _only_afterstate_env() -> str:
    """The env of the one game whose spec names an afterstate player."""
    envs = [e for s in taas.envs.games() if s.afterstate for e in s.envs]
    if len(envs) != 1:
        raise SystemExit(f"--env-id: choose one of {', '.join(envs) or 'none'}")
    return envs[0]


def main(argv: list[str] | None = None) -> Path:
    args = parse_args(Args, __doc__.splitlines()[0], argv)
    env_id = args.env_id or _only_afterstate_env()
    spec = taas.envs.spec_for(env_id)
    num_features = afterstate_player(env_id).NUM_FEATURES
    rules = {**parse_rules(args.rules), "num_players": args.num_players}
    if rules.get("episode", "round") != "round":
        raise SystemExit("--rules: the targets are one round's results, so episode must be "
                         "'round' (the model then plays any series: it never reads the totals)")
    raw = taas.envs.make(env_id, wrapped=False, **rules)  # a clear error for bad rules
    run = Path(args.run_dir or f"runs/{spec.name}_value")
    (run / "data").mkdir(parents=True, exist_ok=True)
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    net = mlp(num_features, args.hidden, 1, out_gain=1.0)
    done = sorted(int(p.stem[4:]) for p in run.glob("iter*.pt"))
    start = done[-1] + 1 if done else 0
    if start:  # resume: the last saved network, the curve up to it
        net.load_state_dict(load_checkpoint(run / f"iter{start - 1}.pt")["actor"])
    log = CurveLog(run / "curve.csv", FIELDS, resume_update=start)
    gen = torch.Generator().manual_seed(args.seed)
    for iteration in range(start, args.iterations):
        previous = f"ppo:{run / f'iter{iteration - 1}.pt'}"
        player = spec.default_opponent if iteration == 0 else previous
        chunks = -(-args.games // args.chunk_games)
        tasks = [(env_id, player, rules, chunk_seeds(args, iteration, c), args.epsilon,
                  run / "data" / f"iter{iteration}_{c}.npz") for c in range(chunks)]
        todo = [t for t in tasks if not t[-1].exists()]
        with ProcessPoolExecutor(args.jobs) as pool, tqdm(
            total=len(tasks), initial=len(tasks) - len(todo), unit="chunk",
            desc=f"iteration {iteration}: games of {player}",
        ) as bar:
            for _ in pool.map(collect, todo):
                bar.update()
        parts = [np.load(t[-1]) for t in tasks]
        data = {k: np.concatenate([p[k] for p in parts]) for k in parts[0].files}
        gen.manual_seed(args.seed * 1_000 + iteration)
        train_mse, r2 = fit(net, data, args, gen)
        meta = model_meta(env_id, [raw.game], raw.observer.low.shape[0], args.hidden,
                          dataclasses.asdict(args), "afterstate_value", deterministic=True)
        path = run / f"iter{iteration}.pt"
        save_model(path, meta, net, policy="afterstate", features=num_features)
        row = {"update": iteration + 1, "games": args.games, "rows": len(data["targets"]),
               "train_mse": train_mse, "val_r2": r2,
               **evaluate(path, env_id, rules, spec.evaluation_opponent(), args.eval_deals,
                          args.eval_seed)}
        log.write(row)
        shutil.copyfile(path, run / "model.pt")
        plot_curve(run / "curve.csv", run / "curve.png", f"{env_id} afterstate values",
                   x="update", xlabel="policy iterations done", lower=("val_r2",),
                   lower_label="held-out R² of the values")
        print({k: v for k, v in row.items() if k in FIELDS}, flush=True)
    return run / "model.pt"


if __name__ == "__main__":
    main()
