"""Self-play PPO with action masking, in plain torch, one file read top to bottom (CleanRL style).

Every seat of every table is played either by the learner (the current network: its decisions
are the training data) or by an opponent drawn from a pool of its own past snapshots or from
the fixed agents named by ``--fixed-opponents`` (which take a ``--fixed-prob`` share of those
seats). An episode is all-learner with probability ``--selfplay-prob``; otherwise one random
seat is the learner and the pool fills the others.
Tables of several sizes (``--num-players 3,4,5,6``) train one network: observations are padded
to the largest table, so the same model plays every size it has seen.

``--hint heuristic`` adds ``--hint-weight`` to the logit of the move that agent would make
(residual policy learning): the network, started from a clone of that agent
(``--init-from``), learns where to depart from it instead of re-learning all of its play. The
hint agent reads the same observation and mask, so the model still plays from the seat's
observation alone; the model file names its hint and ``ppo:`` plays with it.

``--oracle-critic`` gives the critic every seat's observation (perfect-training-imperfect-
execution, PerfectDou; Suphx's oracle guiding): in a game where the hidden hands decide most
of a round's score, a value that sees them leaves advantages with far less noise. Only the
training step reads it; the saved model's actor, all that plays, reads the seat's own
observation, and ``ppo:`` never runs the critic.

The ``--num-tables`` tables are stepped together (:class:`~taas.envs.core.vector.VectorTables`:
every table's observation and mask written in place into one batch): each step runs the
learner's network once on the rows of all tables where the learner moves, and each pool
snapshot once on the rows where it moves; fixed agents move table by table. An update learns
from ``--num-tables`` x ``--num-steps`` learner decisions, so the tables set both the batch of
a forward pass and the size of an update.

``--workers K`` (default 2) moves the rollout to ``K`` worker processes
(:mod:`taas.training.rollout`), each stepping its slice of the tables with a CPU copy of the
network and writing its transitions into shared memory; the weights go to them once per
update. With ``--overlap`` (the default) the learner updates on one rollout while the workers
collect the next with the policy before that update, so every rollout is collected by a policy
one update behind the one it trains (IMPALA/APPO-style lag; PPO's ratio is taken against the
policy that acted, and GAE uses the values of the critic the workers had); ``--no-overlap``
waits for each rollout.
``--backend ray [--address ADDR]`` runs the same workers as Ray actors, on a cluster.

    python -m taas.training.selfplay_ppo --env-id mariage_v1 --total-steps 200000
    python -m taas.training.selfplay_ppo --env-id mariage_v1 --workers 1  # all in one process

writes to ``--run-dir``: ``checkpoint.pt`` (everything needed to continue: ``--resume`` picks
it up after a crash or Ctrl-C and continues the same curve; tensors and plain values only, read
with ``weights_only=True``, so loading one runs no pickled code: each table's episode is kept as
its deal's generator state and the moves since, and replayed), ``model.pt`` (the playable model,
``ppo:RUN_DIR/model.pt``), ``curve.csv`` and ``curve.png`` (the learning curve, evaluated
against ``heuristic``/``greedy``/``random`` on duplicate deals) and ``tb/`` (TensorBoard).
Ctrl-C finishes the current update, saves and exits; a second Ctrl-C aborts.

Reproducible: the same arguments and seed give the same curve on one thread (``--threads 1``),
with any one number of workers (each worker has its own seeded generators, and the schedule
of weights does not depend on timing), on either backend; another ``--workers`` is another
curve. The learning rate is constant so that a run extended with a larger ``--total-steps``
continues exactly where a shorter one stopped (with ``--overlap``, one stopped by Ctrl-C or a
crash does: a finished run collects no rollout past its last update, so extending it starts
with the newest policy).
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
from taas.training.rollout import (
    ROLLOUT_PHASES,
    ProcessWorkers,
    RayWorkers,
    Rollout,
    WorkerError,
    fixed_specs,
    hint_weight,
    oracle_size,
    table_sizes,
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
    update_epochs: int = field(default=2, metadata={
        "help": "passes over each rollout (fewer than CleanRL's 4: the engines make fresh "
        "data cheaper than reusing it)"})
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
    hint: str = field(default="", metadata={
        "help": "an agent spec whose move gets --hint-weight added to its logit: the network "
        "learns where to depart from it"})
    hint_weight: float = field(default=3.0, metadata={"help": "the logit added with --hint"})
    oracle_critic: bool = field(default=False, metadata={
        "help": "the critic reads every seat's observation (training only: the model plays "
        "from its seat's own)"})
    critic_warmup: int = field(default=0, metadata={
        "help": "first updates that train the critic alone (a fresh critic's advantages are "
        "noise; e.g. after --init-from a model whose critic read other inputs)"})
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
    workers: int = field(default=2, metadata={
        "help": "rollout worker processes, each stepping a slice of the tables (1: the "
        "rollout runs in this process)"})
    backend: str = field(default="local", metadata={
        "help": "the workers are local processes or Ray actors (ray)"})
    address: str = field(default="", metadata={
        "help": "with --backend ray: the cluster (auto, HOST:PORT); empty: a local Ray"})
    overlap: bool = field(default=True, metadata={
        "help": "with workers: learn on one rollout while the workers collect the next (the "
        "policy that collects lags one update)"})
    progress: bool = True
    tensorboard: bool = True


FIELDS = ["update", "global_step", "episodes", "episode_return", "policy_loss", "value_loss",
          "entropy", "approx_kl", "clipfrac", "pool", "eval_diff", "eval_diff_low",
          "eval_diff_high", "eval_win_rate"]
# arguments a resumed run may change; everything else comes from the checkpoint
RESUMABLE = ("total_steps", "progress", "tensorboard", "resume", "device", "backend",
             "address")
# where this process's wall time goes (``train(args, timings)`` adds each update's seconds to
# these); with workers, their busy seconds, summed over them, go to "worker_" + ROLLOUT_PHASES
PHASES = ("env", "inference", "learning", "waiting", "other")
BACKENDS = ("local", "ray")
BATCH = ("obs", "mask", "act", "logp", "val", "adv", "cobs")  # what a rollout hands the update


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
        if "roles" not in saved and "workers" not in saved:
            raise SystemExit(f"{ckpt_path} was written by an older selfplay_ppo (tables "
                             "stepped one by one); start a new run from its model.pt with "
                             "--init-from")
        args = Args(**{**saved["args"], **{k: getattr(args, k) for k in RESUMABLE}})
    elif ckpt_path.exists():
        raise SystemExit(f"{ckpt_path} exists: pass --resume to continue it, or another --run-dir")
    if args.workers < 1 or args.backend not in BACKENDS:
        raise SystemExit(f"--workers {args.workers} --backend {args.backend!r}: expected 1 or "
                         f"more workers and a backend of {', '.join(BACKENDS)}")
    if args.address and args.backend != "ray":
        raise SystemExit(f"--address {args.address}: only --backend ray connects to a cluster")
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    device = torch.device(args.device)
    rules = parse_rules(args.rules)
    sizes = table_sizes(args)
    if args.num_tables < max(1, len(sizes), args.workers):
        raise SystemExit(f"--num-tables {args.num_tables}: expected at least one table per "
                         f"table size ({max(1, len(sizes))}) and per worker ({args.workers})")
    table_rules = [{**rules, **({"num_players": n} if n else {})} for n in sizes or [None]]
    # one process: the rollout here, sharing the network and the generator; else workers
    local = args.workers == 1 and args.backend == "local"
    if args.resume and local != ("workers" not in saved):
        other = "ray" if local else "local"  # only --workers 1 runs either way
        raise SystemExit(f"--backend {args.backend}: {ckpt_path} was written with --workers 1 "
                         f"--backend {other} (the rollout in this process, or in one Ray "
                         f"actor, keeps another checkpoint); resume it with --backend {other}")

    # ---- env setup: B tables stepped together, cycling through the table sizes ------------
    seeds = np.random.SeedSequence(args.seed)
    rng = np.random.default_rng(seeds.spawn(1)[0])  # roles (in this process) and minibatches
    table_seeds = seeds.generate_state(args.num_tables).tolist()
    try:
        if local:
            rollout = Rollout(args, 0, table_seeds, rng, device)
            tables = rollout.tables
        else:  # one table of each size: the shapes and the games of the model's metadata
            tables = VectorTables(args.env_id, len(table_rules), num_players=sizes or None,
                                  **rules)
            for spec in fixed_specs(args) + [args.hint] * bool(args.hint):
                # built here, so a bad one fails before any worker
                taas.agents.make(spec, args.env_id, seed=0, config=table_rules[0])
        evaluated_against = args.eval_opponent or eval_opponent(args.env_id)
    except ValueError as err:
        raise SystemExit(f"selfplay_ppo: {err}") from None
    run_dir.mkdir(parents=True, exist_ok=True)
    obs_size, num_actions = tables.obs_size, tables.num_actions

    # ---- the network, the optimizer and the pool of past selves ----------------------------
    net = PolicyNet(obs_size, num_actions, args.hidden, hint_weight=hint_weight(args),
                    critic_size=oracle_size(args, obs_size, tables.max_players)).to(device)
    # fused: one kernel for all parameters, not a Python loop over them (on CPU too)
    optimizer = torch.optim.Adam(net.parameters(), lr=args.learning_rate, eps=1e-5, fused=True)
    pool: list[int] = []  # the numbers of the snapshots new episodes draw from
    unsent: dict[int, dict] = {}  # new snapshots' actor weights the workers have not had
    update, global_step = 0, 0
    if args.init_from and not args.resume:
        warm_start(net, args, obs_size, num_actions)
    if args.resume:
        net.load_state_dict(saved["net"])
        optimizer.load_state_dict(saved["optimizer"])
        if local:
            rollout.restore(saved)
        else:
            unsent = dict(saved["unsent"])
        pool, update, global_step = saved["pool"], saved["update"], saved["global_step"]
        rng.bit_generator.state = saved["rng"]
        torch.set_rng_state(saved["torch_rng"])
    meta = model_meta(args.env_id, tables.games[:len(table_rules)], obs_size, args.hidden,
                      dataclasses.asdict(args), "selfplay_ppo", args.deterministic,
                      args.hint, args.hint_weight)

    workers, in_flight, ahead = None, False, None  # ahead: a rollout gathered by a save

    def submit() -> None:
        """Start the workers' next rollout with the network's weights now."""
        nonlocal unsent, in_flight
        weights = {k: v.cpu() for k, v in net.state_dict().items()}
        workers.submit("collect", [{"weights": weights, "pool": pool, "new": unsent}]
                       * args.workers)
        unsent, in_flight = {}, True

    def save() -> None:
        nonlocal ahead, in_flight
        save_model(model_path, meta, net.actor, critic=net.critic.state_dict())
        if local:
            where = rollout.state()
        else:
            saving_flight = in_flight
            if in_flight:  # its start is what a resumed run replays; its data is used next
                ahead, in_flight = workers.gather(), False
                ahead = [{**g, **{k: np.array(g[k]) for k in BATCH}} for g in ahead]
            where = {"workers": workers.call("state", [{"at_start": saving_flight}]
                                             * args.workers),
                     "in_flight": saving_flight, "pool": pool,
                     "unsent": [[k, w] for k, w in unsent.items()],
                     "rng": rng.bit_generator.state}
        torch.save({**where, "args": dataclasses.asdict(args), "net": net.state_dict(),
                    "optimizer": optimizer.state_dict(), "torch_rng": torch.get_rng_state(),
                    "update": update, "global_step": global_step}, ckpt_path.with_suffix(".tmp"))
        ckpt_path.with_suffix(".tmp").replace(ckpt_path)

    if local and not args.resume:
        rollout.reset()
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
    spent, clock = dict.fromkeys(PHASES, 0.0), 0.0
    busy = {f"worker_{k}": 0.0 for k in ROLLOUT_PHASES}  # the workers' seconds, summed

    def lap(phase: str) -> None:
        """Charge the seconds since the last lap to ``phase``."""
        nonlocal clock
        now = time.perf_counter()
        spent[phase] += now - clock
        clock = now

    bar = tqdm(total=args.total_steps, initial=global_step, disable=not args.progress,
               unit="step", desc=args.env_id)
    try:
        # ---- rollout workers: K slices of the tables, each its own generators ---------
        if not local:
            worker_seeds = [int(s.generate_state(1)[0]) for s in seeds.spawn(args.workers)]
            try:
                if args.backend == "ray":
                    workers = RayWorkers(args, args.workers, table_seeds, worker_seeds,
                                         args.address or None)
                else:
                    workers = ProcessWorkers(args, args.workers, table_seeds, worker_seeds,
                                             obs_size, num_actions, tables.max_players)
                if args.resume:
                    workers.call("restore", [{"saved": w} for w in saved["workers"]])
                    if saved["in_flight"]:  # the rollout the save interrupted, collected again
                        workers.submit("collect", [{"weights": None, "pool": None, "new": {}}]
                                       * args.workers)
                        in_flight = True
            except WorkerError as err:  # the finally below closes the ones started
                raise SystemExit(f"selfplay_ppo: a rollout worker failed: {err}") from None
        while global_step < args.total_steps and not stop:
            update += 1
            started = clock = time.perf_counter()

            # ---- ALGO LOGIC: rollout (taas.training.rollout): num_steps learner decisions
            # per table, each rewarded with the change in its seat's return until that seat's
            # next decision, valued, and their advantages estimated (GAE) along each seat's
            # own trajectory. With --overlap the workers already collect the next rollout,
            # with this policy, while this one is learned from.
            if local:
                got = [rollout.collect(net)]
                got[0].update({k: rollout.buf[k][: got[0]["n"]] for k in BATCH})
                clock = time.perf_counter()  # the rollout charged its own phases
            else:
                if ahead is None and not in_flight:
                    submit()
                got, ahead, in_flight = ahead or workers.gather(), None, False
                lap("waiting")
            n = sum(g["n"] for g in got)
            episodes = sum(g["episodes"] for g in got)
            finished = [r for g in got for r in g["finished"]]  # learner returns vs the pool
            # the batch, copied out of the buffers that the next rollout overwrites
            b_obs, b_mask, b_act, b_logp, b_val, b_adv, b_cobs = (
                torch.from_numpy(np.concatenate([g[k] for g in got])).to(device)
                for k in BATCH)
            b_adv = b_adv.float()  # b_mask stays int8: it carries the hints
            b_ret = b_adv + b_val.float()
            b_seen = b_cobs if args.oracle_critic else b_obs  # what the critic reads
            if not local:
                for g in got:
                    for k, seconds in g["spent"].items():
                        busy[f"worker_{k}"] += seconds
                if args.overlap and global_step + n < args.total_steps:
                    submit()
            rollout_s = time.perf_counter() - started
            lap("other")

            # ---- ALGO LOGIC: PPO clipped-objective update on the learner's transitions
            clipfracs, kls = [], []
            for _ in range(args.update_epochs):
                for mb in np.array_split(rng.permutation(n), args.num_minibatches):
                    mb = torch.as_tensor(mb, device=device)
                    logp_all = torch.log_softmax(net.logits(b_obs[mb], b_mask[mb]), -1)
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
                    v_loss = 0.5 * ((net.value(b_seen[mb]) - b_ret[mb]) ** 2).mean()
                    # masked entropy: illegal actions have probability 0 and contribute 0
                    entropy = -(logp_all.exp() * logp_all).sum(-1).mean()
                    loss = args.vf_coef * v_loss
                    if update > args.critic_warmup:
                        loss = loss + pg_loss - args.ent_coef * entropy
                    optimizer.zero_grad()
                    loss.backward()
                    torch.nn.utils.clip_grad_norm_(net.parameters(), args.max_grad_norm,
                                                   foreach=True)
                    optimizer.step()
            global_step += n
            new = {}
            if update % args.snapshot_every == 0:
                new = {update: {k: v.cpu().clone() for k, v in net.actor.state_dict().items()}}
                pool = [*pool, update][-args.pool_size:]
            if local:
                rollout.sync(pool, new)
            else:  # sent with the next rollout
                unsent.update(new)
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
        if workers:
            workers.close()
        if timings is not None:
            if local:
                for phase, seconds in rollout.spent.items():
                    spent[phase] += seconds
            else:
                spent.update(busy)
            for phase, seconds in spent.items():
                timings[phase] = timings.get(phase, 0.0) + seconds
    plot_curve(csv_path, run_dir / "curve.png",
               f"{args.env_id} self-play PPO, evaluated against {evaluated_against}")
    print(f"model: {model_path} (play it as ppo:{model_path}); resume with --resume "
          f"--run-dir {run_dir}")
    return run_dir


if __name__ == "__main__":
    train(parse_args(Args, __doc__.splitlines()[0]))
