"""Rommé scorekeeping helper behind ``taas score romme``: what a hand costs and whether it
could open."""

from __future__ import annotations

from taas.envs.core.cards import card_str, to_counts
from taas.envs.core.config import build_config
from taas.envs.romme.config import GAME, Config
from taas.envs.romme.rules import charge, hand_value
from taas.envs.rummy.opening import best_opening


def score_hand(cards: list[int], never_opened: bool = False, players: int = 2, **flags) -> dict:
    """JSON-ready facts about a hand (card kinds as :func:`taas.envs.core.cards.parse_cards` gives
    them): ``hand_value`` (Joker 20, Ace 11, J/Q/K 10, 2-10 face), ``charge`` (what a loser
    holding it pays: the hand value, or with ``never_opened`` the surcharged, capped amount for
    ``players`` players), ``opening_value`` and ``opening_melds`` (the most valuable melds it
    could lay as an opening, cards written as ``parse_cards`` reads them, ``JK`` for a joker
    in the place it stands for). ``flags`` are ``romme_v1`` rules; a bad one is a
    ``ValueError``."""
    cfg = build_config(Config, GAME, {"num_players": players, **flags})
    counts = to_counts(cards)
    if (counts[:52] > 2).any() or counts[52] > cfg.jokers:
        raise ValueError(f"more copies than the {GAME} deck holds (2 packs, {cfg.jokers} jokers)")
    hv = hand_value(counts)
    opening = best_opening(counts, cfg.meld_rules())
    return {
        "hand_value": hv,
        "charge": charge(hv, not never_opened, cfg)[0],
        "opening_value": opening.value,
        "opening_melds": [" ".join(card_str(c) for c in m.cards) for m in opening.melds],
    }
