"""The ``taas`` command line: list envs, play agents against each other, score a hand.

taas envs
taas play continental_v1 --agents greedy,random,random --rounds 3 --seed 1 --render
taas score continental --hand "7C 7C 7H 7D 9D 9D 9S 9H 9C 4H 4C 4S KS KD JK 2H" --json
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys

import taas.agents
import taas.envs
from taas.envs.core.cards import parse_cards


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="taas", description="Taas card-game environments")
    sub = parser.add_subparsers(dest="command", required=True)

    sub.add_parser("envs", help="list environments with their rule flags")

    play = sub.add_parser("play", help="play agents against each other and print the series")
    play.add_argument("env_id", help="e.g. continental_v1")
    play.add_argument("--agents", required=True, help="comma-separated agent specs, one per seat")
    play.add_argument("--rounds", type=int, default=1, help="rounds in the series (default 1)")
    play.add_argument("--seed", type=int, default=None)
    play.add_argument("--render", action="store_true", help="print the table and every round")
    play.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a rule flag, e.g. --rule allow_buying=true (repeatable)",
    )

    score = sub.add_parser("score", help="score a hand (scorekeeping helper)")
    games = score.add_subparsers(dest="game", required=True)
    cont = games.add_parser("continental", help="penalty and go-out discards")
    cont.add_argument("--hand-size", type=int)
    cont.add_argument("--min-naturals", type=int)
    marr = games.add_parser("marriage", help="wild rank, show check, penalty and arrangement")
    marr.add_argument("--indicator", required=True, help="the indicator card, e.g. 7D")
    marr.add_argument("--lives-required", type=int)
    marr.add_argument("--ace-penalty", type=int)
    marr.add_argument("--wild-scope")
    romme = games.add_parser("romme", help="hand value, loser's charge, best opening")
    romme.add_argument("--never-opened", action="store_true")
    romme.add_argument("--players", type=int, default=2)
    for game in (cont, marr, romme):
        game.add_argument("--hand", required=True, help='cards, e.g. "7C 10h Ts JK"')
        game.add_argument(
            "--rule",
            action="append",
            default=[],
            metavar="NAME=VALUE",
            help="any other rule flag of the game's env (repeatable)",
        )
        game.add_argument("--json", action="store_true")

    args = parser.parse_args(argv)
    try:
        return {"envs": _envs, "play": _play, "score": _score}[args.command](args)
    except ValueError as err:
        print(f"taas: error: {err}", file=sys.stderr)
        return 2


def _envs(args: argparse.Namespace) -> int:
    for env_id in taas.envs.available_envs():
        config = taas.envs.env_module(env_id).Config
        print(env_id)
        for f in dataclasses.fields(config):
            print(f"    {f.name} = {f.default!r}")
    return 0


def parse_rule(text: str) -> tuple[str, object]:
    """``NAME=VALUE`` from the command line: true/false, none and integers are converted."""
    name, sep, value = text.partition("=")
    if not sep:
        raise ValueError(f"--rule {text!r}: expected NAME=VALUE")
    lowered = value.lower()
    if lowered in ("true", "false"):
        return name, lowered == "true"
    if lowered == "none":
        return name, None
    try:
        return name, int(value)
    except ValueError:
        return name, value


def _play(args: argparse.Namespace) -> int:
    specs = args.agents.split(",")
    rules = dict(parse_rule(r) for r in args.rule)
    fields = {f.name for f in dataclasses.fields(taas.envs.env_module(args.env_id).Config)}
    if "num_players" in fields:
        rules.setdefault("num_players", len(specs))
    series = "num_rounds" in fields and "episode" in fields
    if series:
        rules.update(episode="match", num_rounds=args.rounds)
    env = taas.envs.make(args.env_id, render_mode="ansi" if args.render else None, **rules)
    seats = [
        taas.agents.make(
            spec,
            args.env_id,
            seed=None if args.seed is None else args.seed * 1000 + i,
            config=rules,
        )
        for i, spec in enumerate(specs)
    ]
    if series:
        result = taas.agents.play_game(env, seats, seed=args.seed, render=args.render)
        info = result.infos["player_0"]
        table = [r["penalties"] for r in info["rounds"]]
        _print_series("penalty points per round (lowest total wins)", specs, table)
        if not result.truncated:
            print(f"winner: player_{info['winner']} ({specs[info['winner']]})")
        return 0
    table = []
    for e in range(args.rounds):
        seed = None if args.seed is None else args.seed + e
        table.append(taas.agents.play_game(env, seats, seed=seed, render=args.render).returns)
    _print_series("rewards per episode", specs, table)
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


def _given(options: dict) -> dict:
    """The command-line options the user set (argparse leaves the others None)."""
    return {k: v for k, v in options.items() if v is not None}


def _score(args: argparse.Namespace) -> int:
    cards = parse_cards(args.hand)
    rules = dict(parse_rule(r) for r in args.rule)
    if args.game == "continental":
        from taas.envs.continental.rules import score_hand

        named = {"hand_size": args.hand_size, "min_naturals_per_group": args.min_naturals}
        result = score_hand(cards, **rules, **_given(named))
    elif args.game == "marriage":
        from taas.envs.marriage.scoring import score_hand

        named = {
            "lives_required": args.lives_required,
            "ace_penalty": args.ace_penalty,
            "wild_scope": args.wild_scope,
        }
        result = score_hand(cards, args.indicator, **rules, **_given(named))
    else:
        from taas.envs.romme.scoring import score_hand

        result = score_hand(cards, args.never_opened, args.players, **rules)
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            shown = " ".join(map(str, value)) if isinstance(value, list) else value
            print(f"{key}: {shown}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
