"""Self-play PPO with action masking, in plain torch, one file read top to bottom (CleanRL style).

Every seat of every table is played either by the learner (the current network: its decisions
are the training data) or by an opponent drawn from a pool of its own past snapshots or from
the fixed agents named by ``--fixed-opponents`` (which take a ``--fixed-prob`` share of those
seats). An episode is all-learner with probability ``--selfplay-prob``; otherwise one random
seat is the learner and the pool fills the others.
Tables of several sizes (``--num-players 3,4,5,6``) train one network: observations are padded
to the largest table, so the same model plays every size it has seen.

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
from torch.distributions import Categorical
from tqdm import tqdm

import taas.agents
import taas.envs
from taas.agents.learned.ppo import PolicyNet, model_meta, save_model
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
    num_envs: int = 16
    num_steps: int = 32
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


@dataclass
class Table:
    """One table: its engine, whose policy plays each seat this episode (``None`` = learner),
    and per seat the index of its last transition awaiting a reward and the return then."""

    game: object
    observer: object
    rng: np.random.Generator
    fixed: list  # the fixed opponents, built for this table's rules
    state: object = None
    roles: list = field(default_factory=list)
    pending: list = field(default_factory=list)
    base: np.ndarray = None
    dealt: dict = None  # the generator's state before this episode's deal
    moves: list = field(default_factory=list)  # the actions since: with ``dealt``, the state


def table_record(t: Table, nets: list) -> dict:
    """A table as plain values (a resumable checkpoint holds no pickled objects); the
    snapshots its roles use are appended to ``nets`` and named by their index there."""
    def role(r):
        if r is None:
            return None
        if isinstance(r, PolicyNet):
            if all(n is not r for n in nets):
                nets.append(r)
            return ["net", next(i for i, n in enumerate(nets) if n is r)]
        return ["fixed", next(i for i, f in enumerate(t.fixed) if f is r)]

    return {"rng": t.rng.bit_generator.state, "dealt": t.dealt, "moves": list(t.moves),
            "roles": [role(r) for r in t.roles], "pending": list(t.pending),
            "base": t.base.tolist(), "fixed_rngs": [f.rng.bit_generator.state for f in t.fixed]}


def restore_table(t: Table, record: dict, nets: list) -> None:
    """Set ``t`` to a :func:`table_record`: re-deal and replay its episode."""
    t.rng.bit_generator.state = record["dealt"]
    t.state, t.dealt = t.game.new_state(t.rng), record["dealt"]
    for a in record["moves"]:
        t.game.apply_action(t.state, a)
    t.moves = list(record["moves"])
    t.rng.bit_generator.state = record["rng"]
    t.roles = [None if r is None else nets[r[1]] if r[0] == "net" else t.fixed[r[1]]
               for r in record["roles"]]
    t.pending, t.base = list(record["pending"]), np.array(record["base"])
    for f, state in zip(t.fixed, record["fixed_rngs"], strict=True):
        f.rng.bit_generator.state = state


def train(args: Args) -> Path:
    run_dir = Path(args.run_dir)
    ckpt_path, model_path, csv_path = (run_dir / n for n in ("checkpoint.pt", "model.pt",
                                                             "curve.csv"))
    if args.resume:
        saved = torch.load(ckpt_path, map_location="cpu", weights_only=True)
        args = Args(**{**saved["args"], **{k: getattr(args, k) for k in RESUMABLE}})
    elif ckpt_path.exists():
        raise SystemExit(f"{ckpt_path} exists: pass --resume to continue it, or another --run-dir")
    run_dir.mkdir(parents=True, exist_ok=True)
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    device = torch.device(args.device)
    rules = parse_rules(args.rules)
    sizes = [int(n) for n in args.num_players.split(",") if n] or [None]
    table_rules = [{**rules, **({"num_players": n} if n else {})} for n in sizes]
    fixed_specs = [s for s in args.fixed_opponents.split(",") if s]
    evaluated_against = args.eval_opponent or eval_opponent(args.env_id)

    # ---- env setup: one engine per table size, tables cycle through the sizes --------------
    raws = [taas.envs.make(args.env_id, wrapped=False, **r) for r in table_rules]
    obs_size, num_actions = raws[0].observer.low.shape[0], raws[0].game.num_actions
    if {(r.observer.low.shape[0], r.game.num_actions) for r in raws} != {(obs_size, num_actions)}:
        raise SystemExit(f"{args.env_id}: table sizes {sizes} have different observation sizes")
    seeds = np.random.SeedSequence(args.seed).spawn(args.num_envs + 1)
    rng = np.random.default_rng(seeds[-1])  # roles and minibatch order
    tables = []
    for i in range(args.num_envs):
        raw, r = raws[i % len(raws)], table_rules[i % len(raws)]
        fixed = [taas.agents.make(s, args.env_id, seed=args.seed * 1000 + i, config=r)
                 for s in fixed_specs]
        tables.append(Table(raw.game, raw.observer, np.random.default_rng(seeds[i]), fixed))

    # ---- the network, the optimizer and the pool of past selves ----------------------------
    net = PolicyNet(obs_size, num_actions, args.hidden).to(device)
    optimizer = torch.optim.Adam(net.parameters(), lr=args.learning_rate, eps=1e-5)
    pool: list[PolicyNet] = []  # snapshots: actor only
    update, global_step = 0, 0
    if args.init_from and not args.resume:
        warm_start(net, args, obs_size, num_actions)
    if args.resume:
        net.load_state_dict(saved["net"])
        optimizer.load_state_dict(saved["optimizer"])
        nets = []
        for weights in saved["nets"]:
            nets.append(PolicyNet(obs_size, num_actions, args.hidden, critic=False).to(device))
            nets[-1].actor.load_state_dict(weights)
        pool = [nets[i] for i in saved["pool"]]
        for t, record in zip(tables, saved["tables"], strict=True):
            restore_table(t, record, nets)
        update, global_step = saved["update"], saved["global_step"]
        rng.bit_generator.state = saved["rng"]
        torch.set_rng_state(saved["torch_rng"])
    meta = model_meta(args.env_id, [r.game for r in raws], obs_size, args.hidden,
                      dataclasses.asdict(args), "selfplay_ppo", args.deterministic)

    def deal(t: Table) -> None:
        """A new episode at table ``t`` with fresh roles drawn for its seats."""
        n = t.game.num_players
        t.dealt, t.moves = t.rng.bit_generator.state, []
        t.state = t.game.new_state(t.rng)
        t.pending, t.base = [-1] * n, np.zeros(n)
        t.roles = [None] * n
        if (t.fixed or pool) and rng.random() >= args.selfplay_prob:
            for seat in range(n):
                group = t.fixed if t.fixed and (not pool or rng.random() < args.fixed_prob) \
                    else pool
                t.roles[seat] = group[int(rng.integers(len(group)))]
            t.roles[int(rng.integers(n))] = None

    def save() -> None:
        save_model(model_path, meta, net.actor, critic=net.critic.state_dict())
        nets = list(pool)
        records = [table_record(t, nets) for t in tables]
        torch.save({"args": dataclasses.asdict(args), "net": net.state_dict(),
                    "optimizer": optimizer.state_dict(), "pool": list(range(len(pool))),
                    "nets": [{k: v.cpu() for k, v in n.actor.state_dict().items()}
                             for n in nets],
                    "tables": records, "rng": rng.bit_generator.state,
                    "torch_rng": torch.get_rng_state(), "update": update,
                    "global_step": global_step}, ckpt_path.with_suffix(".tmp"))
        ckpt_path.with_suffix(".tmp").replace(ckpt_path)

    if not args.resume:
        for t in tables:
            deal(t)
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
    batch_size = args.num_envs * args.num_steps
    bar = tqdm(total=args.total_steps, initial=global_step, disable=not args.progress,
               unit="step", desc=args.env_id)
    try:
        while global_step < args.total_steps and not stop:
            update += 1
            started = time.perf_counter()
            # ---- ALGO LOGIC: rollout. Each step, every table's player to move acts; the
            # learner's decisions become transitions, each rewarded with the change in its
            # seat's return until that seat's next decision (or the end of the episode).
            obs_l, mask_l, act_l, logp_l, val_l = [], [], [], [], []
            rew_l, done_l, next_l, boot_l = [], [], [], []
            finished: list[float] = []  # learner returns in episodes against the pool
            episodes = 0
            while len(act_l) < batch_size:
                groups: dict[int, tuple] = {}
                for t in tables:
                    p = t.game.current_player(t.state)
                    role = t.roles[p]
                    groups.setdefault(id(role), (role, []))[1].append((t, p))
                for role, members in groups.values():
                    if role is not None and not isinstance(role, PolicyNet):  # a fixed agent
                        actions = [role.act(t.observer.encode(t.state, p), t.game.legal_mask(
                            t.state)) for t, p in members]
                    else:
                        obs = np.stack([t.observer.encode(t.state, p) for t, p in members])
                        mask = np.stack([t.game.legal_mask(t.state) for t, p in members])
                        obs_t = torch.as_tensor(obs, dtype=torch.float32, device=device)
                        mask_t = torch.as_tensor(mask, device=device).bool()
                        with torch.no_grad():
                            dist = Categorical(logits=(role or net).logits(obs_t, mask_t))
                            act_t = dist.sample()
                        actions = act_t.tolist()
                        if role is None:
                            with torch.no_grad():
                                values = net.value(obs_t).tolist()
                            logps = dist.log_prob(act_t).tolist()
                            for j, (t, p) in enumerate(members):
                                ret = t.game.returns(t.state)[p]
                                if t.pending[p] >= 0:
                                    rew_l[t.pending[p]] = (ret - t.base[p]) * args.reward_scale
                                    next_l[t.pending[p]] = len(act_l)
                                t.pending[p], t.base[p] = len(act_l), ret
                                obs_l.append(obs[j])
                                mask_l.append(mask[j])
                                act_l.append(actions[j])
                                logp_l.append(logps[j])
                                val_l.append(values[j])
                                rew_l.append(0.0)
                                done_l.append(False)
                                next_l.append(-1)
                                boot_l.append(0.0)
                    for (t, _), a in zip(members, actions, strict=True):
                        t.game.apply_action(t.state, a)
                        t.moves.append(a)
                        if t.game.is_terminal(t.state):
                            returns = t.game.returns(t.state)
                            for p, k in enumerate(t.pending):
                                if k >= 0:
                                    rew_l[k] = (returns[p] - t.base[p]) * args.reward_scale
                                    done_l[k] = True
                            if any(r is not None for r in t.roles):
                                finished += [returns[p] for p, r in enumerate(t.roles)
                                             if r is None]
                            episodes += 1
                            deal(t)
            # the rollout ends mid-episode: bootstrap each waiting transition from its value
            cut = [(t, p, k) for t in tables for p, k in enumerate(t.pending) if k >= 0]
            if cut:
                obs = np.stack([t.observer.encode(t.state, p) for t, p, _ in cut])
                obs_t = torch.as_tensor(obs, dtype=torch.float32, device=device)
                with torch.no_grad():
                    values = net.value(obs_t).tolist()
                for (t, p, k), v in zip(cut, values, strict=True):
                    ret = t.game.returns(t.state)[p]
                    rew_l[k], boot_l[k] = (ret - t.base[p]) * args.reward_scale, v
                    t.pending[p], t.base[p] = -1, ret
            rollout_s = time.perf_counter() - started

            # ---- ALGO LOGIC: generalized advantage estimation, per seat's own trajectory
            n = len(act_l)
            values = np.array(val_l)
            adv = np.zeros(n)
            for i in reversed(range(n)):
                nxt = next_l[i]
                next_v = 0.0 if done_l[i] else values[nxt] if nxt >= 0 else boot_l[i]
                next_adv = adv[nxt] if nxt >= 0 and not done_l[i] else 0.0
                delta = rew_l[i] + args.gamma * next_v - values[i]
                adv[i] = delta + args.gamma * args.gae_lambda * next_adv
            b_obs = torch.as_tensor(np.stack(obs_l), device=device)
            b_mask = torch.as_tensor(np.stack(mask_l), device=device).bool()
            b_act = torch.as_tensor(act_l, device=device)
            b_logp = torch.as_tensor(logp_l, device=device)
            b_adv = torch.as_tensor(adv, dtype=torch.float32, device=device)
            b_ret = b_adv + torch.as_tensor(values, dtype=torch.float32, device=device)

            # ---- ALGO LOGIC: PPO clipped-objective update on the learner's transitions
            clipfracs, kls = [], []
            for _ in range(args.update_epochs):
                for mb in np.array_split(rng.permutation(n), args.num_minibatches):
                    mb = torch.as_tensor(mb, device=device)
                    dist = Categorical(logits=net.logits(b_obs[mb], b_mask[mb]))
                    logratio = dist.log_prob(b_act[mb]) - b_logp[mb]
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
                    v_loss = 0.5 * ((net.value(b_obs[mb]) - b_ret[mb]) ** 2).mean()
                    # masked entropy: illegal actions have probability ~0 and contribute ~0
                    entropy = dist.entropy().mean()
                    loss = pg_loss - args.ent_coef * entropy + args.vf_coef * v_loss
                    optimizer.zero_grad()
                    loss.backward()
                    torch.nn.utils.clip_grad_norm_(net.parameters(), args.max_grad_norm)
                    optimizer.step()
            global_step += n
            if update % args.snapshot_every == 0:
                snapshot = PolicyNet(obs_size, num_actions, args.hidden, critic=False).to(device)
                snapshot.actor.load_state_dict(net.actor.state_dict())
                pool = [*pool, snapshot][-args.pool_size:]

            # ---- logging, evaluation on duplicate deals, checkpoints
            row = {"update": update, "global_step": global_step, "episodes": episodes,
                   "episode_return": float(np.mean(finished)) if finished else "",
                   "policy_loss": pg_loss.item(), "value_loss": v_loss.item(),
                   "entropy": entropy.item(), "approx_kl": float(np.mean(kls)),
                   "clipfrac": float(np.mean(clipfracs)), "pool": len(pool)}
            done_now = global_step >= args.total_steps or bool(stop)
            if update % args.eval_every == 0 or done_now:
                save_model(model_path, meta, net.actor, critic=net.critic.state_dict())
                eval_rules = table_rules[0]
                row.update(evaluate(model_path, args.env_id, eval_rules, evaluated_against,
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
    finally:
        bar.close()
        if writer:
            writer.close()
        if in_main:
            signal.signal(signal.SIGINT, old_handler)
    plot_curve(csv_path, run_dir / "curve.png",
               f"{args.env_id} self-play PPO, evaluated against {evaluated_against}")
    return run_dir


if __name__ == "__main__":
    train(parse_args(Args, __doc__.splitlines()[0]))
