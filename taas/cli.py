"""The ``taas`` command line: list envs, play agents against each other, replay a recorded
game, score a hand.

taas envs
taas play continental_v1 --agents greedy,random,random --rounds 3 --seed 1 --render
taas play romme_v1 --agents heuristic,random --rounds 4 --record games/romme.json
taas play marriage_v1 --human 0 --agents random,random,random
taas serve --port 8000
taas replay games/romme-001.json --step
taas score continental --hand "7C 7C 7H 7D 9D 9D 9S 9H 9C 4H 4C 4S KS KD JK 2H" --json
taas tournament romme_v1 --agents heuristic,random --deals 50 --seed 7 --workers 2 --out results/t1
taas score marriage_nepali --tiplu 7H --seen --hand "KH KS KC 4H 5H 8H 10D JD AC AD 7C 3S 7H"
taas settle --maal 5,20,5,7 --seen 1,1,1,0 --winner 0 --dublee-losers 2 --json
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys

import numpy as np

import taas
import taas.agents
import taas.envs
from taas.agents import replay as replays
from taas.envs.core.cards import check_hand, parse_card, parse_cards, shoe


def main(argv: list[str] | None = None) -> int:
    """Run the command line ``argv`` (default: this process's arguments); the exit status."""
    parser = argparse.ArgumentParser(prog="taas", description="Taas card-game environments")
    parser.add_argument("--version", action="version", version=f"taas {taas.__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    sub.add_parser("envs", help="list environments with their rule flags")

    play = sub.add_parser("play", help="play agents against each other and print the series")
    play.add_argument("env_id", help="e.g. continental_v1")
    play.add_argument(
        "--agents", required=True, help='agent specs, one per seat: "greedy,random,random"'
    )
    play.add_argument(
        "--rounds", type=_positive, default=1, help="rounds in the series (default 1)"
    )
    play.add_argument("--seed", type=int, default=None, help="default: a random seed, printed")
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

    rep = sub.add_parser("replay", help="show a recorded game move by move and check its scores")
    rep.add_argument("file", help="a file written by taas play --record")
    rep.add_argument("--step", action="store_true", help="wait for Enter after each move")

    serve = sub.add_parser("serve", help="the web table: play against agents in a browser")
    serve.add_argument("--host", default="127.0.0.1", help="default 127.0.0.1 (this machine only)")
    serve.add_argument("--port", type=int, default=8000, help="default 8000")
    serve.add_argument("--db", default="taas-games.sqlite", help="the games store (SQLite file)")

    _tournament_parser(sub)

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
    nepali = games.add_parser(
        "marriage_nepali", help="maal and finishing discards (traditional Nepali Marriage)"
    )
    nepali.add_argument("--tiplu", required=True, help="the tiplu card, e.g. 7H")
    nepali.add_argument("--seen", action="store_true", help="the player has seen the tiplu")
    nepali.add_argument(
        "--exposed", default="", help='starting tunnelas exposed at the deal, e.g. "4D 4D 4D"'
    )
    nepali.add_argument("--route", choices=("sequence", "dublee"), default="sequence")
    for game in (cont, marr, romme, nepali):
        game.add_argument("--hand", required=True, help='cards, e.g. "7C 10h Ts JK"')
        game.add_argument(
            "--rule",
            action="append",
            default=[],
            metavar="NAME=VALUE",
            help="any other rule flag of the game's env (repeatable)",
        )
        game.add_argument("--json", action="store_true")

    settle = sub.add_parser("settle", help="settle a Nepali Marriage round (net points)")
    settle.add_argument("--maal", required=True, help="every player's raw maal: 5,20,5,7")
    settle.add_argument("--seen", required=True, help="every player's seen flag: 1,1,1,0")
    settle.add_argument("--winner", type=int, required=True, help="the finisher's seat")
    settle.add_argument("--winner-route", choices=("sequence", "dublee"), default="sequence")
    settle.add_argument(
        "--dublee-losers", default="", help="seats of seen losers on the dublee route: 2,3"
    )
    settle.add_argument(
        "--rule", action="append", default=[], metavar="NAME=VALUE",
        help="a marriage_nepali rule flag, e.g. --rule unseen_maal=kidnap (repeatable)",
    )
    settle.add_argument("--json", action="store_true")

    args = parser.parse_args(argv)
    if argv is None and args.command == "score" and "taas.envs.core.jit" not in sys.modules:
        # One hand is scored faster in plain Python than numba loads (~1 s even from its
        # disk cache); only a process of our own, since the switch holds until it exits.
        os.environ.setdefault("TAAS_NO_NUMBA", "1")
    commands = {
        "envs": _envs, "play": _play, "replay": _replay, "score": _score, "serve": _serve,
        "settle": _settle, "tournament": _tournament,
    }
    try:
        return commands[args.command](args)
    except ValueError as err:
        print(f"taas: error: {err}", file=sys.stderr)
        return 2


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number, 1 or more (got {text!r})")
    return value


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


def parse_agents(text: str) -> list[str]:
    """Comma-separated agent specs; spaces around them are ignored."""
    specs = [s.strip() for s in text.split(",")]
    if not all(specs):
        raise ValueError(f"--agents {text!r}: an empty agent spec; give one spec per seat")
    return specs


def _play(args: argparse.Namespace) -> int:
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
    seed = int(np.random.SeedSequence().entropy % 2**31) if args.seed is None else args.seed
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
        result = taas.agents.play_game(env, agents, seed=seed + e, render=args.render)
        if paths:
            record = replays.make_record(env, result, seed + e, specs, agent_seeds)
            replays.save(record, paths[e])
        results.append(result)
    if paths:
        print(f"recorded {', '.join(map(str, paths))}")
    if series:
        info = results[0].infos["player_0"]
        table = [r["penalties"] for r in info["rounds"]]
        _print_series("penalty points per round (lowest total wins)", specs, table)
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
    seed = int(np.random.SeedSequence().entropy % 2**31) if args.seed is None else args.seed
    print(f"seed {seed}")
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
    if paths:
        print(f"recorded {', '.join(map(str, paths))}")
    return 0


def _serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from taas.web.app import create_app
    except ImportError as err:
        raise ValueError(
            f"taas serve needs the web extra ({err.name} is missing): pip install 'taas-rl[web]'"
        ) from None
    print(f"taas web table on http://{args.host}:{args.port}/ (games in {args.db})")
    uvicorn.run(create_app(args.db), host=args.host, port=args.port, log_level="warning")
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


def _replay(args: argparse.Namespace) -> int:
    record = replays.load(args.file)
    agents = ", ".join(f"{a['seat']} {a['spec']}" for a in record["agents"])
    print(f"{record['env_id']} seed {record['seed']}: {agents}")

    def show(line: str) -> None:
        print(line)
        if args.step:
            input()

    result = replays.replay(record, show=show)
    print(f"returns {' '.join(f'{r:g}' for r in result.returns)} (as recorded)")
    return 0


def _tournament_parser(sub) -> None:
    tour = sub.add_parser(
        "tournament",
        help="duplicate round robin of agents: results in OUT/tournament.sqlite, leaderboard, "
        "report",
    )
    tour.add_argument("env_id", nargs="?", help="e.g. romme_v1 (optional with --resume)")
    tour.add_argument("--agents", help='the entrants, e.g. "heuristic,random,ismcts:100"')
    tour.add_argument("--players", type=_positive, help="seats per table (default: the env's)")
    tour.add_argument("--deals", type=_positive, default=100, help="deal seeds (default 100)")
    tour.add_argument("--seed", type=int, default=0, help="tournament seed (default 0)")
    tour.add_argument("--format", choices=("deal", "match"), default="deal",
                      help="deal: one round or deal per game; match: whole matches")
    tour.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                      help="a rule flag of the env (repeatable)")
    tour.add_argument("--move-timeout", type=float, metavar="SECONDS",
                      help="an agent that takes longer over one move forfeits the game (a guard "
                      "against hangs; default: none)")
    tour.add_argument("--workers", type=_positive, default=1, help="processes (default 1)")
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


def _tournament(args: argparse.Namespace) -> int:
    import importlib.util

    missing = [m for m in ("openskill", "choix", "rich", "matplotlib")
               if importlib.util.find_spec(m) is None]
    if missing:  # checked before playing, not after an hour of games
        raise ValueError(f"taas tournament needs {', '.join(missing)}: "
                         "pip install 'taas-rl[tournament]'")
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


def _given(options: dict) -> dict:
    """The command-line options the user set (argparse leaves the others None)."""
    return {k: v for k, v in options.items() if v is not None}


def _score(args: argparse.Namespace) -> int:
    from taas.envs.core.config import build_config

    cards = parse_cards(args.hand)
    rules = dict(parse_rule(r) for r in args.rule)
    if args.game == "marriage_nepali":
        from taas.envs.marriage_nepali.scoring import score_hand

        result = score_hand(args.hand, args.tiplu, args.seen, args.exposed, args.route, **rules)
    elif args.game == "continental":
        from taas.envs.continental.config import GAME, Config
        from taas.envs.continental.rules import score_hand

        named = {"hand_size": args.hand_size, "min_naturals_per_group": args.min_naturals}
        flags = {**rules, **_given(named)}
        cfg = build_config(Config, GAME, flags)
        # after the deal or a draw; each bought discard brings two penalty cards for good
        deal, in_play = cfg.deal_size, shoe(cfg.decks, cfg.total_jokers)
        sizes = range(deal, int(in_play.sum()) + 1) if cfg.allow_buying else (deal, deal + 1)
        check_hand(cards, in_play, sizes, GAME)
        result = score_hand(cards, **flags)
    elif args.game == "marriage":
        from taas.envs.marriage.config import GAME, Config
        from taas.envs.marriage.scoring import score_hand

        named = {
            "lives_required": args.lives_required,
            "ace_penalty": args.ace_penalty,
            "wild_scope": args.wild_scope,
        }
        flags = {**rules, **_given(named)}
        cfg = build_config(Config, GAME, flags)
        in_play = shoe(cfg.decks, cfg.jokers)
        indicator = parse_card(args.indicator)
        if not in_play[indicator]:
            raise ValueError(f"indicator {args.indicator}: the {GAME} shoe holds no such card")
        in_play[indicator] -= 1  # the indicator is out of play
        check_hand(cards, in_play, (cfg.deal_size, cfg.deal_size + 1), GAME)
        result = score_hand(cards, args.indicator, **flags)
    else:
        from taas.envs.romme.config import GAME, Config
        from taas.envs.romme.scoring import score_hand

        cfg = build_config(Config, GAME, {"num_players": args.players, **rules})
        # a player holds at most one card over the deal (after drawing), at least one
        check_hand(cards, shoe(2, cfg.jokers), range(1, cfg.hand_size + 2), GAME)
        result = score_hand(cards, args.never_opened, args.players, **rules)
    _print_result(result, args.json)
    return 0


def _print_result(result: dict, as_json: bool) -> None:
    if as_json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            shown = " ".join(map(str, value)) if isinstance(value, list) else value
            print(f"{key}: {shown}")


def _ints(option: str, text: str) -> list[int]:
    """A comma-separated list of whole numbers from the command line."""
    try:
        return [int(x) for x in text.replace(" ", "").split(",") if x]
    except ValueError:
        raise ValueError(f"{option} {text!r}: expected whole numbers separated by commas") from None


def _settle(args: argparse.Namespace) -> int:
    from taas.envs.marriage_nepali.scoring import settle_round

    maal = _ints("--maal", args.maal)
    seen = _ints("--seen", args.seen)
    if any(s not in (0, 1) for s in seen):
        raise ValueError(f"--seen {args.seen!r}: expected 1 (seen) or 0 (unseen) per player")
    rules = dict(parse_rule(r) for r in args.rule)
    result = settle_round(maal, [bool(s) for s in seen], args.winner, args.winner_route,
                          _ints("--dublee-losers", args.dublee_losers), **rules)
    _print_result(result, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
