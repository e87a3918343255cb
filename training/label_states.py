"""Label the states a player visits with a slow teacher (a search), in chunks on disk.

    python -m taas.training.label_states --env-id continental_v1 --num-players 4 \\
        --teacher ismcts:400 --learner ppo:continental --deals 400 --seed 1 \\
        --out-dir runs/continental_search/seed1
    python -m taas.training.behaviour_clone ... --samples runs/continental_search

Why: a clone cannot pass its teacher, so a stronger clone needs a stronger teacher, and the
strongest here is a search (``ismcts:N``, the paired improvement search on ``heuristic`` in the
rummies) at about 0.1 s of CPU a decision: tens of thousands of labels take hours. So they are
recorded apart from the fit, ``--chunk-deals`` deals a file, by as many processes as there are
cores (different ``--seed``, different ``--out-dir``): a crash loses one chunk, and a rerun with
the same arguments skips the chunks already written (chunk *k* draws its deals and its agents'
seeds from its own seed, so it is the same file whichever run writes it).

The states are DAgger's (see :mod:`taas.training.behaviour_clone`): ``--learner`` plays seat
``deal % players``, the teacher the others, and the teacher labels every state (the learner's
moves are played, the teacher's are the labels). Each chunk ``chunk_<k>.npz`` holds per state:
``obs``, ``mask``, ``act`` (the teacher's move), ``reference`` (``--reference``'s move, by
default ``heuristic``, whose spec the chunk keeps as ``reference_spec``: where it differs
from ``act`` the search changed the expert's mind, the states a clone of the search must get
right to beat the expert), ``ret`` (the seat's
discounted return, the critic's target), ``mine`` (the learner played it) and ``margin`` (how
sure the search was of a change: see :class:`Margins`).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import torch
from tqdm import tqdm

import taas.agents
import taas.envs
from taas.agents.search.ismcts import PairedSearch
from taas.training.behaviour_clone import record
from taas.training.common import parse_args, parse_rules


@dataclass
class Args:
    env_id: str = "continental_v1"
    rules: str = field(default="{}", metadata={"help": "Config fields as JSON"})
    num_players: int = field(default=0, metadata={"help": "table size (0: the game's default)"})
    teacher: str = field(default="ismcts:400", metadata={"help": "the agent spec that labels"})
    learner: str = field(default="", metadata={
        "help": "the agent spec playing seat deal %% players (empty: the teacher plays all)"})
    reference: str = field(default="heuristic", metadata={
        "help": "an observation agent whose move is stored beside the teacher's"})
    deals: int = field(default=400, metadata={"help": "deals in all"})
    chunk_deals: int = field(default=10, metadata={"help": "deals per chunk file"})
    out_dir: str = "runs/labels"
    seed: int = 1
    gamma: float = field(default=0.99, metadata={"help": "discount of the critic's targets"})
    reward_scale: float = field(default=1.0, metadata={"help": "multiplies the game's points"})
    threads: int = 1
    progress: bool = True


class Margins:
    """The teacher, noting how sure it was each time it left the expert's move.

    A paired search (the rummies' ``ismcts:N``) replaces the expert's move by one whose mean
    paired advantage exceeds one standard error: a change that clears it barely may be noise
    between near-equal moves, harmless to the search but a contradiction for a clone to learn.
    So each label keeps its margin, the chosen move's
    mean advantage in standard errors (0 where the search kept the expert's move or did not
    search, inf where its rollouts all agreed), and ``behaviour_clone --min-margin`` can keep
    only the changes it was sure of. Another teacher's labels are taken at their word (inf)."""

    def __init__(self, teacher):
        self.teacher, self.margins, self.last = teacher, [], 0.0
        self.uses_state = teacher.uses_state
        search = getattr(teacher, "search", None)
        self.measured = isinstance(search, PairedSearch)
        if self.measured:
            self.choose = search.choose
            search.choose = self.noting_choose

    def noting_choose(self, values: np.ndarray) -> int:
        column = self.choose(values)
        if column:
            mean, error = (x[column - 1] for x in PairedSearch.advantages(values))
            self.last = float(mean / error) if error > 0 else np.inf
        return column

    def act_state(self, game, state, player: int) -> int:
        self.last = 0.0 if self.measured else np.inf
        move = self.teacher.act_state(game, state, player)
        self.margins.append(self.last)
        return move

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        self.margins.append(np.inf)
        return self.teacher.act(observation, action_mask)


def table_rules(args: Args) -> dict:
    return {**parse_rules(args.rules),
            **({"num_players": args.num_players} if args.num_players else {})}


def label_chunk(args: Args, chunk: int) -> dict[str, np.ndarray]:
    """The samples of chunk ``chunk``: its own deals and agent seeds, whatever ran before it."""
    rules = table_rules(args)
    raw = taas.envs.make(args.env_id, wrapped=False, **rules)
    seed = np.random.SeedSequence([args.seed, chunk])
    agent_seed = int(seed.generate_state(1)[0])
    teacher = Margins(taas.agents.make(args.teacher, args.env_id, seed=agent_seed,
                                       config=rules))
    reference = taas.agents.make(args.reference, args.env_id, seed=agent_seed, config=rules)
    if reference.uses_state:
        raise SystemExit(f"--reference {args.reference}: give an agent that reads observations")
    learner = (taas.agents.make(args.learner, args.env_id, seed=agent_seed + 1, config=rules)
               if args.learner else None)
    if learner is not None and learner.uses_state:
        raise SystemExit(f"--learner {args.learner}: give an agent that reads observations")
    obs, mask, act, ret, *mine = record(raw, teacher, args.chunk_deals,
                                        np.random.default_rng(seed), args.gamma,
                                        args.reward_scale, learner=learner)
    flags = np.zeros(len(act), bool)
    flags[mine[0] if mine else []] = True
    return {"obs": np.stack(obs).astype(np.float32), "mask": np.stack(mask).astype(bool),
            "act": np.array(act, np.int64),
            "reference": np.array([reference.act(o, m) for o, m in zip(obs, mask, strict=True)],
                                  np.int64),
            "ret": np.array(ret, np.float32), "mine": flags,
            "margin": np.array(teacher.margins, np.float32)}


def main(args: Args) -> Path:
    torch.set_num_threads(args.threads)
    out = Path(args.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    chunks = -(-args.deals // args.chunk_deals)
    bar = tqdm(range(chunks), disable=not args.progress, desc=f"{args.teacher} labels",
               unit="chunk")
    for chunk in bar:
        path = out / f"chunk_{chunk:05d}.npz"
        if path.exists():
            continue
        start = time.process_time()
        samples = label_chunk(args, chunk)
        tmp = path.with_name(path.stem + ".tmp.npz")
        np.savez_compressed(tmp, cpu_seconds=time.process_time() - start, env_id=args.env_id,
                            rules=json.dumps(table_rules(args)), reference_spec=args.reference,
                            **samples)
        tmp.replace(path)
        changed = float(np.mean(samples["act"] != samples["reference"]))
        bar.set_postfix(states=len(samples["act"]), changed=f"{changed:.1%}")
    return out


if __name__ == "__main__":
    main(parse_args(Args, __doc__.splitlines()[0]))
