"""``taas score marriage`` (``taas.envs.marriage.cli``): the wild rank an indicator makes, the
show check, the penalty and the solver's arrangement of a hand."""

from __future__ import annotations

SCORE_HELP = "wild rank, show check, penalty and arrangement"


def score_arguments(parser) -> None:
    parser.add_argument("--indicator", required=True, help="the indicator card, e.g. 7D")
    parser.add_argument("--lives-required", type=int)
    parser.add_argument("--ace-penalty", type=int)
    parser.add_argument("--wild-scope")


def score(args, rules: dict) -> dict:
    from taas.envs.core.cards import check_hand, parse_card, parse_cards, shoe
    from taas.envs.core.config import build_config, given
    from taas.envs.marriage.config import GAME, Config
    from taas.envs.marriage.scoring import score_hand

    cards = parse_cards(args.hand)
    named = {
        "lives_required": args.lives_required,
        "ace_penalty": args.ace_penalty,
        "wild_scope": args.wild_scope,
    }
    flags = {**rules, **given(named)}
    cfg = build_config(Config, GAME, flags)
    in_play = shoe(cfg.decks, cfg.jokers)
    indicator = parse_card(args.indicator)
    if not in_play[indicator]:
        raise ValueError(f"indicator {args.indicator}: the {GAME} shoe holds no such card")
    in_play[indicator] -= 1  # the indicator is out of play
    check_hand(cards, in_play, (cfg.deal_size, cfg.deal_size + 1), GAME)
    return score_hand(cards, args.indicator, **flags)
