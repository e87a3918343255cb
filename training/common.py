"""What the training scripts share: argument parsing, the warm start from a saved model, the
evaluation on duplicate deals, the CSV learning curve and its plot. The checkpoint format
itself lives with the agent that loads it (:mod:`taas.agents.learned.ppo`), so playing a model
never needs this package."""

from __future__ import annotations

import argparse
import csv
import dataclasses
import json
from pathlib import Path

import taas.envs
from taas.agents.learned.ppo import CheckpointError, PolicyNet, load_checkpoint
from taas.arena.evaluate import duplicate_deals


def parse_args(cls, description: str, argv: list[str] | None = None):
    """A dataclass of arguments as a command line: ``--field-name value`` for every field,
    ``--help`` showing each default."""
    parser = argparse.ArgumentParser(description=description)
    for f in dataclasses.fields(cls):
        flag = "--" + f.name.replace("_", "-")
        kind = {"int": int, "float": float, "str": str, "bool": bool}.get(f.type, f.type)
        shown = "%(default)r" if kind is str else "%(default)s"
        text = f"{f.metadata.get('help', '')} (default: {shown})".lstrip()
        if kind is bool:
            parser.add_argument(flag, action=argparse.BooleanOptionalAction, default=f.default,
                                help=text)
        else:
            parser.add_argument(flag, type=kind, default=f.default, help=text)
    return cls(**vars(parser.parse_args(argv)))


def parse_rules(text: str) -> dict:
    """``--rules '{"allow_false_claims": false}'``: the game's Config fields as JSON."""
    try:
        rules = json.loads(text or "{}")
    except json.JSONDecodeError as err:
        raise SystemExit(f"--rules {text!r} is not JSON: {err}") from None
    if not isinstance(rules, dict):
        raise SystemExit(f"--rules {text!r} must be a JSON object of Config fields")
    return rules


def warm_start(net: PolicyNet, args, obs_size: int, num_actions: int) -> None:
    """Load ``--init-from``'s actor and critic (a model.pt of either script here carries both;
    from one without a critic, or one whose critic read other inputs, the critic starts
    fresh), after checking it fits this env and network.
    A chain of runs, each with its own learning rate, continues one policy and its values.
    ``args`` is the script's: its ``init_from``, ``env_id``, ``hidden`` and ``hint`` are read
    (a hinted model is continued with its hint)."""
    try:
        ckpt = load_checkpoint(args.init_from)
    except CheckpointError as err:
        raise SystemExit(f"--init-from: {err}") from None
    theirs = (ckpt["env_id"], ckpt["obs_size"], ckpt["num_actions"], ckpt["hidden"])
    if theirs != (args.env_id, obs_size, num_actions, args.hidden):
        raise SystemExit(
            f"--init-from {args.init_from} is {theirs[0]} with observations of {theirs[1]}, "
            f"{theirs[2]} actions and --hidden {theirs[3]}; this run is {args.env_id} with "
            f"{obs_size}, {num_actions} and --hidden {args.hidden}")
    if ckpt.get("hint") and ckpt["hint"] != args.hint:
        raise SystemExit(f"--init-from {args.init_from} plays on the hint {ckpt['hint']!r}: "
                         f"give --hint {ckpt['hint']} (its actor's logits assume it)")
    net.actor.load_state_dict(ckpt["actor"])
    if "critic" in ckpt:
        try:
            net.critic.load_state_dict(ckpt["critic"])
        except RuntimeError:  # it read other inputs (with or without --oracle-critic)
            print(f"--init-from {args.init_from}: its critic reads other inputs than this "
                  "run's; the critic starts fresh")


def eval_opponent(env_id: str) -> str:
    """What a trained model of the game is evaluated against by default (its spec says)."""
    return taas.envs.spec_for(env_id).evaluation_opponent()


def evaluate(model: Path, env_id: str, rules: dict, opponent: str, deals: int, seed: int) -> dict:
    """The model against ``opponent`` on ``deals`` duplicate deals, seats rotated (95 % CIs);
    ``deals=0`` skips it (the throughput benchmark times training alone)."""
    if deals == 0:
        return {}
    result = duplicate_deals(env_id, f"ppo:{model}", opponent, deals=deals, seed=seed, **rules)
    low, high = result.diff_interval
    return {"eval_diff": result.mean_diff, "eval_diff_low": low, "eval_diff_high": high,
            "eval_win_rate": result.win_rate}


class CurveLog:
    """The learning curve as CSV, one row per update; reopened in append mode on resume, after
    dropping rows past the checkpoint (a crash may have logged updates it never saved)."""

    def __init__(self, path: Path, fields: list[str], resume_update: int = 0):
        self.path, self.fields = path, fields
        rows = self.rows() if resume_update else []
        kept = [r for r in rows if int(r["update"]) <= resume_update]
        with open(path, "w", newline="") as f:
            writer = csv.DictWriter(f, fields)
            writer.writeheader()
            writer.writerows(kept)

    def rows(self) -> list[dict]:
        with open(self.path, newline="") as f:
            return list(csv.DictReader(f))

    def write(self, row: dict) -> None:
        with open(self.path, "a", newline="") as f:
            csv.DictWriter(f, self.fields).writerow(
                {k: (f"{v:.6g}" if isinstance(v, float) else v) for k, v in row.items()}
            )


def plot_curve(csv_path: Path, png_path: Path, title: str, x: str = "global_step",
               xlabel: str = "learner steps", lower: tuple[str, ...] = ("episode_return",),
               lower_label: str = "training episode return") -> None:
    """Evaluation score difference (with its 95 % interval) and the ``lower`` columns (the
    training return; a clone's accuracies) against column ``x``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    with open(csv_path, newline="") as f:
        rows = list(csv.DictReader(f))
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(7, 6), sharex=True)
    evals = [r for r in rows if r.get("eval_diff")]
    if evals:
        xs = [int(r[x]) for r in evals]
        top.plot(xs, [float(r["eval_diff"]) for r in evals], marker="o")
        top.fill_between(xs, [float(r["eval_diff_low"]) for r in evals],
                         [float(r["eval_diff_high"]) for r in evals], alpha=0.3)
    top.axhline(0, color="grey", lw=0.8)
    top.set_ylabel("score difference vs\nopponent (duplicate deals)")
    for column in lower:
        kept = [r for r in rows if r.get(column)]
        bottom.plot([int(r[x]) for r in kept], [float(r[column]) for r in kept], lw=0.8,
                    marker="." if len(lower) > 1 else None, label=column)
    if len(lower) > 1:
        bottom.legend()
    bottom.set_ylabel(lower_label)
    bottom.set_xlabel(xlabel)
    top.set_title(title)
    fig.tight_layout()
    fig.savefig(png_path, dpi=80)
    plt.close(fig)
