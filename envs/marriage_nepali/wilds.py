"""The tiplu and the roles it gives cards (spec 2N.5): poplu, jhiplu, alter, ordinary jokers,
and the wild set a seen player may use.

Ranks are cyclic (… Q, K, A, 2 …), so tiplu K♠ makes A♠ the poplu and tiplu A♣ makes K♣ the
jhiplu.
"""

from __future__ import annotations

from dataclasses import dataclass

from taas.envs.core.cards import JOKER, NUM_RANKS, card_str, kind, rank_of, suit_of

# ♠↔♣ and ♥↔♦ (suit order S H D C): the alter is the other suit of the tiplu's colour.
_SAME_COLOUR = (3, 2, 1, 0)


@dataclass(frozen=True)
class Roles:
    """The card roles of one round, fixed once the tiplu is drawn."""

    tiplu: int
    poplu: int
    jhiplu: int
    alter: int
    ordinary_jokers: tuple[int, int]
    wild: frozenset[int]

    def as_json(self) -> dict:
        """Card faces of every role, for the score helper and ``info``."""
        return {
            "tiplu": card_str(self.tiplu),
            "poplu": card_str(self.poplu),
            "jhiplu": card_str(self.jhiplu),
            "alter": card_str(self.alter),
            "ordinary_jokers": [card_str(c) for c in self.ordinary_jokers],
            "wild_cards": [card_str(c) for c in sorted(self.wild)],
        }


def roles(tiplu: int, printed_jokers: int = 0) -> Roles:
    """The roles for tiplu ``tiplu`` (a ranked card kind); printed jokers, when in play, are
    wild too (spec 2N.5, ALT)."""
    if not 0 <= tiplu < JOKER:
        raise ValueError(f"tiplu {tiplu!r}: expected a ranked card (a printed joker is redrawn)")
    r, s = rank_of(tiplu), suit_of(tiplu)
    alter_suit = _SAME_COLOUR[s]
    others = tuple(kind(r, t) for t in range(4) if t not in (s, alter_suit))
    poplu = kind((r + 1) % NUM_RANKS, s)
    jhiplu = kind((r - 1) % NUM_RANKS, s)
    wild = {kind(r, t) for t in range(4)} | {poplu, jhiplu}
    if printed_jokers:
        wild.add(JOKER)
    return Roles(tiplu, poplu, jhiplu, kind(r, alter_suit), others, frozenset(wild))
