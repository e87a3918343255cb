"""Afterstate values: Monte-Carlo regression, then greedy play (policy iteration), the method
behind the shipped ``ppo:continental``; with ``--branch``, replayed choices for the other games.

    python -m taas.training.afterstate_value --num-players 4 --games 20000 --iterations 2 \\
        --run-dir runs/continental_value
    python -m taas.training.afterstate_value --env-id romme_v1 --games 12000 --branch 4 \\
        --branch-points 3 --iterations 1 --run-dir runs/romme_branch

Every game whose spec names an ``afterstate`` player trains here: Continental's
(:mod:`taas.agents.learned.continental_value`) and the discard players of Marriage, Rommé and
Nepali Marriage and the move player of Mariage (:mod:`taas.agents.learned.afterstate`). Only
Continental's has beaten its heuristic so far; docs/training/models.md has the runs of the
others and their numbers.

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

``--branch K`` (K >= 2; the Marriage, Rommé and Nepali Marriage models) changes step 1 and 2 to
fit what those games need. There a discard changes the final score by a point or two against
a spread of a hundred, so whole-game returns bury the difference between two discards in
noise. Instead, at ``--branch-points`` random decisions of each game the player's top ``K``
choices are each played to the end of the round from the same position (the same stock, the
same hidden hands, every seat then playing the player: common random numbers), and the
network is fitted to each choice's return *less the mean of its group* (only the ranking
within a position is learned). Greedy play on these values is a policy-improvement step over
the rollout player, as in rollout-based policy iteration (Bertsekas & Tsitsiklis), with the
rollouts amortised into a network that plays at heuristic speed. The player overrules its
rule player only where the network's favourite beats the rule player's own choice by the
``margin`` that gains most on the held-out groups (:func:`choose_margin`; the checkpoint keeps
it).
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

FIELDS = ["update", "games", "rows", "train_mse", "val_r2", "margin", "val_changed",
          "val_gain", "eval_diff", "eval_diff_low", "eval_diff_high", "eval_win_rate"]


@dataclass
class Args:
    env_id: str = "continental_v1"  # any env whose game's spec names an afterstate player
    num_players: int = field(default=4, metadata={
        "help": "players at the table, where the game's size varies"})
    rules: str = field(default="", metadata={"help": "other Config fields as JSON"})
    iterations: int = field(default=2, metadata={"help": "policy-iteration steps"})
    games: int = field(default=20_000, metadata={"help": "games collected per iteration"})
    epsilon: float = field(default=0.05, metadata={"help": "chance of a random candidate move"})
    branch: int = field(default=0, metadata={
        "help": "0: whole-game returns; K >= 2: replay the top K choices from the same position"})
    branch_points: int = field(default=2, metadata={
        "help": "with --branch: positions replayed per game"})
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
    tensorboard: bool = field(default=True, metadata={
        "help": "also log the curve for TensorBoard (RUN_DIR/tb)"})


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
    _save_rows(path, recorder.NUM_FEATURES, rows, targets, games, seats=np.array(seats_of))
    return path


def collect_branches(task: tuple) -> Path:
    """Play one chunk of games with ``player`` in every seat; at ``points`` random decisions of
    each game that rank two or more choices, play each of the top ``branch`` choices to the
    end from a copy of the position and write their rows with the mover's score difference,
    one group per position."""
    env_id, player, rules, seeds, branch, points, path = task
    recorder = afterstate_player(env_id)
    torch.set_num_threads(1)
    raw = taas.envs.make(env_id, wrapped=False, **rules)
    game, observer = raw.game, raw.observer
    n = game.num_players
    rows, targets, games, groups, movers = [], [], [], [], []
    for seed in seeds:
        seats = [taas.agents.make(player, env_id, seed=seed * n + i, config=rules)
                 for i in range(n)]  # deterministic players: every branch meets the same ones
        state = game.new_state(np.random.default_rng(seed))
        positions = []
        while not game.is_terminal(state):
            p = game.current_player(state)
            obs = observer.encode(state, p)
            ranked = seats[p].ranking(obs, game.legal_mask(state))
            choices = [a for a in ranked if recorder.is_choice(a)][:branch]
            if len(choices) >= 2 and recorder.is_choice(ranked[0]):
                positions.append((state.clone(), p, obs, choices))
            game.apply_legal(state, ranked[0])
        pick = np.random.default_rng(seed).permutation(len(positions))[:points]
        for i in sorted(pick):
            position, p, obs, choices = positions[i]
            rows += list(recorder.features(seats[p], obs, np.array(choices)))
            for action in choices:
                branch_state = position.clone()
                game.apply_legal(branch_state, action)
                returns = _play_out(game, observer, seats, branch_state)
                targets.append(returns[p] - (returns.sum() - returns[p]) / (n - 1))
            games += [seed] * len(choices)
            movers += [p] * len(choices)
            groups += [groups[-1] + 1 if groups else 0] * len(choices)
    _save_rows(path, recorder.NUM_FEATURES, rows, targets, games, groups=np.array(groups),
               seats=np.array(movers))
    return path


def _play_out(game, observer, seats: list, state) -> np.ndarray:
    """Every seat's return once ``seats`` have played ``state`` to the end (in place)."""
    while not game.is_terminal(state):
        p = game.current_player(state)
        game.apply_legal(state, seats[p].act(observer.encode(state, p), game.legal_mask(state)))
    return game.returns(state)


def _save_rows(path: Path, num_features: int, rows: list, targets: list, games: list,
               **extra: np.ndarray) -> None:
    """One chunk's rows, written whole or not at all (a crash leaves no half chunk)."""
    tmp = path.with_suffix(".tmp.npz")
    np.savez_compressed(tmp, features=np.array(rows, np.float32).reshape(-1, num_features),
                        targets=np.array(targets, np.float32), games=np.array(games), **extra)
    tmp.replace(path)


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


def fit_groups(net: torch.nn.Module, data: dict, args: Args, gen: torch.Generator) -> tuple:
    """Mean squared error of the values less their group's mean against the returns less
    theirs (``--branch``: only the ranking within a position is fitted), on nine tenths of the
    games; the same R² on the held-out tenth, and the margin :func:`choose_margin` picks
    there."""
    game, group = data["games"], data["groups"]
    starts = np.flatnonzero(np.r_[True, (group[1:] != group[:-1]) | (game[1:] != game[:-1])])
    sizes = np.diff(np.r_[starts, len(group)])
    width = int(sizes.max())
    valid = np.arange(width) < sizes[:, None]
    index = torch.from_numpy(np.where(valid, starts[:, None] + np.arange(width), starts[:, None]))
    x = torch.from_numpy(data["features"])[index]  # [groups, width, features], padding masked
    y = torch.from_numpy(data["targets"])[index] * args.reward_scale
    mask = torch.from_numpy(valid).float()
    held = torch.from_numpy(game[starts] % 10 == 0)

    def centred(v: torch.Tensor, m: torch.Tensor) -> torch.Tensor:
        return v - (v * m).sum(1, keepdim=True) / m.sum(1, keepdim=True)

    def loss_of(b: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        v = net(x[b]).squeeze(-1)
        err = (centred(v, mask[b]) - centred(y[b], mask[b])) ** 2 * mask[b]
        return err.sum(), (centred(y[b], mask[b]) ** 2 * mask[b]).sum()

    train = torch.nonzero(~held).squeeze(1)
    opt = torch.optim.Adam(net.parameters(), lr=args.learning_rate)
    per_batch = max(1, args.batch_size // width)
    for epoch in range(args.epochs):
        for g in opt.param_groups:  # halve the step size twice over the epochs
            g["lr"] = args.learning_rate * 0.5 ** (3 * epoch // args.epochs)
        order = train[torch.randperm(len(train), generator=gen)]
        total = count = 0.0
        for start in range(0, len(order), per_batch):
            b = order[start : start + per_batch]
            err, _ = loss_of(b)
            n = mask[b].sum()
            opt.zero_grad()
            (err / n).backward()
            opt.step()
            total, count = total + err.item(), count + n.item()
    held = torch.nonzero(held).squeeze(1)
    with torch.no_grad():
        err, base = loss_of(held)
        values = net(x[held]).squeeze(-1).masked_fill(mask[held] == 0, -torch.inf)
    r2 = 1 - err.item() / base.item() if base.item() else float("nan")
    return total / max(1.0, count), r2, choose_margin(values.numpy(), y[held].numpy())


def choose_margin(values: np.ndarray, returns: np.ndarray) -> dict:
    """How much better than the player's own first choice (column 0) a choice must look
    before the network overrules it, and what that margin gains, per position, on held-out
    groups (``values``: the network's, padding at -inf; ``returns``: the replays').

    A network that has learned a little from noisy returns misjudges many near-equal choices,
    and overruling a sound player on each of them loses more than the clear cases win; so the
    player keeps its own choice unless the network's favourite beats it by the margin. The
    margin is the one, among the observed value gaps, that gains most on these groups (an
    estimate biased upwards by the choice; the curve's evaluation on fresh deals is not)."""
    pick = values.argmax(1)
    rows = np.arange(len(values))
    gap = values[rows, pick] - values[:, 0]
    gain = returns[rows, pick] - returns[:, 0]
    order = np.argsort(-gap)
    cumulative = np.cumsum(gain[order])  # overrule the k clearest cases: gain cumulative[k-1]
    k = int(np.argmax(np.r_[0.0, cumulative]))
    margin = float(gap[order[k]]) if k < len(gap) else 0.0
    changed = gap > margin  # what the player does with it: ties at the cut stay unchanged
    return {"margin": margin, "val_changed": changed.mean() if len(gap) else 0.0,
            "val_gain": gain[changed].sum() / max(1, len(gap))}


def main(argv: list[str] | None = None) -> Path:
    args = parse_args(Args, __doc__.splitlines()[0], argv)
    env_id = args.env_id
    if env_id not in taas.envs.available_envs() or not taas.envs.spec_for(env_id).afterstate:
        envs = [e for s in taas.envs.games() if s.afterstate for e in s.envs]
        raise SystemExit(f"--env-id {env_id!r}: choose one of {', '.join(envs)}")
    spec = taas.envs.spec_for(env_id)
    num_features = afterstate_player(env_id).NUM_FEATURES
    rules = parse_rules(args.rules)
    if "num_players" in {f.name for f in dataclasses.fields(taas.envs.load(spec.config))}:
        rules["num_players"] = args.num_players  # a game of fixed seats (Mariage) has none
    if args.branch == 1 or args.branch < 0:
        raise SystemExit("--branch: 0 (whole games) or the number of choices to replay, >= 2")
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
        collector, how = ((collect_branches, (args.branch, args.branch_points)) if args.branch
                          else (collect, (args.epsilon,)))
        tasks = [(env_id, player, rules, chunk_seeds(args, iteration, c), *how,
                  run / "data" / f"iter{iteration}_{c}.npz") for c in range(chunks)]
        todo = [t for t in tasks if not t[-1].exists()]
        with ProcessPoolExecutor(args.jobs) as pool, tqdm(
            total=len(tasks), initial=len(tasks) - len(todo), unit="chunk",
            desc=f"iteration {iteration}: games of {player}",
        ) as bar:
            for _ in pool.map(collector, todo):
                bar.update()
        parts = [np.load(t[-1]) for t in tasks]
        data = {k: np.concatenate([p[k] for p in parts]) for k in parts[0].files}
        gen.manual_seed(args.seed * 1_000 + iteration)
        if args.branch:
            train_mse, r2, chosen = fit_groups(net, data, args, gen)
        else:
            (train_mse, r2), chosen = fit(net, data, args, gen), {}
        meta = model_meta(env_id, [raw.game], raw.observer.low.shape[0], args.hidden,
                          dataclasses.asdict(args), "afterstate_value", deterministic=True)
        path = run / f"iter{iteration}.pt"
        save_model(path, meta, net, policy="afterstate", features=num_features,
                   **({"margin": chosen["margin"]} if chosen else {}))
        if chosen:  # the gain in points a position, as the strength benchmark counts them
            chosen = {**chosen, "val_gain": chosen["val_gain"] / args.reward_scale}
        row = {"update": iteration + 1, "games": args.games, "rows": len(data["targets"]),
               "train_mse": train_mse, "val_r2": r2, **chosen,
               **evaluate(path, env_id, rules, spec.evaluation_opponent(), args.eval_deals,
                          args.eval_seed)}
        log.write(row)
        if args.tensorboard:
            from torch.utils.tensorboard import SummaryWriter

            with SummaryWriter(run / "tb", purge_step=iteration + 1) as writer:
                for key, value in row.items():
                    if key != "update":
                        writer.add_scalar(key, value, iteration + 1)
        shutil.copyfile(path, run / "model.pt")
        plot_curve(run / "curve.csv", run / "curve.png", f"{env_id} afterstate values",
                   x="update", xlabel="policy iterations done", lower=("val_r2",),
                   lower_label="held-out R² of the values")
        print({k: v for k, v in row.items() if k in FIELDS}, flush=True)
    return run / "model.pt"


if __name__ == "__main__":
    main()
