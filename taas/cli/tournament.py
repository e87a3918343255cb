"""``taas tournament ENV --agents ...``: a duplicate round robin of agents, stored, rated and
reported (:mod:`taas.tournament`)."""

from __future__ import annotations

import argparse
import sys

from taas.cli.common import parse_agents, positive, seed_arg
from taas.envs.core.config import parse_rule


def add_parser(sub) -> dict:
    tour = sub.add_parser(
        "tournament",
        help="duplicate round robin of agents: results in OUT/tournament.sqlite, leaderboard, "
        "report",
    )
    tour.add_argument("env_id", nargs="?", help="e.g. romme_v1 (optional with --resume)")
    tour.add_argument("--agents", help='the entrants, e.g. "heuristic,random,ismcts:100"')
    tour.add_argument("--players", type=positive, help="seats per table (default: the env's)")
    tour.add_argument("--deals", type=positive, default=100, help="deal seeds (default 100)")
    tour.add_argument("--seed", type=seed_arg, default=0, help="tournament seed (default 0)")
    tour.add_argument("--format", choices=("deal", "match"), default="deal",
                      help="deal: one round or deal per game; match: whole matches")
    tour.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                      help="a rule flag of the env (repeatable)")
    tour.add_argument("--move-timeout", type=float, metavar="SECONDS",
                      help="an agent that takes longer over one move forfeits the game (a guard "
                      "against hangs; default: none)")
    tour.add_argument("--workers", type=positive, default=1, help="processes (default 1)")
    tour.add_argument("--backend", choices=("local", "ray"), default="local")
    tour.add_argument("--address", help="Ray cluster address (auto, HOST:PORT); default: a "
                      "local Ray with --workers CPUs")
    tour.add_argument("--out", required=True, help="results folder")
    tour.add_argument("--resume", action="store_true",
                      help="continue the tournament stored in OUT (rerunning the same command "
                      "does too)")
    tour.add_argument("--record", action="store_true",
                      help="write each game as a replay file under OUT/replays/")
    tour.add_argument("--quiet", action="store_true", help="no progress bar")
    return {"tournament": run}


def run(args: argparse.Namespace) -> int:
    import importlib.util

    missing = [m for m in ("openskill", "choix", "rich", "matplotlib")
               if importlib.util.find_spec(m) is None]
    if missing:  # checked before playing, not after an hour of games
        raise ValueError(f"taas tournament needs {', '.join(missing)}: "
                         "from a checkout, pip install -e '.[tournament]'")
    from taas import tournament
    from taas.tournament.report import print_leaderboard, write_report
    from taas.tournament.stats import standings

    stored = tournament.read_definition(args.out)
    if args.resume and stored is None:
        raise ValueError(f"--resume: no tournament in {args.out}")
    if args.env_id is None or args.agents is None:
        if not args.resume:
            raise ValueError("give ENV_ID and --agents (or --resume to continue OUT's tournament)")
        definition = stored
    else:
        rules = dict(parse_rule(r) for r in args.rule)
        definition = tournament.define(
            args.env_id, parse_agents(args.agents), args.players, args.deals, args.seed,
            args.format, rules, args.move_timeout,
        )
    try:
        played, before = tournament.run(
            definition, args.out, workers=args.workers, backend=args.backend,
            address=args.address, record=args.record, progress=not args.quiet,
        )
    except KeyboardInterrupt:
        print(f"\nstopped; every finished game is stored: rerun the command or "
              f"taas tournament --resume --out {args.out} to go on", file=sys.stderr)
        return 130
    if before:
        print(f"resumed: {before} games were already stored, {played} played now")
    games = tournament.read_games(args.out)
    table = standings(definition, games)
    print_leaderboard(table)
    paths = write_report(args.out, games, table)
    print(f"wrote {', '.join(str(p) for p in paths)}")
    return 0
