"""``taas replay FILE``: show a recorded game move by move and check its scores."""

from __future__ import annotations

import argparse

from taas.arena import replay as replays


def add_parser(sub) -> dict:
    rep = sub.add_parser("replay", help="show a recorded game move by move and check its scores")
    rep.add_argument("file", help="a file written by taas play --record")
    rep.add_argument("--step", action="store_true", help="wait for Enter after each move")
    return {"replay": run}


def run(args: argparse.Namespace) -> int:
    record = replays.load(args.file)
    agents = ", ".join(f"{a['seat']} {a['spec']}" for a in record["agents"])
    print(f"{record['env_id']} seed {record['seed']}: {agents}")

    stepping = args.step

    def show(line: str) -> None:
        nonlocal stepping
        print(line)
        if stepping:
            try:
                input("Enter: next move> ")
            except EOFError:  # input ended: show the rest without waiting
                print()
                stepping = False

    result = replays.replay(record, show=show)
    print(f"returns {' '.join(f'{r:g}' for r in result.returns)} (as recorded)")
    return 0
