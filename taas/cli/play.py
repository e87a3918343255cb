"""``taas play ENV --agents ...``: agents (and people, ``--human``) play a series; the table
of results, optionally every move (``--render``) and replay files (``--record``)."""

from __future__ import annotations

import argparse
import dataclasses
import secrets
import sys

import taas.agents
import taas.arena
import taas.envs
from taas.arena import replay as replays
from taas.cli.common import parse_agents, positive, random_seed, seed_arg
from taas.envs.core.config import parse_rule


def add_parser(sub) -> dict:
    play = sub.add_parser("play", help="play agents against each other and print the series")
    play.add_argument("env_id", help="e.g. continental_v1")
    play.add_argument(
        "--agents", required=True, help='agent specs, one per seat: "greedy,random,random"'
    )
    play.add_argument(
        "--rounds", type=positive, default=1, help="rounds in the series (default 1)"
    )
    play.add_argument("--seed", type=seed_arg, default=None,
                      help="default: a random seed, printed (with --human: at the end)")
    play.add_argument(
        "--render", action="store_true", help="print every move as it happens and the table"
    )
    play.add_argument(
        "--record",
        metavar="FILE.json",
        help="write each game as a replay file: FILE.json for one game, FILE-001.json, "
        "FILE-002.json, ... for several (a series played as one match is one game)",
    )
    play.add_argument(
        "--human",
        metavar="SEAT[,SEAT]",
        help="play these seats yourself at the terminal; --agents then fills the other seats",
    )
    play.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a rule flag, e.g. --rule allow_buying=true (repeatable)",
    )
    return {"play": run}


def run(args: argparse.Namespace) -> int:
    specs = parse_agents(args.agents)
    rules = dict(parse_rule(r) for r in args.rule)
    if args.human is not None:
        return _play_human(args, specs, rules)
    fields = {f.name for f in dataclasses.fields(taas.envs.env_module(args.env_id).Config)}
    if "num_players" in fields:
        rules.setdefault("num_players", len(specs))
    series = "num_rounds" in fields and "episode" in fields
    if series:
        rules.update(episode="match", num_rounds=args.rounds)
    env = taas.envs.make(args.env_id, **rules)
    seats = len(env.possible_agents)
    if len(specs) != seats:
        raise ValueError(
            f"--agents gives {len(specs)} agent{'s' * (len(specs) != 1)} for {args.env_id}'s "
            f"{seats} seats; give one spec per seat, e.g. --agents {','.join(['random'] * seats)}"
        )
    seed = random_seed(args.seed)
    print(f"seed {seed}")
    agent_seeds = [seed * 1000 + i for i in range(seats)]
    agents = [
        taas.agents.make(spec, args.env_id, seed=s, config=rules)
        for spec, s in zip(specs, agent_seeds, strict=True)
    ]
    episodes = 1 if series else args.rounds
    paths = replays.record_paths(args.record, episodes) if args.record else []
    results = []
    for e in range(episodes):
        if args.render and episodes > 1:
            print(f"--- game {e + 1} of {episodes} (seed {seed + e})")
        result = taas.arena.play_game(env, agents, seed=seed + e, render=args.render)
        if paths:
            record = replays.make_record(env, result, seed + e, specs, agent_seeds)
            replays.save(record, paths[e])
        results.append(result)
    if paths:
        print(f"recorded {', '.join(map(str, paths))}")
    if series:
        info = results[0].infos["player_0"]
        view = taas.envs.spec_for(args.env_id).table_view()
        sheet = view.score_sheet(env.unwrapped.game, env.unwrapped.state)
        _print_series(view.series_title, specs, sheet["rows"])
        if not results[0].truncated:
            print(f"winner: player_{info['winner']} ({specs[info['winner']]})")
    else:
        _print_series("rewards per episode", specs, [r.returns for r in results])
    return 0


def _play_human(args: argparse.Namespace, specs: list[str], rules: dict) -> int:
    from taas.play import terminal
    from taas.play.session import HUMAN, Session

    try:
        humans = sorted({int(s) for s in args.human.split(",")})
    except ValueError:
        raise ValueError(f"--human {args.human!r}: expected seat numbers, e.g. 0 or 0,2") from None
    seats = len(specs) + len(humans)
    if humans[0] < 0 or humans[-1] >= seats:
        raise ValueError(f"--human {args.human}: seats are 0..{seats - 1} with these agents")
    others = iter(specs)
    table = [HUMAN if i in humans else next(others) for i in range(seats)]
    fields = {f.name for f in dataclasses.fields(taas.envs.env_module(args.env_id).Config)}
    series = "num_rounds" in fields and "episode" in fields
    if series:
        rules.update(episode="match", num_rounds=args.rounds)
    hidden = args.seed is None  # a person must not learn the deal from the seed before the end
    seed = secrets.randbits(63) if hidden else args.seed
    print("seed: hidden until the game ends" if hidden else f"seed {seed}")
    symbols = "♠♥♦♣".encode(sys.stdout.encoding or "ascii", "replace") != b"????"
    episodes = 1 if series else args.rounds
    paths = replays.record_paths(args.record, episodes) if args.record else []
    for e in range(episodes):
        session = Session(args.env_id, rules, seed + e, table)
        try:
            terminal.play(session, symbols=symbols)
        except terminal.InputEnded as err:
            print(f"taas: {err}; the game is abandoned")
            return 1
        if paths:
            replays.save(session.record(), paths[e])
    if hidden:
        print(f"seed {seed} (taas play ... --seed {seed} deals these games again)")
    if paths:
        print(f"recorded {', '.join(map(str, paths))}")
    return 0


def _print_series(title: str, specs: list[str], per_round: list[list[float]]) -> None:
    heads = [f"r{i + 1}" for i in range(len(per_round))]
    width = max(len(s) for s in specs)
    print(f"\n{title}")
    print(f"{'seat':9} {'agent':{width}} " + " ".join(f"{h:>6}" for h in heads) + "   total")
    for seat, spec in enumerate(specs):
        cells = " ".join(f"{r[seat]:6g}" for r in per_round)
        total = sum(r[seat] for r in per_round)
        print(f"player_{seat:<2} {spec:{width}} {cells} {total:7g}")
