"""``taas serve``: the web table, to play against agents in a browser."""

from __future__ import annotations

import argparse


def add_parser(sub) -> dict:
    serve = sub.add_parser("serve", help="the web table: play against agents in a browser")
    serve.add_argument("--host", default="127.0.0.1", help="default 127.0.0.1 (this machine only)")
    serve.add_argument("--port", type=int, default=8000, help="default 8000")
    serve.add_argument("--db", default="taas-games.sqlite", help="the games store (SQLite file)")
    return {"serve": run}


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from taas.web.app import create_app
    except ImportError as err:
        raise ValueError(
            f"taas serve needs the web extra ({err.name} is missing): from a checkout, "
            "pip install -e '.[web]'"
        ) from None
    print(f"taas web table on http://{args.host}:{args.port}/ (games in {args.db})")
    uvicorn.run(create_app(args.db), host=args.host, port=args.port, log_level="warning")
    return 0
