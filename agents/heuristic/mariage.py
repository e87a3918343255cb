"""A rule-based Mariage player: the standard Sixty-Six strategy.

It reads only the observation (through :data:`taas.envs.mariage.observation.LAYOUT`), so it sees
exactly what a careful player sees. Priorities: claim as soon as the score reaches 66; take the
trump 7 exchange; declare marriages (trumps first); close the talon when the sure tricks in hand
carry the score to 66; lead low while the talon is open and keep trumps, aces, tens and marriage
pairs; take valuable leads with a same-suit card or a low trump; after the talon is gone, pull
trumps with the top trump and cash masters.
"""

from __future__ import annotations

import numpy as np

from taas.agents.base import Agent
from taas.envs.mariage.actions import (
    ACE,
    CLAIM,
    CLOSE,
    EXCHANGE,
    KING,
    MARRY,
    NUM_CARDS,
    POINTS,
    QUEEN,
    RANK,
    STRENGTH,
    SUIT,
    TEN,
    card,
)
from taas.envs.mariage.observation import LAYOUT, SCORE_MAX

WIN = 66
_ALL = (1 << NUM_CARDS) - 1
_SUIT_MASK = [sum(1 << c for c in range(NUM_CARDS) if SUIT[c] == s) for s in range(4)]
_POW = 1 << np.arange(NUM_CARDS, dtype=np.uint64)


def _bits(obs: np.ndarray, key: str) -> int:
    """A 32-card block of the observation as a bitmask."""
    return int(_POW[obs[LAYOUT[key]] > 0.5].sum())


def _cards(mask: int) -> list[int]:
    return [c for c in range(NUM_CARDS) if mask >> c & 1]


class MariageHeuristicAgent(Agent):
    """Sixty-Six strategy from the observation; ``act`` is deterministic given the observation
    (the RNG is unused but kept by the protocol)."""

    name = "heuristic"

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return self._choose(observation, action_mask)

    def ranking(self, observation: np.ndarray, action_mask: np.ndarray) -> list[int]:
        """Its move first, then the other legal moves in id order (it judges only its own)."""
        first = self._choose(observation, action_mask)
        return [first, *(int(a) for a in np.flatnonzero(action_mask) if a != first)]

    def _choose(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        v = _View(observation)
        legal = action_mask
        if legal[CLAIM] and v.score >= WIN:
            return CLAIM
        phase = int(np.argmax(observation[LAYOUT["phase"]]))
        cards = [c for c in range(NUM_CARDS) if legal[c]]
        if phase == 2:
            return self._follow(v, cards)
        if phase == 1:  # lead the marriage's queen, keep the stronger king
            return min(cards, key=lambda c: STRENGTH[c])
        if legal[EXCHANGE]:
            return EXCHANGE
        marriages = [s for s in range(4) if legal[MARRY + s]]
        if marriages:
            return MARRY + (v.trump if v.trump in marriages else marriages[0])
        if legal[CLOSE] and v.score + v.sure_points() >= WIN:
            return CLOSE
        return self._lead(v, cards)

    def _lead(self, v: _View, cards: list[int]) -> int:
        if v.open:
            return min(cards, key=v.keep_value)
        masters = [c for c in cards if v.is_master(c)]
        trumps_out = v.unseen & _SUIT_MASK[v.trump]
        master_trumps = [c for c in masters if SUIT[c] == v.trump]
        if master_trumps and trumps_out:
            return max(master_trumps, key=lambda c: STRENGTH[c])
        side = [c for c in masters if SUIT[c] != v.trump]
        if side and not trumps_out:
            return max(side, key=lambda c: (POINTS[c], STRENGTH[c]))
        if master_trumps:
            return max(master_trumps, key=lambda c: STRENGTH[c])
        return min(cards, key=v.keep_value)

    def _follow(self, v: _View, cards: list[int]) -> int:
        lead = v.lead
        same = [c for c in cards if SUIT[c] == SUIT[lead] and STRENGTH[c] > STRENGTH[lead]]
        ruff = [c for c in cards if SUIT[c] == v.trump != SUIT[lead]]
        value = POINTS[lead]
        winners = same + ruff
        if winners and v.score + value + max(POINTS[c] for c in winners) >= WIN:
            need = WIN - v.score - value
            return max(winners, key=lambda c: (POINTS[c] >= need, -v.keep_value(c)))
        if v.open:
            keep_pairs = [c for c in same if not v.in_pair(c)]
            if keep_pairs:
                return max(keep_pairs, key=lambda c: POINTS[c])
            cheap_ruff = [c for c in ruff if not v.in_pair(c) and RANK[c] not in (ACE, TEN)]
            if value >= 10 and cheap_ruff:
                return min(cheap_ruff, key=v.keep_value)
            return min(cards, key=v.keep_value)
        if same:
            return max(same, key=lambda c: POINTS[c])
        if ruff:
            return min(ruff, key=lambda c: STRENGTH[c])
        return min(cards, key=lambda c: (POINTS[c], SUIT[c] == v.trump, STRENGTH[c]))


class _View:
    """The observation decoded once per decision."""

    def __init__(self, obs: np.ndarray):
        self.hand = _bits(obs, "hand")
        self.trump = int(np.argmax(obs[LAYOUT["trump"]]))
        lead = _bits(obs, "lead")
        self.lead = lead.bit_length() - 1
        points = obs[LAYOUT["points"]]
        self.score = round(float(points[2]) * SCORE_MAX)
        self.open = not obs[LAYOUT["talon_state"]].any() and obs[LAYOUT["talon"]][0] > 0
        gone = _bits(obs, "played_me") | _bits(obs, "played_opp") | _bits(obs, "indicator_out")
        self.unseen = _ALL & ~(self.hand | gone | _bits(obs, "indicator"))

    def in_pair(self, c: int) -> bool:
        """A king or queen whose partner is in hand or may still be drawn or held unseen
        (keeping it keeps a marriage possible)."""
        if RANK[c] not in (KING, QUEEN):
            return False
        partner = card(QUEEN if RANK[c] == KING else KING, SUIT[c])
        return bool((self.hand | self.unseen) >> partner & 1)

    def keep_value(self, c: int) -> float:
        """How much a card is worth keeping: points, trumps, marriage cards, strength."""
        v = POINTS[c] + STRENGTH[c] * 0.1
        if SUIT[c] == self.trump:
            v += 12
        if self.in_pair(c):
            v += 8
        return v

    def is_master(self, c: int) -> bool:
        """No unseen card of its suit beats it."""
        higher = self.unseen & _SUIT_MASK[SUIT[c]]
        return not any(STRENGTH[d] > STRENGTH[c] for d in _cards(higher))

    def sure_points(self) -> int:
        """Points the hand should take for certain once the talon is closed: the unbroken run
        of top trumps, then (if those drain every outstanding trump) the side-suit masters,
        each assumed to capture a low card."""
        trump_mask = _SUIT_MASK[self.trump]
        pts = wins = 0
        for c in sorted(_cards(trump_mask & (self.hand | self.unseen)), key=lambda c: -STRENGTH[c]):
            if not self.hand >> c & 1:
                break
            pts += POINTS[c] + 2
            wins += 1
        if wins >= len(_cards(self.unseen & trump_mask)):
            for c in _cards(self.hand & ~trump_mask):
                if self.is_master(c):
                    pts += POINTS[c] + 2
        return pts
