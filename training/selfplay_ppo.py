"""Self-play PPO with action masking, in plain torch, one file read top to bottom (CleanRL style).

Every seat of every table is played either by the learner (the current network: its decisions
are the training data) or by an opponent drawn from a pool of its own past snapshots or from
the fixed agents named by ``--fixed-opponents`` (which take a ``--fixed-prob`` share of those
seats). An episode is all-learner with probability ``--selfplay-prob``; otherwise one random
seat is the learner and the pool fills the others.
Tables of several sizes (``--num-players 3,4,5,6``) train one network: observations are padded
to the largest table, so the same model plays every size it has seen.

The ``--num-tables`` tables are stepped together (:class:`~taas.envs.core.vector.VectorTables`:
every table's observation and mask written in place into one batch): each step runs the
learner's network once on the rows of all tables where the learner moves, and each pool
snapshot once on the rows where it moves; fixed agents move table by table. An update learns
from ``--num-tables`` x ``--num-steps`` learner decisions, so the tables set both the batch of
a forward pass and the size of an update.

    python -m taas.training.selfplay_ppo --env-id mariage_v1 --total-steps 200000

writes to ``--run-dir``: ``checkpoint.pt`` (everything needed to continue: ``--resume`` picks
it up after a crash or Ctrl-C and continues the same curve; tensors and plain values only, read
with ``weights_only=True``, so loading one runs no pickled code: each table's episode is kept as
its deal's generator state and the moves since, and replayed), ``model.pt`` (the playable model,
``ppo:RUN_DIR/model.pt``), ``curve.csv`` and ``curve.png`` (the learning curve, evaluated
against ``heuristic``/``greedy``/``random`` on duplicate deals) and ``tb/`` (TensorBoard).
Ctrl-C finishes the current update, saves and exits; a second Ctrl-C aborts.

Reproducible: the same arguments and seed give the same curve on one thread (``--threads 1``).
The learning rate is constant so that a run extended with a larger ``--total-steps`` continues
exactly where a shorter one stopped.
"""

from __future__ import annotations

import dataclasses
import signal
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import torch
from tqdm import tqdm

import taas.agents
import taas.envs
from taas.agents.learned.ppo import PolicyNet, model_meta, save_model
from taas.envs.core.vector import VectorTables
from taas.training.common import (
    CurveLog,
    eval_opponent,
    evaluate,
    parse_args,
    parse_rules,
    plot_curve,
    warm_start,
)


@dataclass
class Args:
    env_id: str = "mariage_v1"
    rules: str = field(default="{}", metadata={"help": "Config fields as JSON"})
    num_players: str = field(default="", metadata={"help": "table sizes, e.g. 3,4,5,6"})
    run_dir: str = "runs/selfplay"
    seed: int = 1
    total_steps: int = 200_000
    num_tables: int = field(default=128, metadata={
        "help": "tables stepped together: the batch of every forward pass"})
    num_steps: int = field(default=32, metadata={
        "help": "learner decisions per table per update"})
    hidden: int = 128
    learning_rate: float = 2.5e-4
    gamma: float = 0.99
    gae_lambda: float = 0.95
    num_minibatches: int = 4
    update_epochs: int = 4
    clip_coef: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    reward_scale: float = field(default=1.0, metadata={"help": "multiplies the game's points"})
    selfplay_prob: float = 0.5
    pool_size: int = 8
    snapshot_every: int = 10
    fixed_opponents: str = field(default="", metadata={"help": "agent specs that join the pool"})
    fixed_prob: float = field(default=0.5, metadata={"help": "share of pool seats they take"})
    eval_every: int = 20
    eval_deals: int = 100
    eval_opponent: str = ""
    eval_seed: int = 100_000
    save_every: int = 10
    resume: bool = False
    init_from: str = field(default="", metadata={
        "help": "start from this model's weights (a model.pt of the same env and sizes)"})
    deterministic: bool = field(default=False, metadata={
        "help": "the saved model plays its most probable move (training still samples)"})
    threads: int = 1
    device: str = "cpu"
    progress: bool = True
    tensorboard: bool = True


FIELDS = ["update", "global_step", "episodes", "episode_return", "policy_loss", "value_loss",
          "entropy", "approx_kl", "clipfrac", "pool", "eval_diff", "eval_diff_low",
          "eval_diff_high", "eval_win_rate"]
# arguments a resumed run may change; everything else comes from the checkpoint
RESUMABLE = ("total_steps", "progress", "tensorboard", "resume", "device")
# where the wall time goes (``train(args, timings)`` adds each update's seconds to these)
PHASES = ("env", "inference", "learning", "other")
LEARNER = 0  # roles[i, seat]: 0 the learner, k > 0 the pool snapshot numbered k, -j-1 fixed j


def sample(net: PolicyNet, obs: torch.Tensor, mask: torch.Tensor):
    """Actions drawn from the masked policy and their log-probabilities (no ``Categorical``:
    its argument checks cost more than the network at a table's batch size)."""
    logp = torch.log_softmax(net.logits(obs, mask), -1)
    actions = torch.multinomial(logp.exp(), 1)
    return actions.squeeze(1), logp.gather(1, actions).squeeze(1)


def train(args: Args, timings: dict | None = None) -> Path:
    """Train, and return the run folder. ``timings``, if given, gets each phase's seconds
    (``PHASES``; the throughput benchmark reads them)."""
    if args.total_steps <= 0:
        raise SystemExit(f"--total-steps {args.total_steps}: expected a positive number of "
                         "learner steps")
    run_dir = Path(args.run_dir)
    ckpt_path, model_path, csv_path = (run_dir / n for n in ("checkpoint.pt", "model.pt",
                                                             "curve.csv"))
    if args.resume:
        if not ckpt_path.exists():
            raise SystemExit(f"--resume: no {ckpt_path} to continue")
        try:
            saved = torch.load(ckpt_path, map_location="cpu", weights_only=True)
        except Exception as err:  # a file of another kind: torch raises many types
            raise SystemExit(f"{ckpt_path} is not a selfplay_ppo checkpoint "
                             f"({type(err).__name__})") from None
        if "roles" not in saved:
            raise SystemExit(f"{ckpt_path} was written by an older selfplay_ppo (tables "
                             "stepped one by one); start a new run from its model.pt with "
                             "--init-from")
        args = Args(**{**saved["args"], **{k: getattr(args, k) for k in RESUMABLE}})
    elif ckpt_path.exists():
        raise SystemExit(f"{ckpt_path} exists: pass --resume to continue it, or another --run-dir")
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    device = torch.device(args.device)
    rules = parse_rules(args.rules)
    sizes = [int(n) for n in args.num_players.split(",") if n]
    if args.num_tables < max(1, len(sizes)):
        raise SystemExit(f"--num-tables {args.num_tables}: expected at least one table per "
                         f"table size ({max(1, len(sizes))})")
    table_rules = [{**rules, **({"num_players": n} if n else {})} for n in sizes or [None]]
    fixed_specs = [s for s in args.fixed_opponents.split(",") if s]

    # ---- env setup: B tables stepped together, cycling through the table sizes ------------
    seeds = np.random.SeedSequence(args.seed)
    rng = np.random.default_rng(seeds.spawn(1)[0])  # roles and minibatch order
    try:
        tables = VectorTables(args.env_id, args.num_tables,
                              seed=seeds.generate_state(args.num_tables).tolist(),
                              num_players=sizes or None, **rules)
        evaluated_against = args.eval_opponent or eval_opponent(args.env_id)
    except ValueError as err:
        raise SystemExit(f"selfplay_ppo: {err}") from None
    run_dir.mkdir(parents=True, exist_ok=True)
    obs_size, num_actions, b = tables.obs_size, tables.num_actions, args.num_tables
    rows = np.arange(b)
    fixed = [[taas.agents.make(s, args.env_id, seed=args.seed * 1000 + i,
                               config=table_rules[i % len(table_rules)]) for s in fixed_specs]
             for i in range(b)]  # fixed[i][j]: fixed opponent j, built for table i's rules
    # per table and seat: its role this episode, the buffer index of its last transition
    # awaiting a reward (-1: none) and its return when it made that decision
    roles = np.zeros((b, tables.max_players), np.int64)
    pending = np.full((b, tables.max_players), -1, np.int64)
    base = np.zeros((b, tables.max_players))

    # ---- the network, the optimizer and the pool of past selves ----------------------------
    net = PolicyNet(obs_size, num_actions, args.hidden).to(device)
    # fused: one kernel for all parameters, not a Python loop over them (on CPU too)
    optimizer = torch.optim.Adam(net.parameters(), lr=args.learning_rate, eps=1e-5, fused=True)
    snapshots: dict[int, PolicyNet] = {}  # actor-only snapshots that some seat plays
    pool: list[int] = []  # the numbers of the snapshots new episodes draw from
    update, global_step = 0, 0
    if args.init_from and not args.resume:
        warm_start(net, args, obs_size, num_actions)
    if args.resume:
        net.load_state_dict(saved["net"])
        optimizer.load_state_dict(saved["optimizer"])
        tables.restore(saved["tables"])
        for agents, states in zip(fixed, saved["fixed_rngs"], strict=True):
            for agent, state in zip(agents, states, strict=True):
                agent.rng.bit_generator.state = state
        roles[:], pending[:], base[:] = (np.array(saved[k]) for k in ("roles", "pending", "base"))
        pool, update, global_step = saved["pool"], saved["update"], saved["global_step"]
        for k, weights in saved["snapshots"]:
            snapshots[k] = PolicyNet(obs_size, num_actions, args.hidden, critic=False).to(device)
            snapshots[k].actor.load_state_dict(weights)
        rng.bit_generator.state = saved["rng"]
        torch.set_rng_state(saved["torch_rng"])
    meta = model_meta(args.env_id, tables.games[:len(table_rules)], obs_size, args.hidden,
                      dataclasses.asdict(args), "selfplay_ppo", args.deterministic)

    def deal(i: int) -> None:
        """Fresh roles for the seats of table ``i``, whose new episode was just dealt."""
        n = int(tables.num_players[i])
        roles[i], pending[i], base[i] = LEARNER, -1, 0.0
        if (fixed_specs or pool) and rng.random() >= args.selfplay_prob:
            for seat in range(n):
                if fixed_specs and (not pool or rng.random() < args.fixed_prob):
                    roles[i, seat] = -1 - int(rng.integers(len(fixed_specs)))
                else:
                    roles[i, seat] = pool[int(rng.integers(len(pool)))]
            roles[i, int(rng.integers(n))] = LEARNER

    def save() -> None:
        save_model(model_path, meta, net.actor, critic=net.critic.state_dict())
        torch.save({"args": dataclasses.asdict(args), "net": net.state_dict(),
                    "optimizer": optimizer.state_dict(), "tables": tables.records(),
                    "fixed_rngs": [[f.rng.bit_generator.state for f in agents]
                                   for agents in fixed],
                    "roles": roles.tolist(), "pending": pending.tolist(), "base": base.tolist(),
                    "pool": pool, "snapshots": [
                        [k, {n: v.cpu() for n, v in p.actor.state_dict().items()}]
                        for k, p in snapshots.items()],
                    "rng": rng.bit_generator.state, "torch_rng": torch.get_rng_state(),
                    "update": update, "global_step": global_step}, ckpt_path.with_suffix(".tmp"))
        ckpt_path.with_suffix(".tmp").replace(ckpt_path)

    if not args.resume:
        tables.reset()
        for i in range(b):
            deal(i)
    log = CurveLog(csv_path, FIELDS, resume_update=update)
    writer = None
    if args.tensorboard:
        from torch.utils.tensorboard import SummaryWriter

        writer = SummaryWriter(run_dir / "tb", purge_step=global_step or None)
    stop: list[bool] = []

    def on_sigint(signum, frame):
        if stop:
            raise KeyboardInterrupt
        stop.append(True)
        tqdm.write("Ctrl-C: finishing this update, then saving (Ctrl-C again aborts)")

    in_main = threading.current_thread() is threading.main_thread()
    old_handler = signal.signal(signal.SIGINT, on_sigint) if in_main else None
    batch_size = b * args.num_steps
    # the rollout's buffers: a step adds at most one transition per table past batch_size
    cap = batch_size + b
    obs_buf = np.zeros((cap, obs_size), np.float32)
    mask_buf = np.zeros((cap, num_actions), np.int8)
    act_buf, next_buf = np.zeros(cap, np.int64), np.zeros(cap, np.int64)
    logp_buf = np.zeros(cap, np.float32)
    rew_buf, boot_buf, done_buf = np.zeros(cap), np.zeros(cap), np.zeros(cap, np.bool_)
    actions = np.zeros(b, np.int64)
    spent, clock = dict.fromkeys(PHASES, 0.0), 0.0

    def lap(phase: str) -> None:
        """Charge the seconds since the last lap to ``phase``."""
        nonlocal clock
        now = time.perf_counter()
        spent[phase] += now - clock
        clock = now

    bar = tqdm(total=args.total_steps, initial=global_step, disable=not args.progress,
               unit="step", desc=args.env_id)
    try:
        while global_step < args.total_steps and not stop:
            update += 1
            started = clock = time.perf_counter()

            # ---- ALGO LOGIC: rollout. Each step, every table's player to move acts; the
            # learner's decisions become transitions, each rewarded with the change in its
            # seat's return until that seat's next decision (or the end of the episode).
            n, episodes = 0, 0
            finished: list[float] = []  # learner returns in episodes against the pool
            while n < batch_size:
                seat = tables.player
                who = roles[rows, seat]
                mine = np.flatnonzero(who == LEARNER)
                if mine.size:
                    k, new = np.arange(n, n + mine.size), slice(n, n + mine.size)
                    np.take(tables.obs, mine, axis=0, out=obs_buf[new])
                    np.take(tables.mask, mine, axis=0, out=mask_buf[new])
                    lap("other")
                    obs_t = torch.from_numpy(obs_buf[new]).to(device)
                    mask_t = torch.from_numpy(mask_buf[new]).to(device).bool()
                    with torch.no_grad():
                        act_t, logp_t = sample(net, obs_t, mask_t)
                    act_buf[new], logp_buf[new] = act_t.cpu().numpy(), logp_t.cpu().numpy()
                    actions[mine] = act_buf[new]
                    lap("inference")
                    s = seat[mine]
                    ret, prev = tables.returns[mine, s], pending[mine, s]
                    waiting = prev >= 0
                    rew_buf[prev[waiting]] = (ret[waiting] - base[mine, s][waiting]) \
                        * args.reward_scale
                    next_buf[prev[waiting]] = k[waiting]
                    rew_buf[new], done_buf[new], next_buf[new], boot_buf[new] = 0, False, -1, 0
                    pending[mine, s], base[mine, s] = k, ret
                    n += mine.size
                for role in np.unique(who[who != LEARNER]).tolist():
                    theirs = np.flatnonzero(who == role)
                    if role > 0:  # a snapshot: one forward pass for all its tables
                        obs_t = torch.from_numpy(tables.obs[theirs]).to(device)
                        mask_t = torch.from_numpy(tables.mask[theirs]).to(device).bool()
                        with torch.no_grad():
                            theirs_t = sample(snapshots[role], obs_t, mask_t)[0]
                        actions[theirs] = theirs_t.cpu().numpy()
                    else:
                        for i in theirs.tolist():
                            actions[i] = fixed[i][-1 - role].act(tables.obs[i], tables.mask[i])
                lap("inference")
                tables.step(actions)
                lap("env")
                for i in np.flatnonzero(tables.done).tolist():
                    final, seats = tables.final_returns[i], range(tables.num_players[i])
                    for p in seats:
                        if pending[i, p] >= 0:
                            rew_buf[pending[i, p]] = (final[p] - base[i, p]) * args.reward_scale
                            done_buf[pending[i, p]] = True
                    if (roles[i] != LEARNER).any():
                        finished += [float(final[p]) for p in seats if roles[i, p] == LEARNER]
                    episodes += 1
                    deal(i)
            # the rollout ends mid-episode: bootstrap each waiting transition from its value
            cut = np.argwhere(pending >= 0)
            if len(cut):
                obs = np.stack([tables.observers[i].encode(tables.states[i], p)
                                for i, p in cut.tolist()])
                with torch.no_grad():
                    values = net.value(torch.from_numpy(obs).to(device)).cpu().numpy()
                i, p = cut.T
                k, ret = pending[i, p], tables.returns[i, p]
                rew_buf[k], boot_buf[k] = (ret - base[i, p]) * args.reward_scale, values
                pending[i, p], base[i, p] = -1, ret
            rollout_s = time.perf_counter() - started
            lap("other")
            # the critic has not changed since the rollout began: one pass values all of it
            b_obs = torch.from_numpy(obs_buf[:n].copy()).to(device)
            with torch.no_grad():
                values = net.value(b_obs).cpu().numpy().astype(np.float64)
            lap("inference")

            # ---- ALGO LOGIC: generalized advantage estimation, per seat's own trajectory
            adv = [0.0] * n
            vals, rew, done, nxt, boot = (a[:n].tolist() for a in (values, rew_buf, done_buf,
                                                                    next_buf, boot_buf))
            for i in reversed(range(n)):
                j = nxt[i]
                next_v = 0.0 if done[i] else vals[j] if j >= 0 else boot[i]
                next_adv = adv[j] if j >= 0 and not done[i] else 0.0
                delta = rew[i] + args.gamma * next_v - vals[i]
                adv[i] = delta + args.gamma * args.gae_lambda * next_adv
            b_mask = torch.from_numpy(mask_buf[:n].copy()).to(device).bool()
            b_act = torch.from_numpy(act_buf[:n].copy()).to(device)
            b_logp = torch.from_numpy(logp_buf[:n].copy()).to(device)
            b_adv = torch.as_tensor(adv, dtype=torch.float32, device=device)
            b_ret = b_adv + torch.as_tensor(values, dtype=torch.float32, device=device)
            lap("other")

            # ---- ALGO LOGIC: PPO clipped-objective update on the learner's transitions
            clipfracs, kls = [], []
            for _ in range(args.update_epochs):
                for mb in np.array_split(rng.permutation(n), args.num_minibatches):
                    mb = torch.as_tensor(mb, device=device)
                    mb_obs = b_obs[mb]  # gathered once for both networks
                    logp_all = torch.log_softmax(net.logits(mb_obs, b_mask[mb]), -1)
                    logratio = logp_all.gather(1, b_act[mb][:, None]).squeeze(1) - b_logp[mb]
                    ratio = logratio.exp()
                    with torch.no_grad():
                        kls.append(((ratio - 1) - logratio).mean().item())
                        clipfracs.append(((ratio - 1).abs() > args.clip_coef).float().mean()
                                         .item())
                    mb_adv = b_adv[mb]
                    mb_adv = (mb_adv - mb_adv.mean()) / (mb_adv.std() + 1e-8)
                    pg_loss = torch.max(
                        -mb_adv * ratio,
                        -mb_adv * ratio.clamp(1 - args.clip_coef, 1 + args.clip_coef),
                    ).mean()
                    v_loss = 0.5 * ((net.value(mb_obs) - b_ret[mb]) ** 2).mean()
                    # masked entropy: illegal actions have probability 0 and contribute 0
                    entropy = -(logp_all.exp() * logp_all).sum(-1).mean()
                    loss = pg_loss - args.ent_coef * entropy + args.vf_coef * v_loss
                    optimizer.zero_grad()
                    loss.backward()
                    torch.nn.utils.clip_grad_norm_(net.parameters(), args.max_grad_norm,
                                                   foreach=True)
                    optimizer.step()
            global_step += n
            if update % args.snapshot_every == 0:
                snapshot = PolicyNet(obs_size, num_actions, args.hidden, critic=False).to(device)
                snapshot.actor.load_state_dict(net.actor.state_dict())
                snapshots[update] = snapshot
                pool = [*pool, update][-args.pool_size:]
            # a snapshot out of the pool is kept while some seat still plays it
            snapshots = {k: p for k, p in snapshots.items() if k in pool or (roles == k).any()}
            lap("learning")

            # ---- logging, evaluation on duplicate deals, checkpoints
            row = {"update": update, "global_step": global_step, "episodes": episodes,
                   "episode_return": float(np.mean(finished)) if finished else "",
                   "policy_loss": pg_loss.item(), "value_loss": v_loss.item(),
                   "entropy": entropy.item(), "approx_kl": float(np.mean(kls)),
                   "clipfrac": float(np.mean(clipfracs)), "pool": len(pool)}
            done_now = global_step >= args.total_steps or bool(stop)
            if update % args.eval_every == 0 or done_now:
                save_model(model_path, meta, net.actor, critic=net.critic.state_dict())
                row.update(evaluate(model_path, args.env_id, table_rules[0], evaluated_against,
                                    args.eval_deals, args.eval_seed))
            if update % args.save_every == 0 or done_now or stop:  # Ctrl-C during the eval
                save()
            log.write(row)
            if writer:
                for k, v in row.items():
                    if k not in ("update", "global_step") and v != "":
                        writer.add_scalar(f"train/{k}", v, global_step)
                writer.add_scalar("perf/steps_per_s", n / (time.perf_counter() - started),
                                  global_step)
                writer.add_scalar("perf/rollout_share", rollout_s / (time.perf_counter()
                                                                      - started), global_step)
            bar.update(n)
            if "eval_diff" in row:
                bar.set_postfix(vs=f"{evaluated_against} {row['eval_diff']:+.3f}")
            lap("other")
    finally:
        bar.close()
        if writer:
            writer.close()
        if in_main:
            signal.signal(signal.SIGINT, old_handler)
        if timings is not None:
            for phase, seconds in spent.items():
                timings[phase] = timings.get(phase, 0.0) + seconds
    plot_curve(csv_path, run_dir / "curve.png",
               f"{args.env_id} self-play PPO, evaluated against {evaluated_against}")
    print(f"model: {model_path} (play it as ppo:{model_path}); resume with --resume "
          f"--run-dir {run_dir}")
    return run_dir


if __name__ == "__main__":
    train(parse_args(Args, __doc__.splitlines()[0]))
