"""Slow, obviously-correct reference for the finishing search of taas.envs.marriage_nepali.

Validity by substitution, straight from the rules text: each wild card may become any of the 52
faces (or stay itself); a combination is valid if some substitution gives a trial (one rank,
three suits), a pure sequence (one suit, three consecutive ranks, ace low or high, no K-A-2),
or, with no card changed, three identical cards. Partitions by trying, for the first physical
card left, every pair of faces among the other cards. It shares no code with the solver.
"""

from __future__ import annotations

from functools import cache
from itertools import product

FACES = range(52)


def _natural(faces: tuple[int, ...]) -> bool:
    ranks = sorted(f % 13 for f in faces)
    suits = {f // 13 for f in faces}
    if len(set(ranks)) == 3 and len(suits) == 1:
        return ranks[2] - ranks[0] == 2 or ranks == [0, 11, 12]  # ..., Q-K-A
    return len(set(ranks)) == 1 and len(suits) == 3


@cache
def valid(cards: tuple[int, ...], wild: frozenset[int]) -> bool:
    """Whether three cards form a valid combination for a seen player with wild set ``wild``."""
    if len(set(cards)) == 1:
        return True
    options = [[c, *FACES] if c in wild else [c] for c in cards]
    return any(_natural(faces) for faces in product(*options) if 52 not in faces)


def can_split(cards: tuple[int, ...], wild: frozenset[int]) -> bool:
    """Whether the physical cards (sorted) split into valid three-card combinations."""
    return _split(tuple(sorted(cards)), wild)


@cache
def _split(cards: tuple[int, ...], wild: frozenset[int]) -> bool:
    if not cards:
        return True
    if len(cards) % 3:
        return False
    first, rest = cards[0], cards[1:]  # sorted, so (first, a, b) below is sorted too
    tried = set()
    for i, a in enumerate(rest):
        for j in range(i + 1, len(rest)):
            b = rest[j]
            if (a, b) in tried:
                continue
            tried.add((a, b))
            if valid((first, a, b), wild) and _split(rest[:i] + rest[i + 1:j] + rest[j + 1:],
                                                     wild):
                return True
    return False


def closing_discards(cards: list[int], wild: frozenset[int]) -> list[int]:
    """The faces whose discard leaves cards that split."""
    out = []
    for face in sorted(set(cards)):
        rest = list(cards)
        rest.remove(face)
        if can_split(tuple(rest), wild):
            out.append(face)
    return out
