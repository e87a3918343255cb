"""``taas score marriage_nepali`` and ``taas settle`` (``taas.envs.marriage_nepali.cli``): a
hand's maal and finishing discards, and a round's zero-sum settlement."""

from __future__ import annotations

SCORE_HELP = "maal and finishing discards (traditional Nepali Marriage)"


def score_arguments(parser) -> None:
    parser.add_argument("--tiplu", required=True, help=(
        "the tiplu card, e.g. 7H (JK with --rule printed_jokers=3 --rule man_tiplu=spades_ace:"
        " AS plays as tiplu)"))
    parser.add_argument("--seen", action="store_true", help="the player has seen the tiplu")
    parser.add_argument(
        "--exposed", default="", help='starting tunnelas exposed at the deal, e.g. "4D 4D 4D"'
    )
    parser.add_argument("--route", choices=("sequence", "dublee"), default="sequence")


def score(args, rules: dict) -> dict:
    from taas.envs.core.cards import parse_cards
    from taas.envs.marriage_nepali.scoring import score_hand

    parse_cards(args.hand)  # a clear error for a bad card before anything is scored
    return score_hand(args.hand, args.tiplu, args.seen, args.exposed, args.route, **rules)


def settle_arguments(parser) -> None:
    parser.add_argument("--maal", required=True, help="every player's raw maal: 5,20,5,7")
    parser.add_argument("--seen", required=True, help="every player's seen flag: 1,1,1,0")
    parser.add_argument("--winner", type=int, required=True, help="the finisher's seat")
    parser.add_argument("--winner-route", choices=("sequence", "dublee"), default="sequence")
    parser.add_argument(
        "--dublee-losers", default="", help="seats of seen losers on the dublee route: 2,3"
    )


def settle(args, rules: dict) -> dict:
    from taas.envs.marriage_nepali.scoring import settle_round

    maal = _ints("--maal", args.maal)
    seen = _ints("--seen", args.seen)
    if any(s not in (0, 1) for s in seen):
        raise ValueError(f"--seen {args.seen!r}: expected 1 (seen) or 0 (unseen) per player")
    return settle_round(maal, [bool(s) for s in seen], args.winner, args.winner_route,
                        _ints("--dublee-losers", args.dublee_losers), **rules)


def _ints(option: str, text: str) -> list[int]:
    """A comma-separated list of whole numbers from the command line."""
    try:
        return [int(x) for x in text.replace(" ", "").split(",") if x]
    except ValueError:
        raise ValueError(f"{option} {text!r}: expected whole numbers separated by commas") from None


COMMANDS = {
    "settle": ("settle a Nepali Marriage round (net points)", settle_arguments, settle),
}
