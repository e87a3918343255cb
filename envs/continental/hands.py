"""Continental hands: what a card costs left in hand, and whether a hand lies in groups.

The one home of the card values and of hand scoring (the engine, ``score_hand`` and the greedy
agent read them here). Hands are count vectors over card kinds; only ranks matter for groups,
so the go-out test is arithmetic on per-rank counts (exact, see :func:`can_group`).
"""

from __future__ import annotations

import numpy as np

from taas.envs.core.cards import JOKER, NUM_RANKS, kind

# Penalty value of each kind: Ace 1, 2-9 face value, 10/J/Q/K 10, Joker 15.
CARD_VALUES = np.array([min(r + 1, 10) for _ in range(4) for r in range(NUM_RANKS)] + [15])


def penalty(hand: np.ndarray) -> int:
    """What a loser is charged for ``hand``: the value of every card in it (nothing is melded
    before going out, so complete groups in hand count too)."""
    return int(CARD_VALUES @ hand)


def rank_counts(hand: np.ndarray) -> list[int]:
    """Natural cards per rank (suits do not matter in Continental groups)."""
    return hand[:JOKER].reshape(4, NUM_RANKS).sum(axis=0).tolist()


def can_group(naturals: list[int], jokers: int, min_naturals: int) -> bool:
    """Can these cards be split into two or more groups (3+ cards of one rank, at least
    ``min_naturals`` natural cards each)?

    Exact: each rank present needs one group, topped up to 3 cards with jokers; spare jokers
    join any group (no size cap). Two groups always exist when two ranks are present; a single
    rank can make two groups only with enough naturals and cards for both.
    """
    present = [c for c in naturals if c]
    if not present or min(present) < min_naturals:
        return False
    if sum(3 - c for c in present if c < 3) > jokers:
        return False
    if len(present) == 1:
        return present[0] >= 2 * min_naturals and present[0] + jokers >= 6
    return True


def go_out_discards(hand: np.ndarray, min_naturals: int) -> list[int]:
    """Kinds whose discard leaves ``hand`` in groups (:func:`can_group`), in one pass.

    Hot path (every discard decision): the per-rank tallies of :func:`can_group` are built once
    and each candidate discard only adjusts its own rank's terms. One discard lowers the jokers
    needed by at most two, which rules out most hands at once.
    """
    counts = hand.tolist()
    suits = (counts[s * NUM_RANKS : (s + 1) * NUM_RANKS] for s in range(4))
    naturals = [a + b + c + d for a, b, c, d in zip(*suits, strict=True)]
    jokers = counts[JOKER]
    m = min_naturals
    present = [c for c in naturals if c]
    need = sum(3 - c for c in present if c < 3)
    if need - 2 > jokers:
        return []
    ranks_present = len(present)
    short = sum(c < m for c in present)

    def fits(k: int, short: int, need: int, jokers: int, lone: int) -> bool:
        if k == 0 or short or need > jokers:
            return False
        return k >= 2 or (lone >= 2 * m and lone + jokers >= 6)

    lone = present[0] if ranks_present == 1 else 0
    out = [JOKER] if jokers and fits(ranks_present, short, need, jokers - 1, lone) else []
    good = []
    for r, c in enumerate(naturals):
        if not c:
            continue
        left = c - 1
        k = ranks_present - (left == 0)
        s2 = short - (c < m) + (0 < left < m)
        n2 = need - max(0, 3 - c) + (3 - left if 0 < left < 3 else 0)
        if k == 1:
            lone2 = left if left else next(x for i, x in enumerate(naturals) if x and i != r)
        else:
            lone2 = 0
        if fits(k, s2, n2, jokers, lone2):
            good.append(r)
    out.extend(k for k in range(JOKER) if counts[k] and k % NUM_RANKS in good)
    return out


def arrange_groups(hand: np.ndarray) -> list[list[int]]:
    """One way to lay a groupable hand: a group per rank, jokers topping up short groups and
    the spare ones joining the first group (for the end-of-round reveal)."""
    jokers = int(hand[JOKER])
    groups = []
    for r in range(NUM_RANKS):
        cards = [kind(r, s) for s in range(4) for _ in range(int(hand[kind(r, s)]))]
        if cards:
            pad = max(0, 3 - len(cards))
            groups.append(cards + [JOKER] * pad)
            jokers -= pad
    if groups:
        groups[0].extend([JOKER] * jokers)
    return groups
