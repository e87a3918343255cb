"""``taas serve``: the web table, to play against agents in a browser.

The operator decides what clients may ask of the server: which agents may sit at a table
(``--agents``), how long one of their moves may think (``--max-think``) and which model
files they may name (``--models``); the limits on
requests, games and tokens are :class:`taas.web.guard.Limits` (docs: Play).
"""

from __future__ import annotations

import argparse


def add_parser(sub) -> dict:
    serve = sub.add_parser("serve", help="the web table: play against agents in a browser")
    serve.add_argument("--host", default="127.0.0.1",
                       help="default 127.0.0.1 (this machine only; see the docs before binding "
                       "to other addresses)")
    serve.add_argument("--port", type=int, default=8000, help="default 8000")
    serve.add_argument("--db", default="taas-games.sqlite", help="the games store (SQLite file)")
    serve.add_argument("--agents", default=None,
                       help="agent specs clients may seat, comma-separated (default: random, "
                       "greedy, heuristic, ismcts, ppo, learned, best)")
    serve.add_argument("--max-think", default="2s",
                       help="the longest an agent's move may think (default 2s)")
    serve.add_argument("--models", metavar="DIR",
                       help="a folder of checkpoints clients may seat by name: DIR/NAME.pt as "
                       "ppo:NAME (default: the shipped models only)")
    return {"serve": run}


def run(args: argparse.Namespace) -> int:
    try:
        from taas.web.app import parse_seconds, serve
    except ImportError as err:
        raise ValueError(
            f"taas serve needs the web extra ({err.name} is missing): from a checkout, "
            "pip install -e '.[web]'"
        ) from None
    agents = None if args.agents is None else [a for a in args.agents.split(",") if a]
    max_think = parse_seconds(args.max_think)
    serve(args.db, args.host, args.port, agents=agents, max_think=max_think, models=args.models)
    return 0
