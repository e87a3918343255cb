"""Every meld question Marriage asks, in one place: show validity, show discards, a loser's
penalty and the arrangement behind it, answered by the shared exact solver
(:mod:`taas.envs.rummy.melds`) under :class:`MeldRules` built from the Marriage :class:`Config`.

Also the score helper :func:`score_hand` (JSON-ready, for the CLI and for people checking a
round's scoring by hand).
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterable

import numpy as np

from taas.envs.core.cards import (
    JOKER,
    NUM_KINDS,
    NUM_SUITS,
    RANKS,
    card_str,
    kind,
    parse_card,
    rank_of,
    suit_of,
)
from taas.envs.core.config import build_config
from taas.envs.marriage.config import GAME, Config
from taas.envs.rummy import melds


def wild_cards(config: Config, indicator: int) -> tuple[np.ndarray, int]:
    """The round's wild kinds (53 bools) and wild rank (-1: printed jokers only) for this
    indicator: the next rank up in the circular order 2 < … < K < A < 2 (docs/rules/marriage.md)."""
    wild = np.zeros(NUM_KINDS, bool)
    wild[JOKER] = True
    if indicator == JOKER:
        rule = config.printed_joker_indicator
        if rule == "redraw":
            raise ValueError("a printed-joker indicator is redrawn under printed_joker_indicator="
                             "'redraw'; give the card that stayed as indicator")
        if rule == "printed_only":
            return wild, -1
        rank, suits = 0, range(NUM_SUITS)  # "aces_wild": no suit to follow, so every ace
    else:
        rank = (rank_of(indicator) + 1) % len(RANKS)
        suits = range(NUM_SUITS) if config.wild_scope == "rank" else [suit_of(indicator)]
    for s in suits:
        wild[kind(rank, s)] = True
    return wild, rank


def wild_rank_str(rank: int) -> str | None:
    """``"8"`` for a wild rank, ``None`` when only printed jokers are wild."""
    return None if rank < 0 else RANKS[rank]


class Scorer:
    """The meld oracle for one config and one set of wild cards."""

    def __init__(self, config: Config, wild: np.ndarray):
        self.config = config
        self.rules = melds.MeldRules(
            wild=tuple(bool(w) for w in wild),
            values=melds.card_values(ace=config.ace_penalty, joker=config.joker_penalty),
            wild_penalty=config.joker_penalty,
            lives_required=config.lives_required,
            group_mode="any",
            max_group_size=config.max_group_size,
            allow_wraparound=config.allow_wraparound,
            wild_in_natural_place_is_pure=config.wild_in_natural_place_is_pure,
            allow_all_wild_melds=config.allow_all_wild_melds,
            tunnela_counts_as_life=config.tunnela_counts_as_life,
        )

    def can_show(self, hand: np.ndarray) -> bool:
        """Every card of ``hand`` in melds, with the required lives."""
        return melds.can_meld_all(hand, self.rules)

    def show_discards(self, hand: np.ndarray) -> np.ndarray:
        """53 bools: the held kinds whose discard leaves a hand that can show (one solver
        pass)."""
        return melds.show_discards(hand, self.rules)

    def hand_value(self, hand: np.ndarray) -> int:
        """Value of every card in ``hand`` (what a loser without the required lives pays)."""
        return melds.hand_value(hand, self.rules)

    def report(self, hand: np.ndarray, shown: bool = False) -> dict:
        """A loser's penalty and the arrangement behind it, JSON-ready: the least penalty over
        arrangements holding the required lives (else the whole hand), ``tunnela_bonus``
        off per tunnela melded on its own. ``shown``: the hand of a valid show, which melds
        completely (found faster; it pays nothing, so no bonus is sought)."""
        if shown or not self.config.tunnela_bonus:
            best = melds.min_deadwood(hand, self.rules, complete=shown)
            kept: tuple[int, ...] = ()
        else:
            best, kept = self._with_tunnelas(hand)
        tunnela_melds = [melds.Meld((k,) * 3, False, self._tunnela_life(k), (False,) * 3, k % 13)
                         for k in kept]
        all_melds = [*tunnela_melds, *best.melds]
        tunnelas = sum(
            len(m.cards) == 3 and len(set(m.cards)) == 1 and not any(m.as_wild) for m in all_melds
        )
        return {
            "hand": [card_str(c) for c in np.repeat(np.arange(NUM_KINDS), hand)],
            "melds": [
                {
                    "cards": [card_str(c) for c in m.cards],
                    "life": m.is_life,
                    "as_wild": [card_str(c) for c, w in zip(m.cards, m.as_wild, strict=True) if w],
                }
                for m in all_melds
            ],
            "deadwood": [card_str(c) for c in best.deadwood],
            "tunnelas": tunnelas,
            "penalty": int(best.penalty) - self.config.tunnela_bonus * tunnelas,
        }

    def _tunnela_life(self, k: int) -> bool:
        """Whether a tunnela of kind ``k`` counts as a life (as the solver counts it)."""
        r = self.rules
        return r.tunnela_counts_as_life and (not r.wild[k] or r.wild_in_natural_place_is_pure)

    def _with_tunnelas(self, hand: np.ndarray) -> tuple[melds.Arrangement, tuple[int, ...]]:
        """The arrangement that charges least once tunnelas earn ``tunnela_bonus``: for each
        set of tunnelas kept apart as melds, the rest's minimum deadwood (with the lives still
        needed), less the bonus per tunnela. The plain minimum deadwood may hide a tunnela in
        a bigger group (six 9s as one group), so every set is tried: a hand holds few."""
        bonus = self.config.tunnela_bonus
        triples = [k for k in range(JOKER) if hand[k] == 3]
        best = (self.hand_value(hand), np.asarray(hand), self.rules, ())  # no lives: all
        for size in range(len(triples) + 1):
            for kept in itertools.combinations(triples, size):
                rest = np.array(hand, np.int8)
                rest[list(kept)] -= 3
                need = max(0, self.rules.lives_required - sum(map(self._tunnela_life, kept)))
                rules = dataclasses.replace(self.rules, lives_required=need)
                dead = melds.deadwood(rest, rules)
                if need and dead >= melds.hand_value(rest, rules):
                    continue  # no arrangement of the rest holds the lives still needed
                if dead - bonus * size < best[0]:
                    best = (dead - bonus * size, rest, rules, kept)
        _, rest, rules, kept = best
        return melds.min_deadwood(rest, rules), kept

def score_hand(cards: str | Iterable[str | int], indicator: str | int, **flags) -> dict:
    """Score a Marriage hand under the rules ``flags`` (``Config`` fields), JSON-ready.

    ``cards`` as ``parse_cards`` reads them (``"3H 4H 5H JK"``) or a list of cards;
    ``indicator`` one card. A hand of ``hand_size`` cards (21) answers ``can_show``; a hand of
    one more (22, after the draw) also lists ``show_discards``, the cards whose discard leaves
    a valid show. ``penalty``, ``melds`` and ``deadwood`` are the hand's score as a loser.
    """
    config = build_config(Config, GAME, flags)
    hand_kinds = _parse(cards)
    ind = _parse([indicator] if isinstance(indicator, (str, int)) else indicator)
    if len(ind) != 1:
        raise ValueError(f"indicator {indicator!r}: expected exactly one card")
    hand = np.bincount(hand_kinds, minlength=NUM_KINDS).astype(np.int8)
    limit = np.full(NUM_KINDS, config.decks)
    limit[JOKER] = config.jokers
    limit[ind[0]] -= 1  # the indicator is out of play
    over = np.flatnonzero(hand > limit)
    if len(over):
        raise ValueError(
            f"cards {[card_str(c) for c in over]}: more copies than the shoe holds "
            f"({config.decks} decks, {config.jokers} printed jokers, indicator {card_str(ind[0])})"
        )
    wild, rank = wild_cards(config, ind[0])
    scorer = Scorer(config, wild)
    report = scorer.report(hand)
    out = {
        "wild_rank": wild_rank_str(rank),
        "wild_cards": [card_str(c) for c in np.flatnonzero(wild)],
        "can_show": scorer.can_show(hand),
        "show_discards": None,
        "penalty": report["penalty"],
        "melds": report["melds"],
        "deadwood": report["deadwood"],
    }
    if len(hand_kinds) == config.deal_size + 1 and config.show_requires_discard:
        ok = scorer.show_discards(hand)
        out["show_discards"] = [card_str(c) for c in np.flatnonzero(ok)]
        out["can_show"] = bool(ok.any())
    return out


def _parse(cards: str | Iterable[str | int]) -> list[int]:
    if isinstance(cards, str):
        cards = cards.replace(",", " ").split()
    out = []
    for c in cards:
        if isinstance(c, str):
            out.append(parse_card(c))
        elif isinstance(c, (int, np.integer)) and 0 <= c < NUM_KINDS:
            out.append(int(c))
        else:
            raise ValueError(f"bad card {c!r}: expected a card such as '10H' or a kind 0..52")
    return out
