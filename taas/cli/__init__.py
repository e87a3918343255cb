"""The ``taas`` command line (``taas.cli``), one module per subcommand.

taas envs
taas agents mariage_v1
taas play continental_v1 --agents greedy,random,random --rounds 3 --seed 1 --render
taas play romme_v1 --agents heuristic,random --rounds 4 --record games/romme.json
taas play marriage_v1 --human 0 --agents random,random,random
taas serve --port 8000
taas replay games/romme-001.json --step
taas tournament romme_v1 --agents heuristic,random --deals 50 --seed 7 --workers 2 --out results/t1
taas score continental --hand "7C 7C 7H 7D 9D 9D 9S 9H 9C 4H 4C 4S KS KD JK 2H" --json

``taas score <game>`` and any other scorekeeping command (``taas settle``) come from the games'
specs (:mod:`taas.cli.score`), so this package names no game.
"""

from __future__ import annotations

import argparse
import sys

import taas
from taas.cli import agents, envs, play, replay, score, serve, tournament

_COMMANDS = (envs, agents, play, replay, serve, tournament, score)


def main(argv: list[str] | None = None) -> int:
    """Run the command line ``argv`` (default: this process's arguments); the exit status."""
    parser = argparse.ArgumentParser(prog="taas", description="Taas card-game environments")
    parser.add_argument("--version", action="version", version=f"taas {taas.__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    run = {}
    for command in _COMMANDS:
        run.update(command.add_parser(sub))
    args = parser.parse_args(argv)
    if argv is None:
        score.prefer_plain_python(args.command)
    try:
        return run[args.command](args)
    except ValueError as err:
        print(f"taas: error: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
