"""``taas score romme`` (``taas.envs.romme.cli``): a hand's value, the loser's charge and the
best opening it holds."""

from __future__ import annotations

SCORE_HELP = "hand value, loser's charge, best opening"


def score_arguments(parser) -> None:
    parser.add_argument("--never-opened", action="store_true")
    parser.add_argument("--players", type=int, default=2)


def score(args, rules: dict) -> dict:
    from taas.envs.core.cards import check_hand, parse_cards, shoe
    from taas.envs.core.config import build_config
    from taas.envs.romme.config import GAME, Config
    from taas.envs.romme.scoring import score_hand

    cards = parse_cards(args.hand)
    cfg = build_config(Config, GAME, {"num_players": args.players, **rules})
    # a player holds at most one card over the deal (after drawing), at least one
    check_hand(cards, shoe(2, cfg.jokers), range(1, cfg.hand_size + 2), GAME)
    return score_hand(cards, args.never_opened, args.players, **rules)
