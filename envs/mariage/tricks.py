"""Trick-taking maths a second trick-taking game can reuse: who wins a trick, which cards a
follower may play.

Hands are bitmasks over a game's own card ids (bit ``c`` set = card ``c`` held), so legality is
a few ``&`` operations on precomputed suit masks instead of loops over cards.
"""

from __future__ import annotations

from collections.abc import Sequence


class TrickRules:
    """Per-card suit and strength tables of one deck (higher strength wins within a suit)."""

    def __init__(self, suits: Sequence[int], strengths: Sequence[int], num_suits: int = 4):
        if len(suits) != len(strengths):
            raise ValueError("suits and strengths must have one entry per card")
        self.suit = list(suits)
        self.strength = list(strengths)
        self.suit_mask = [0] * num_suits
        for c, s in enumerate(self.suit):
            self.suit_mask[s] |= 1 << c
        # above[c]: the cards of c's suit that beat c, so "can I head the trick" is one AND.
        self.above = [
            sum(1 << d for d, t in enumerate(self.suit) if t == s and self.strength[d] > strength)
            for s, strength in zip(self.suit, self.strength, strict=True)
        ]

    def follower_wins(self, lead: int, follow: int, trump: int) -> bool:
        """Same suit: the stronger card wins; different suits: a trump wins, else the lead."""
        if self.suit[follow] == self.suit[lead]:
            return self.strength[follow] > self.strength[lead]
        return self.suit[follow] == trump

    def follow_mask(self, hand: int, lead: int, trump: int, must_head: bool = False) -> int:
        """Cards a follower under follow-suit duty may play: the led suit if held (only cards
        that beat the lead when ``must_head`` and one can), else a trump if held, else any card.
        A trump always beats a non-trump lead, so heading adds nothing to the trump duty."""
        same = hand & self.suit_mask[self.suit[lead]]
        if same:
            if must_head:
                return same & self.above[lead] or same
            return same
        return hand & self.suit_mask[trump] or hand
