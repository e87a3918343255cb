"""The tiplu and the roles it gives cards (spec 2N.5): poplu, jhiplu, alter, ordinary jokers,
and the wild set a seen player may use.

Ranks are cyclic (… Q, K, A, 2 …), so tiplu K♠ makes A♠ the poplu and tiplu A♣ makes K♣ the
jhiplu.

Under ``man_tiplu="spades_ace"`` a printed joker (Man) drawn as the tiplu stays the tiplu card
(out of play) and the ace of spades takes its role: :attr:`Roles.tiplu` is the face whose copies
play and score as tiplus, :attr:`Roles.card` the card set aside.
"""

from __future__ import annotations

from dataclasses import dataclass

from taas.envs.core.cards import JOKER, NUM_RANKS, card_str, kind, rank_of, suit_of

# ♠↔♣ and ♥↔♦ (suit order S H D C): the alter is the other suit of the tiplu's colour.
_SAME_COLOUR = (3, 2, 1, 0)
SPADES_ACE = kind(0, 0)


@dataclass(frozen=True)
class Roles:
    """The card roles of one round, fixed once the tiplu is drawn: ``tiplu`` is the face
    that plays as tiplu, ``card`` the tiplu card set aside (the same face, or a Man under
    ``man_tiplu="spades_ace"``)."""

    tiplu: int
    poplu: int
    jhiplu: int
    alter: int
    ordinary_jokers: tuple[int, int]
    wild: frozenset[int]
    card: int

    def as_json(self) -> dict:
        """Card faces of every role, for the score helper and ``info``; ``tiplu_card`` only
        when the tiplu card is not the tiplu face (a Man, spades-ace rule)."""
        card = {"tiplu_card": card_str(self.card)} if self.card != self.tiplu else {}
        return {
            "tiplu": card_str(self.tiplu),
            **card,
            "poplu": card_str(self.poplu),
            "jhiplu": card_str(self.jhiplu),
            "alter": card_str(self.alter),
            "ordinary_jokers": [card_str(c) for c in self.ordinary_jokers],
            "wild_cards": [card_str(c) for c in sorted(self.wild)],
        }


def roles(tiplu: int, printed_jokers: int = 0, man_tiplu: str = "redraw") -> Roles:
    """The roles for the tiplu card ``tiplu`` (a ranked card kind, or a printed joker under
    ``man_tiplu="spades_ace"``: then the ace of spades' roles); printed jokers, when in play,
    are wild too (spec 2N.5, ALT)."""
    card = tiplu
    if tiplu == JOKER and printed_jokers and man_tiplu == "spades_ace":
        tiplu = SPADES_ACE
    elif not 0 <= tiplu < JOKER:
        raise ValueError(f"tiplu {card_str(tiplu) if tiplu == JOKER else repr(tiplu)}: expected "
                         "a ranked card (a printed joker is a tiplu only with printed_jokers=3 "
                         "and man_tiplu='spades_ace'; else it is redrawn)")
    r, s = rank_of(tiplu), suit_of(tiplu)
    alter_suit = _SAME_COLOUR[s]
    others = tuple(kind(r, t) for t in range(4) if t not in (s, alter_suit))
    poplu = kind((r + 1) % NUM_RANKS, s)
    jhiplu = kind((r - 1) % NUM_RANKS, s)
    wild = {kind(r, t) for t in range(4)} | {poplu, jhiplu}
    if printed_jokers:
        wild.add(JOKER)
    return Roles(tiplu, poplu, jhiplu, kind(r, alter_suit), others, frozenset(wild), card)
