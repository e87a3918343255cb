"""What a High Card player cannot see: the other hand and the undealt cards, dealt afresh."""

from __future__ import annotations

import numpy as np


def determinize(game, state, player: int, rng: np.random.Generator):
    s = state.clone()
    other = 1 - player
    unseen = np.flatnonzero(s.hands[other] | s.stock)
    rng.shuffle(unseen)
    n = int(s.hands[other].sum())
    s.hands[other] = 0
    s.stock = np.zeros(8, np.int8)
    s.hands[other, unseen[:n]] = 1
    s.stock[unseen[n:]] = 1
    return s
