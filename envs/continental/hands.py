"""Continental hands: what a card costs left in hand, and whether a hand lies in groups.

The one home of the card values and of hand scoring (the engine, ``score_hand`` and the greedy
agent read them here). Hands are count vectors over card kinds; only ranks matter for groups,
so the go-out test is arithmetic on per-rank counts (exact, see :func:`can_group`).
"""

from __future__ import annotations

import numpy as np

from taas.envs.core.cards import JOKER, NUM_KINDS, NUM_RANKS, kind
from taas.envs.core.jit import jit_norc

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
    """Kinds whose discard leaves ``hand`` in groups (:func:`can_group`): the printed joker
    first, then the rest in kind order."""
    flags = np.zeros(NUM_KINDS, np.int8)
    mark_go_outs(flags, 0, hand, min_naturals)
    out = np.flatnonzero(flags).tolist()
    return out[-1:] + out[:-1] if flags[JOKER] else out


@jit_norc
def _naturals(hand, r):
    """Natural cards of rank ``r`` in ``hand`` (:func:`rank_counts`, one rank, compiled)."""
    return int(hand[r]) + int(hand[NUM_RANKS + r]) + int(hand[2 * NUM_RANKS + r]) + int(
        hand[3 * NUM_RANKS + r])


@jit_norc
def _fits(k, short, need, jokers, lone, m):
    """:func:`can_group` on tallies: ``k`` ranks present, ``short`` of them with fewer than
    ``m`` naturals, ``need`` jokers to top them up to 3, ``lone`` the count of a single rank."""
    if k == 0 or short or need > jokers:
        return False
    return k >= 2 or (lone >= 2 * m and lone + jokers >= 6)


@jit_norc
def mark_go_outs(out, at, hand, m):
    """Set ``out[at + k]`` for each kind ``k`` whose discard leaves ``hand`` in groups.

    Hot path (every discard decision), compiled: the per-rank tallies of :func:`can_group` are
    built once and each candidate discard only adjusts its own rank's terms. One discard lowers
    the jokers needed by at most two, which rules out most hands at once."""
    jokers = int(hand[JOKER])
    present = short = need = lone = 0
    for r in range(NUM_RANKS):
        c = _naturals(hand, r)
        if c:
            present += 1
            lone = c
            need += max(0, 3 - c)
            short += c < m
    if need - 2 > jokers:
        return
    if jokers and _fits(present, short, need, jokers - 1, lone if present == 1 else 0, m):
        out[at + JOKER] = 1
    for r in range(NUM_RANKS):
        c = _naturals(hand, r)
        if not c:
            continue
        left = c - 1
        k = present - (left == 0)
        s2 = short - (c < m) + (0 < left < m)
        n2 = need - max(0, 3 - c) + (3 - left if 0 < left < 3 else 0)
        lone2 = 0
        if k == 1:
            lone2 = left
            if not left:  # the one other rank present (the others hold none)
                for q in range(NUM_RANKS):
                    if q != r:
                        lone2 += _naturals(hand, q)
        if _fits(k, s2, n2, jokers, lone2, m):
            for s in range(4):
                if hand[s * NUM_RANKS + r]:
                    out[at + s * NUM_RANKS + r] = 1


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
