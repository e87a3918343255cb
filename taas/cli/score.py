"""``taas score <game> --hand ...`` and the games' other scorekeeping commands (``taas settle``).

Each game whose spec names a ``cli`` module adds them. That module defines, for
``taas score <game>``, ``SCORE_HELP``, ``score_arguments(parser)`` and ``score(args, rules) ->
dict`` (``--hand``, ``--rule`` and ``--json`` are added here for every game); and it may define
``COMMANDS``, a mapping of further top-level commands to ``(help, arguments, run)`` where
``run(args, rules) -> dict``. The result dict is printed line by line or as JSON. A game's cli
module imports its engine only inside ``score``/``run``: every one is read to build the parser.
"""

from __future__ import annotations

import argparse
import os
import sys

import taas.envs
from taas.cli.common import add_rule_option, print_result
from taas.envs.core.config import parse_rule
from taas.envs.core.spec import load


def add_parser(sub) -> dict:
    score = sub.add_parser("score", help="score a hand (scorekeeping helper)")
    games = score.add_subparsers(dest="game", required=True)
    run = {"score": _score}
    for spec in taas.envs.games():
        if spec.cli is None:
            continue
        module = load(spec.cli)
        if hasattr(module, "score"):
            game = games.add_parser(spec.name, help=module.SCORE_HELP)
            module.score_arguments(game)
            game.add_argument("--hand", required=True, help='cards, e.g. "7C 10h Ts JK"')
            add_rule_option(game, "NAME=VALUE", "any other rule flag of the game's env")
            game.add_argument("--json", action="store_true")
            game.set_defaults(hook=module.score)
        for name, (help_, arguments, hook) in getattr(module, "COMMANDS", {}).items():
            command = sub.add_parser(name, help=help_)
            arguments(command)
            add_rule_option(command, "NAME=VALUE", f"a {spec.name} rule flag")
            command.add_argument("--json", action="store_true")
            command.set_defaults(hook=hook)
            run[name] = _score
    return run


def _score(args: argparse.Namespace) -> int:
    rules = dict(parse_rule(r) for r in args.rule)
    print_result(args.hook(args, rules), args.json)
    return 0


def prefer_plain_python(command: str) -> None:
    """One hand is scored faster in plain Python than numba loads its kernels (~1 s even from
    its disk cache); only in a process of our own, since the switch holds until it exits."""
    if command == "score" and "taas.envs.core.jit" not in sys.modules:
        os.environ.setdefault("TAAS_NO_NUMBA", "1")
