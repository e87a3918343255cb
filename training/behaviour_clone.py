"""Behaviour cloning: a policy network that imitates a rule-based player, as a warm start for PPO.

    python -m taas.training.behaviour_clone --env-id continental_v1 --teacher heuristic \\
        --num-players 4 --deals 2000 --run-dir runs/continental_bc
    python -m taas.training.selfplay_ppo --env-id continental_v1 --num-players 4 \\
        --init-from runs/continental_bc/model.pt ...

Why: a PPO learner that starts from random play may never see the events that score. In
Continental a random learner almost never goes out, so it almost never finishes a round and its
reward signal is nearly absent. The teacher (``heuristic``, ``greedy``, any agent that acts from
the observation) fills every seat for ``--deals`` deals; each decision becomes a sample
(observation, legal mask, the teacher's action, and the seat's discounted return from there).
The actor is trained as a classifier over the legal actions (masked cross-entropy), the critic
by regression on those returns, so PPO's first advantages come from a critic that already knows
the game. A tenth of the deals is held out: the curve reports the accuracy on those.

DAgger (``--dagger-iters K``): a clone trained on the teacher's deals only has seen the states
the teacher reaches; its own small mistakes lead it elsewhere, where it errs more (imitation's
compounding errors). Each DAgger iteration lets the current clone play one seat (rotating)
among teachers for ``--dagger-deals`` deals, labels every decision with the teacher's move
(the clone's seat included: the teacher is asked, the clone's move is played), adds them to the
data and trains ``--dagger-epochs`` more epochs on all of it. ``visited_accuracy`` in the curve
is the clone's accuracy on its own seat's new states before that refit: the number DAgger
raises. ``--deterministic`` stores in the model that it plays its most probable move (see
:mod:`taas.agents.learned.ppo`); the DAgger clone then plays that way too.

A search's labels (``--samples DIR``, written by :mod:`taas.training.label_states`, a teacher
too slow to record here) are added to the data; ``--init-from`` starts from a saved model, so
the shipped clone of ``heuristic`` can be fine-tuned toward the search rather than retrained.

``--hint heuristic`` (as in :mod:`taas.training.selfplay_ppo`) adds ``--hint-weight`` to the
logit of that agent's move in every sample, so the network learns only where to leave it; a
``--samples`` chunk's ``reference`` moves are its hints, so its ``reference_spec`` must be the
hint. A hinted model (``selfplay_ppo --hint``) is fine-tuned with its own ``--hint``.

writes to ``--run-dir``: ``model.pt`` (``ppo:RUN_DIR/model.pt``; it also holds the critic, which
``selfplay_ppo --init-from`` loads), ``stage<k>.pt`` (the model after the teacher's deals,
k=0, and after each DAgger iteration), ``curve.csv`` (one row per epoch; the last of each
stage evaluated against ``--eval-opponent`` on duplicate deals) and its plot ``curve.png``.
Same seed, one thread: the same model.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import torch
from tqdm import tqdm

import taas.agents
import taas.envs
from taas.agents.learned.ppo import HINTED, PolicyNet, PPOAgent, model_meta, save_model
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
    teacher: str = field(default="heuristic", metadata={"help": "the agent spec to imitate"})
    deals: int = field(default=2000, metadata={"help": "deals the teacher plays (all seats)"})
    run_dir: str = "runs/bc"
    seed: int = 1
    hidden: int = 128
    epochs: int = 10
    batch_size: int = 256
    learning_rate: float = 1e-3
    gamma: float = field(default=0.99, metadata={"help": "discount of the critic's targets"})
    reward_scale: float = field(default=1.0, metadata={"help": "multiplies the game's points"})
    vf_coef: float = 0.5
    deterministic: bool = field(default=False, metadata={
        "help": "the model plays its most probable move (stored in model.pt)"})
    dagger_iters: int = field(default=0, metadata={
        "help": "DAgger iterations: the clone plays, the teacher labels, refit"})
    dagger_deals: int = field(default=500, metadata={"help": "deals per DAgger iteration"})
    dagger_epochs: int = field(default=3, metadata={"help": "epochs on all data per iteration"})
    samples: str = field(default="", metadata={
        "help": "folders (comma separated) of label_states chunks (a search's labels) to add"})
    min_margin: float = field(default=0.0, metadata={
        "help": "a --samples change of the reference move surer than this many standard "
                "errors is kept; a less sure one is relabelled with the reference move"})
    deviation_weight: float = field(default=1.0, metadata={
        "help": "loss weight of --samples states whose label differs from their reference move"})
    init_from: str = field(default="", metadata={
        "help": "start from this model's actor and critic (fine-tuning)"})
    hint: str = field(default="", metadata={
        "help": "an agent spec whose move gets --hint-weight added to its logit (the clone "
                "learns where to leave it)"})
    hint_weight: float = field(default=3.0, metadata={"help": "the logit added with --hint"})
    eval_deals: int = 100
    eval_opponent: str = ""
    eval_seed: int = 100_000
    eval_players: int = field(default=0, metadata={
        "help": "table size of the evaluations (0: the first of the model's tables)"})
    threads: int = 1
    progress: bool = True


FIELDS = ["epoch", "stage", "samples", "visited_accuracy", "policy_loss", "value_loss",
          "train_accuracy", "heldout_accuracy", "samples_accuracy", "deviation_accuracy",
          "eval_diff", "eval_diff_low", "eval_diff_high", "eval_win_rate"]


def record(raw, teacher, deals: int, rng: np.random.Generator, gamma: float,
           reward_scale: float, learner=None) -> tuple[list, ...]:
    """Observations, masks, the teacher's actions and each decision's discounted return, for
    ``deals`` deals with the teacher in every seat (a seat's reward between two of its decisions
    is the change in its return, as in :mod:`taas.training.selfplay_ppo`). With a ``learner``,
    it plays seat ``deal % players`` instead (the teacher still labels that seat's states), and
    a fifth list gives the indices of the learner's decisions. A teacher that searches the
    engine (``uses_state``, e.g. ``ismcts:400``) is handed the state, as in ``play_game``."""
    game, observer = raw.game, raw.observer
    obs_l, mask_l, act_l, ret_l, mine = [], [], [], [], []
    for deal in range(deals):
        state = game.new_state(rng)
        seats: dict[int, list] = {}  # seat -> [(sample index, its return when it decided)]
        while not game.is_terminal(state):
            p = game.current_player(state)
            obs, mask = observer.encode(state, p), game.legal_mask(state)
            seats.setdefault(p, []).append((len(act_l), game.returns(state)[p]))
            obs_l.append(obs)
            mask_l.append(mask)
            act_l.append(teacher.act_state(game, state, p) if teacher.uses_state
                         else teacher.act(obs, mask))
            ret_l.append(0.0)
            if learner is not None and p == deal % len(raw.possible_agents):
                mine.append(len(act_l) - 1)
                game.apply_action(state, learner.act(obs, mask))
            else:
                game.apply_action(state, act_l[-1])
        final = game.returns(state)
        for p, decisions in seats.items():
            later = final[p]
            target = 0.0
            for k, base in reversed(decisions):
                target = (later - base) * reward_scale + gamma * target
                ret_l[k], later = target, base
    return (obs_l, mask_l, act_l, ret_l) + ((mine,) if learner is not None else ())


def hinted(part: tuple, hint) -> tuple:
    """A recorded ``part`` with the hint player's move in each state as its reference (the
    part itself without a hint)."""
    if hint is None:
        return part
    obs, mask = part[0], part[1]
    return (*part[:4], [hint.act(o, m) for o, m in zip(obs, mask, strict=True)])


def load_samples(folder: str, env_id: str, min_margin: float = 0.0, hint: str = ""
                 ) -> tuple[list, list, list[dict]]:
    """The chunks of :mod:`taas.training.label_states` under ``folder`` (several: comma
    separated) as (training parts, held-out parts, their tables' rules); every tenth chunk is
    held out. A part is (obs, mask,
    act, ret, reference); a label that left the reference move with a margin below
    ``min_margin`` standard errors is replaced by the reference move. With a ``hint``, every
    chunk's reference moves must be that agent's."""
    paths = sorted(p for f in folder.split(",") for p in Path(f).rglob("chunk_*.npz"))
    if not paths:
        raise SystemExit(f"--samples {folder}: no chunk_*.npz files (label_states writes them)")
    train_parts, held_parts, tables = [], [], []
    for i, path in enumerate(paths):
        with np.load(path) as chunk:
            if str(chunk["env_id"]) != env_id:
                raise SystemExit(f"--samples {path} labels {chunk['env_id']}, not {env_id}")
            rules = json.loads(str(chunk["rules"]))
            obs, mask, act, ret, reference = (chunk[k] for k in ("obs", "mask", "act", "ret",
                                                                 "reference"))
            if min_margin > 0:
                if "margin" not in chunk.files:
                    raise SystemExit(f"--min-margin: {path} has no margins (an older chunk)")
                act = np.where(chunk["margin"] < min_margin, reference, act)
            if hint and str(chunk.get("reference_spec", "")) != hint:
                raise SystemExit(f"--hint {hint}: {path} holds the moves of --reference "
                                 f"{chunk.get('reference_spec', '(not recorded)')}, not the hint's")
        part = (obs, mask, act, ret, reference)
        tables += [rules] if rules not in tables else []
        (held_parts if len(paths) > 1 and i % 10 == 0 else train_parts).append(part)
    return train_parts, held_parts, tables


def train(args: Args) -> Path:
    run_dir = Path(args.run_dir)
    run_dir.mkdir(parents=True, exist_ok=True)
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    rules = parse_rules(args.rules)
    sizes = [int(n) for n in args.num_players.split(",") if n] or [None]
    table_rules = [{**rules, **({"num_players": n} if n else {})} for n in sizes]
    raws = [taas.envs.make(args.env_id, wrapped=False, **r) for r in table_rules]
    sample_train, sample_held, sample_rules = (load_samples(args.samples, args.env_id,
                                                            args.min_margin, args.hint)
                                               if args.samples else ([], [], []))
    extra = [r for r in sample_rules if r not in table_rules]
    model_rules = table_rules + extra  # the model plays these
    games = raws + [taas.envs.make(args.env_id, wrapped=False, **r) for r in extra]
    obs_size, num_actions = raws[0].observer.low.shape[0], raws[0].game.num_actions
    if {(g.observer.low.shape[0], g.game.num_actions) for g in games} != {(obs_size,
                                                                          num_actions)}:
        raise SystemExit(f"{args.env_id}: tables {model_rules} have different observation sizes")
    eval_rules = next((r for r in model_rules if r.get("num_players") == args.eval_players),
                      None) if args.eval_players else model_rules[0]
    if eval_rules is None:
        raise SystemExit(f"--eval-players {args.eval_players}: the model plays no such table")

    # ---- the teacher plays every seat; the last tenth of each size's deals is held out
    seeds = np.random.SeedSequence(args.seed).spawn(len(raws) + 1)
    rng = np.random.default_rng(seeds[-1])  # minibatch order
    train_set, held_set = [], []
    per_size = max(1, args.deals // len(raws)) if args.deals else 0
    hints = [taas.agents.make(args.hint, args.env_id, seed=args.seed * 1000 + i, config=r)
             if args.hint else None for i, r in enumerate(table_rules)]
    for i, (raw, r) in enumerate(zip(raws, table_rules, strict=True)):
        teacher = taas.agents.make(args.teacher, args.env_id, seed=args.seed * 1000 + i, config=r)
        held = max(1, per_size // 10) if per_size > 1 else 0
        deal_rng = np.random.default_rng(seeds[i])
        train_set.append(hinted(record(raw, teacher, per_size - held, deal_rng, args.gamma,
                                       args.reward_scale), hints[i]))
        held_set.append(hinted(record(raw, teacher, held, deal_rng, args.gamma,
                                      args.reward_scale), hints[i]))

    def tensors(parts: list) -> tuple[torch.Tensor, ...]:
        """(obs, mask, act, ret, loss weight); a part with a reference move (``--samples``,
        or the hint's) weighs ``--deviation-weight`` where its label differs from it; with
        ``--hint`` the mask marks the reference move ``HINTED``."""
        parts = [p for p in parts if len(p[2])]
        if not parts:
            return ()
        weight = [np.where(np.asarray(p[2]) != p[4], args.deviation_weight, 1.0) if len(p) > 4
                  else np.ones(len(p[2])) for p in parts]
        mask = torch.as_tensor(np.concatenate([np.stack(p[1]) for p in parts])).bool()
        if args.hint:
            mask = mask.to(torch.int8)
            mask[torch.arange(len(mask)),
                 torch.as_tensor(np.concatenate([np.asarray(p[4], np.int64) for p in parts]))
                 ] = HINTED
        return (torch.as_tensor(np.concatenate([np.stack(p[0]) for p in parts]),
                                dtype=torch.float32),
                mask,
                torch.as_tensor(np.concatenate([np.asarray(p[2], np.int64) for p in parts])),
                torch.as_tensor(np.concatenate([np.asarray(p[3]) for p in parts]),
                                dtype=torch.float32),
                torch.as_tensor(np.concatenate(weight), dtype=torch.float32))

    data, held = tensors(train_set + sample_train), tensors(held_set)
    searched = tensors(sample_held)  # held-out samples; deviations: label != reference move
    deviates = (torch.as_tensor(np.concatenate([p[2] != p[4] for p in sample_held]))
                if sample_held else None)
    del train_set, held_set, sample_train, sample_held
    if not data:
        raise SystemExit("no training data: give --deals or --samples")

    # ---- ALGO LOGIC: masked cross-entropy for the actor, squared error for the critic
    net = PolicyNet(obs_size, num_actions, args.hidden,
                    hint_weight=args.hint_weight if args.hint else 0.0)
    if args.init_from:
        warm_start(net, args, obs_size, num_actions)
    optimizer = torch.optim.Adam(net.parameters(), lr=args.learning_rate)
    meta = model_meta(args.env_id, [g.game for g in games], obs_size, args.hidden,
                      dataclasses.asdict(args), "behaviour_clone", args.deterministic,
                      args.hint, args.hint_weight)
    log = CurveLog(run_dir / "curve.csv", FIELDS)
    epoch = 0

    def fit(epochs: int, stage: int, first: dict) -> None:
        """``epochs`` passes over ``data``; the last one saves the stage's model and evaluates."""
        nonlocal epoch
        n = len(data[2])
        for last in tqdm([False] * (epochs - 1) + [True], disable=not args.progress,
                         desc=f"{args.env_id} stage {stage}", unit="epoch"):
            epoch += 1
            losses, correct = [], 0
            for mb in np.array_split(rng.permutation(n), max(1, n // args.batch_size)):
                obs, mask, act, ret, weight = (t[mb] for t in data)
                logits = net.logits(obs, mask)
                pg_loss = (torch.nn.functional.cross_entropy(logits, act, reduction="none")
                           * weight).sum() / weight.sum()
                v_loss = 0.5 * ((net.value(obs) - ret) ** 2).mean()
                optimizer.zero_grad()
                (pg_loss + args.vf_coef * v_loss).backward()
                optimizer.step()
                losses.append((pg_loss.item(), v_loss.item()))
                correct += int((logits.argmax(-1) == act).sum())
            row = {"epoch": epoch, "stage": stage, "samples": n, **first,
                   "policy_loss": float(np.mean([x[0] for x in losses])),
                   "value_loss": float(np.mean([x[1] for x in losses])),
                   "train_accuracy": correct / n}
            first = {}
            with torch.no_grad():
                if held:
                    row["heldout_accuracy"] = float(
                        (net.logits(held[0], held[1]).argmax(-1) == held[2]).float().mean())
                if searched:
                    hits = net.logits(searched[0], searched[1]).argmax(-1) == searched[2]
                    row["samples_accuracy"] = float(hits.float().mean())
                    if deviates.any():
                        row["deviation_accuracy"] = float(hits[deviates].float().mean())
            if last:
                save_model(run_dir / "model.pt", meta, net.actor, critic=net.critic.state_dict())
                shutil.copyfile(run_dir / "model.pt", run_dir / f"stage{stage}.pt")
                with torch.random.fork_rng(devices=[]):
                    row.update(evaluate(run_dir / "model.pt", args.env_id, eval_rules,
                                        args.eval_opponent or eval_opponent(args.env_id),
                                        args.eval_deals, args.eval_seed))
            log.write(row)
            tqdm.write(", ".join(f"{k} {v:.4g}" if isinstance(v, float) else f"{k} {v}"
                                 for k, v in row.items()))

    fit(args.epochs, 0, {})

    # ---- DAgger: the clone plays one seat, the teacher labels its states, refit on all data
    dagger_rngs = [np.random.default_rng(s) for s in
                   np.random.SeedSequence(args.seed).spawn(2 * len(raws) + 1)[len(raws) + 1:]]
    for stage in range(1, args.dagger_iters + 1):
        parts, mine = [], []
        for i, (raw, r) in enumerate(zip(raws, table_rules, strict=True)):
            teacher = taas.agents.make(args.teacher, args.env_id, seed=args.seed * 1000 + i,
                                       config=r)
            learner = PPOAgent(net, meta, seed=args.seed * 1000 + stage, hint=hints[i])
            *part, own = record(raw, teacher, max(1, args.dagger_deals // len(raws)),
                                dagger_rngs[i], args.gamma, args.reward_scale, learner=learner)
            offset = sum(len(q[2]) for q in parts)
            parts.append(hinted(tuple(part), hints[i]))
            mine += [offset + k for k in own]
        new = tensors(parts)
        with torch.no_grad():
            visited = float((net.logits(new[0][mine], new[1][mine]).argmax(-1)
                             == new[2][mine]).float().mean())
        data = tuple(torch.cat(pair) for pair in zip(data, new, strict=True))
        fit(args.dagger_epochs, stage, {"visited_accuracy": visited})
    plot_curve(run_dir / "curve.csv", run_dir / "curve.png",
               f"{args.env_id} clone of {args.teacher}, evaluated at the end of each stage",
               x="epoch", xlabel="epochs (stage 0 the teacher's deals, then DAgger iterations)",
               lower=("heldout_accuracy", "visited_accuracy", "samples_accuracy",
                      "deviation_accuracy"),
               lower_label="accuracy (teacher's move)")
    return run_dir


if __name__ == "__main__":
    train(parse_args(Args, __doc__.splitlines()[0]))
