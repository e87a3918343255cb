"""Afterstate values distilled from a paired search's choices (Marriage, Rommé, Nepali Marriage).

    python -m taas.training.label_states --env-id marriage_v1 --num-players 4 \\
        --teacher ismcts:54 --learner heuristic --deals 2000 --chunk-deals 5 --seed 21 \\
        --out-dir runs/marriage_labels/21
    python -m taas.training.search_afterstate --env-id marriage_v1 \\
        --samples runs/marriage_labels --run-dir runs/marriage_search_value

Why: in these games the paired improvement search (``ismcts:N``) beats ``heuristic`` by
replacing some of its moves with another of its first ``WIDTH`` (the determinizer module's),
but cloning those choices into a policy network over the raw observation failed: the network
learned few of the changes and made others where the search made none
(docs/training/models.md). Here the search's choice among the heuristic's first ``--width``
moves is learned by the afterstate player of the game (:mod:`taas.agents.learned.afterstate`):
a value network over the features of the hand each move leaves (the heuristic's own judgement
of it among them), fitted so that the softmax of the candidates' values predicts the search's
choice (cross-entropy over each group of candidates). Its rows compare moves through what
they leave, so what one change teaches carries over to other hands. A change the search made
by fewer than ``--min-margin`` standard errors is relabelled as the heuristic's move (the
chunks keep each change's margin; a change that clears the search's bar barely is often noise).

Algorithm logic:
  1. read the chunks of :mod:`taas.training.label_states` under ``--samples`` (labelled with
     ``heuristic`` as the reference; every tenth chunk held out, as ``behaviour_clone`` does);
     a state where the heuristic's first move is a choice of the afterstate player (a discard,
     a Marriage dublee swap, a Rommé or Nepali draw) and its first ``--width`` moves hold
     two or more becomes a group: the candidates' feature rows and the index of the
     search's move among them;
  2. fit the network by cross-entropy over each group for ``--epochs``, logging per epoch
     the held-out agreement with the search, the share of its changes the network's
     favourite repeats and the share of its kept moves the network would change;
  3. choose the ``margin`` by which the network's favourite must beat the heuristic's move
     before the player plays it: the one with the best held-out agreement, or
     ``--play-margin`` (agreement counts a wrong change as dear as a right one is worth,
     which in play it need not be: a margin chosen by play on selection deals goes here);
  4. save ``model.pt`` (``ppo:RUN_DIR/model.pt``; it keeps ``margin`` and ``width``),
     evaluate it against ``heuristic`` on ``--eval-deals`` duplicate deals, write
     ``curve.csv``, ``curve.png`` and TensorBoard's ``tb/``. Same arguments, same model (one
     thread); a rerun on the same samples reads the feature rows back from ``RUN_DIR``.
"""

from __future__ import annotations

import dataclasses
import hashlib
import inspect
import json
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import torch
from tqdm import tqdm

import taas.agents
import taas.envs
from taas.agents.learned.afterstate import DiscardValuePlayer
from taas.agents.learned.ppo import afterstate_player, mlp, model_meta, save_model
from taas.training.afterstate_value import choose_margin
from taas.training.behaviour_clone import load_samples
from taas.training.common import CurveLog, evaluate, parse_args, plot_curve

FIELDS = ["epoch", "groups", "train_loss", "held_accuracy", "held_changes",
          "held_false_changes", "margin", "eval_diff", "eval_diff_low", "eval_diff_high",
          "eval_win_rate"]
REFERENCE = "heuristic"  # the rule player whose moves the afterstate player re-ranks


@dataclass
class Args:
    env_id: str = "marriage_v1"
    samples: str = field(default="", metadata={
        "help": "folders (comma separated) of label_states chunks, reference heuristic"})
    min_margin: float = field(default=3.0, metadata={
        "help": "a change surer than this many standard errors is kept; a less sure one is "
                "relabelled with the heuristic's move"})
    width: int = field(default=3, metadata={
        "help": "the heuristic's first moves compared (the search's WIDTH)"})
    play_margin: float = field(default=-1.0, metadata={
        "help": "the margin the player keeps (negative: the one with the best held-out "
                "agreement with the search)"})
    hidden: int = 128
    epochs: int = 20
    learning_rate: float = 1e-3
    batch_size: int = 256
    seed: int = 1
    jobs: int = field(default=2, metadata={"help": "processes computing the feature rows"})
    eval_deals: int = field(default=200, metadata={"help": "duplicate deals vs heuristic"})
    eval_seed: int = 100_000
    threads: int = 1
    run_dir: str = "runs/search_value"
    tensorboard: bool = field(default=True, metadata={
        "help": "also log the curve for TensorBoard (RUN_DIR/tb)"})
    progress: bool = True


def part_groups(task: tuple) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """One chunk's groups: feature rows ``[groups, width, features]`` (padding zero), the
    valid candidates ``[groups, width]``, the search's candidate per group, and the number of
    states whose stored reference move is not the heuristic's first (which must be 0)."""
    env_id, rules, width, (obs, mask, act, _ret, reference) = task
    player = afterstate_player(env_id)
    heuristic = taas.agents.make(REFERENCE, env_id, seed=0, config=rules)
    rows, valid, labels, stale = [], [], [], 0
    for o, m, a, r in zip(obs, mask, act, reference, strict=True):
        ranked = heuristic.ranking(o, m)
        if ranked[0] != r:
            stale += 1
            continue
        choices = [c for c in ranked[:width] if player.is_choice(c)]
        if not player.is_choice(ranked[0]) or len(choices) < 2 or a not in choices:
            continue
        x = np.zeros((width, player.NUM_FEATURES), np.float32)
        x[: len(choices)] = player.features(heuristic, o, np.array(choices))
        rows.append(x)
        valid.append(np.arange(width) < len(choices))
        labels.append(choices.index(a))
    return (np.array(rows, np.float32).reshape(-1, width, player.NUM_FEATURES),
            np.array(valid, bool).reshape(-1, width), np.array(labels, np.int64), stale)


def build_groups(args: Args, parts: list, rules: dict, desc: str) -> dict[str, torch.Tensor]:
    """The groups of ``parts``, computed in ``--jobs`` processes."""
    tasks = [(args.env_id, rules, args.width, p) for p in parts]
    with ProcessPoolExecutor(args.jobs) as pool:
        done = list(tqdm(pool.map(part_groups, tasks), total=len(tasks), unit="chunk",
                         desc=desc, disable=not args.progress))
    stale = sum(d[3] for d in done)
    if stale:
        raise SystemExit(f"--samples: {stale} states' reference moves are not {REFERENCE}'s "
                         "first move here (labelled by other code or other rules)")
    x, valid, label = (np.concatenate([d[i] for d in done]) for i in range(3))
    return {"x": torch.from_numpy(x), "valid": torch.from_numpy(valid),
            "label": torch.from_numpy(label)}


def cached_groups(args: Args, run: Path, parts: list, rules: dict, name: str) -> dict:
    """:func:`build_groups`, kept in ``RUN_DIR/<name>.pt`` for reruns with the same samples,
    width, margin and feature code (another fit of the same rows skips the feature pass; a
    changed afterstate module makes new rows)."""
    code = inspect.getsource(sys.modules[afterstate_player(args.env_id).__module__])
    key = hashlib.sha256(json.dumps([args.env_id, args.samples, args.width, args.min_margin,
                                     [len(p[2]) for p in parts], code]).encode()).hexdigest()
    path = run / f"{name}.pt"
    if path.exists():
        saved = torch.load(path, weights_only=True)
        if saved.get("key") == key:
            return saved["groups"]
    groups = build_groups(args, parts, rules, f"{name} features")
    torch.save({"key": key, "groups": groups}, path)
    return groups


def scores(net: torch.nn.Module, g: dict) -> torch.Tensor:
    """Each candidate's value, padding at -inf."""
    return net(g["x"]).squeeze(-1).masked_fill(~g["valid"], -torch.inf)


def agreement(values: torch.Tensor, label: torch.Tensor, margin: float) -> dict:
    """How a player that plays the network's favourite when it beats the heuristic's move
    (candidate 0) by more than ``margin`` agrees with the search on these groups."""
    best = values.argmax(1)
    gap = values.gather(1, best[:, None]).squeeze(1) - values[:, 0]
    play = torch.where(gap > margin, best, 0)
    changed = label != 0
    return {"held_accuracy": float((play == label).float().mean()),
            "held_changes": float((play[changed] == label[changed]).float().mean())
            if changed.any() else float("nan"),
            "held_false_changes": float((play[~changed] != 0).float().mean())
            if (~changed).any() else float("nan")}


def margin_for(values: torch.Tensor, label: torch.Tensor) -> float:
    """The margin with the best held-out agreement: :func:`afterstate_value.choose_margin`
    with the search's choice as the only candidate that pays (one-hot returns), so each
    overrule gains one where it repeats the search's change and loses one where the search
    kept the heuristic's move."""
    returns = np.eye(values.shape[1], dtype=np.float32)[label.numpy()]
    return choose_margin(values.numpy(), returns)["margin"]


def main(argv: list[str] | None = None) -> Path:
    args = parse_args(Args, __doc__.splitlines()[0], argv)
    spec = taas.envs.spec_for(args.env_id) if args.env_id in taas.envs.available_envs() else None
    if spec is None or not spec.afterstate or not issubclass(afterstate_player(args.env_id),
                                                             DiscardValuePlayer):
        games = [e for s in taas.envs.games() if s.afterstate for e in s.envs
                 if issubclass(afterstate_player(e), DiscardValuePlayer)]
        raise SystemExit(f"--env-id {args.env_id!r}: choose one of {', '.join(games)} (the "
                         "games whose afterstate player re-ranks its heuristic's moves)")
    if not args.samples:
        raise SystemExit("--samples: give the folders label_states wrote")
    if args.width < 2:
        raise SystemExit("--width: at least 2 moves to choose between")
    train_parts, held_parts, tables = load_samples(args.samples, args.env_id, args.min_margin,
                                                   hint=REFERENCE)
    if len(tables) != 1 or not held_parts:
        raise SystemExit(f"--samples: need one table's labels in two or more chunks, got "
                         f"{len(tables)} tables in {len(train_parts) + len(held_parts)} chunks")
    rules = tables[0]
    run = Path(args.run_dir)
    run.mkdir(parents=True, exist_ok=True)
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    data = cached_groups(args, run, train_parts, rules, "train_groups")
    held = cached_groups(args, run, held_parts, rules, "held_groups")
    del train_parts, held_parts

    # ---- ALGO LOGIC: cross-entropy of the search's choice over each group's values
    net = mlp(afterstate_player(args.env_id).NUM_FEATURES, args.hidden, 1, out_gain=1.0)
    optimizer = torch.optim.Adam(net.parameters(), lr=args.learning_rate)
    gen = torch.Generator().manual_seed(args.seed)
    log = CurveLog(run / "curve.csv", FIELDS)
    n = len(data["label"])
    for epoch in tqdm(range(1, args.epochs + 1), disable=not args.progress, unit="epoch",
                      desc=f"{args.env_id} search afterstates"):
        order, total = torch.randperm(n, generator=gen), 0.0
        for start in range(0, n, args.batch_size):
            b = order[start : start + args.batch_size]
            loss = torch.nn.functional.cross_entropy(
                scores(net, {k: v[b] for k, v in data.items()}), data["label"][b])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item() * len(b)
        with torch.no_grad():
            values = scores(net, held)
        row = {"epoch": epoch, "groups": n, "train_loss": total / n,
               **agreement(values, held["label"], 0.0)}
        if epoch == args.epochs:
            row["margin"] = (margin_for(values, held["label"]) if args.play_margin < 0
                             else args.play_margin)
            row.update(agreement(values, held["label"], row["margin"]))
            raw = taas.envs.make(args.env_id, wrapped=False, **rules)
            meta = model_meta(args.env_id, [raw.game], raw.observer.low.shape[0], args.hidden,
                              dataclasses.asdict(args), "search_afterstate", deterministic=True)
            save_model(run / "model.pt", meta, net, policy="afterstate",
                       features=afterstate_player(args.env_id).NUM_FEATURES,
                       margin=row["margin"], width=args.width)
            row.update(evaluate(run / "model.pt", args.env_id, rules,
                                spec.evaluation_opponent(), args.eval_deals, args.eval_seed))
        log.write(row)
        if args.tensorboard:
            from torch.utils.tensorboard import SummaryWriter

            with SummaryWriter(run / "tb", purge_step=epoch) as writer:
                for key, value in row.items():
                    if key != "epoch":
                        writer.add_scalar(key, value, epoch)
        tqdm.write(", ".join(f"{k} {v:.4g}" if isinstance(v, float) else f"{k} {v}"
                             for k, v in row.items()))
    plot_curve(run / "curve.csv", run / "curve.png",
               f"{args.env_id} afterstate values distilled from the search", x="epoch",
               xlabel="epochs", lower=("held_accuracy", "held_changes", "held_false_changes"),
               lower_label="held-out agreement with the search")
    return run / "model.pt"


if __name__ == "__main__":
    main()
