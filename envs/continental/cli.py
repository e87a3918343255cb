"""``taas score continental`` (``taas.envs.continental.cli``): a hand's penalty and the
discards that go out with it."""

from __future__ import annotations

SCORE_HELP = "penalty and go-out discards"


def score_arguments(parser) -> None:
    parser.add_argument("--hand-size", type=int)
    parser.add_argument("--min-naturals", type=int)


def score(args, rules: dict) -> dict:
    from taas.envs.continental.config import GAME, Config
    from taas.envs.continental.rules import score_hand
    from taas.envs.core.cards import check_hand, parse_cards, shoe
    from taas.envs.core.config import build_config, given

    cards = parse_cards(args.hand)
    named = {"hand_size": args.hand_size, "min_naturals_per_group": args.min_naturals}
    flags = {**rules, **given(named)}
    cfg = build_config(Config, GAME, flags)
    # after the deal or a draw; each bought discard brings two penalty cards for good
    deal, in_play = cfg.deal_size, shoe(cfg.decks, cfg.total_jokers)
    sizes = range(deal, int(in_play.sum()) + 1) if cfg.allow_buying else (deal, deal + 1)
    check_hand(cards, in_play, sizes, GAME)
    return score_hand(cards, **flags)
