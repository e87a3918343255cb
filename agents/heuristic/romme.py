"""A rule-based Rommé agent: open as soon as it can, lay off, take jokers, shed expensive cards.

It reads only its own observation (through ``LAYOUT``) and the mask, plus the shared meld maths
for its own hand, so it is fair by construction. Once it has opened, and an opponent who has
opened is down to a few cards, it sheds rather than builds: it lays off jokers too, and of its
cards with at most one partner it throws the most expensive, so it is not caught holding them
(a player who never opened pays a capped charge, so there shedding is not worth a meld). A
baseline that beats random play widely, not a strong player: it never holds back melds, and it
does not track what opponents collect.
"""

from __future__ import annotations

import numpy as np

from taas.agents.base import Agent, either_first
from taas.envs.core.cards import JOKER, NUM_RANKS
from taas.envs.romme import actions as A
from taas.envs.romme.config import Config
from taas.envs.romme.observation import LAYOUT, lay_off_card
from taas.envs.romme.rules import COPY_STEP, HAND_VALUES, MAX_HAND, SEAT, SEAT_SIZE
from taas.envs.rummy.opening import opening_search

_RANK = np.arange(JOKER) % NUM_RANKS
_SUIT = np.arange(JOKER) // NUM_RANKS
CLOSE = 3
"""An opponent who has opened and holds at most this many cards may go out next turn."""


def opponent_close(observation: np.ndarray) -> bool:
    """Have I opened, and has an opponent opened and come down to ``CLOSE`` cards or fewer?"""
    seats = observation[LAYOUT["seats"]].reshape(-1, SEAT_SIZE)
    opened = seats[:, SEAT["opened"]][:, 0] > 0.5
    sizes = np.rint(seats[:, SEAT["hand_size"]][:, 0] * MAX_HAND)
    return bool(opened[0] and (opened[1:] & (sizes[1:] > 0) & (sizes[1:] <= CLOSE)).any())


def _partners(hand: np.ndarray, card: int) -> int:
    """How many other held cards could share a meld with ``card``: the same rank in another
    suit, or the same suit within two ranks (ace at both ends)."""
    if card == JOKER:
        return 99
    held = np.flatnonzero(hand[:JOKER])
    same_rank = (_RANK[held] == _RANK[card]) & (_SUIT[held] != _SUIT[card])
    gap = np.abs(_RANK[held] - _RANK[card])
    gap = np.minimum(gap, np.where((_RANK[held] == 0) | (_RANK[card] == 0), 13 - gap, gap))
    near = (_SUIT[held] == _SUIT[card]) & (gap > 0) & (gap <= 2)
    return int(same_rank.sum() + near.sum())


class RommeHeuristicAgent(Agent):
    """Draw the discard when it pairs up with the hand; lay the most valuable melds the hand
    holds (the opening as soon as it reaches the minimum); exchange jokers; lay off natural
    cards; discard the least connected card, the most expensive first; when an opponent is
    close to going out (:func:`opponent_close`), lay off jokers as well and count every card
    with a partner or none as loose."""

    name = "heuristic"

    def __init__(self, seed: int | None = None, config: Config | None = None):
        super().__init__(seed)
        self.config = config or Config()
        self._opening = opening_search(self.config.meld_rules())
        self._gave_up = False  # abandoned an opening this turn: do not try again until the draw

    @classmethod
    def build(cls, arg: str | None, env_id: str, seed: int | None, config: dict) -> Agent:
        if arg:
            raise ValueError(f"agent {cls.name!r} takes no argument (got {arg!r})")
        return cls(seed, Config(**config))

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return self.ranking(observation, action_mask)[0]

    def ranking(self, observation: np.ndarray, action_mask: np.ndarray) -> list[int]:
        """The legal moves this player would consider, best first (``act`` plays the first):
        both draws in its order of preference, its discards from most to least loose, or only
        the move it never questions (exchanging, melding, laying off, abandoning). Like ``act``
        it notes an abandoned opening, which ``act`` plays whenever it is first."""
        hand = np.rint(observation[LAYOUT["hand"]] / COPY_STEP).astype(np.int64)
        if action_mask[A.DRAW_STOCK] or action_mask[A.DRAW_DISCARD]:
            self._gave_up = False
            first = self._draw(observation, hand, action_mask)
            return either_first(first, A.DRAW_STOCK + A.DRAW_DISCARD - first, action_mask)
        for a in np.flatnonzero(action_mask[A.EXCHANGE : A.MELD]):
            return [A.EXCHANGE + int(a)]
        if action_mask[A.MELD :].any() and not self._gave_up:
            _, plan = self._opening.best(hand)
            for shape in plan:
                if action_mask[A.MELD + shape]:
                    return [A.MELD + shape]
        lay_offs = np.flatnonzero(action_mask[A.LAY_OFF : A.EXCHANGE]) + A.LAY_OFF
        natural = (lay_offs - A.LAY_OFF) % A.LAY_PER_SLOT < A.LAY_JOKER_LOW
        if natural.any():
            values = [HAND_VALUES[lay_off_card(observation, a)] for a in lay_offs[natural]]
            return [int(lay_offs[natural][np.argmax(values)])]
        discards = np.flatnonzero(action_mask[A.DISCARD : A.LAY_OFF])
        close = opponent_close(observation)
        if lay_offs.size and (not discards.size or hand.sum() <= 3 or close):
            return [int(lay_offs[0])]
        if discards.size:
            loose = 1 if close else 0  # partners a card may have and still count as loose
            key = [(max(_partners(hand, int(k)) - loose, 0), -HAND_VALUES[k]) for k in discards]
            return [A.DISCARD + int(discards[i]) for i in sorted(range(len(key)),
                                                                 key=key.__getitem__)]
        if action_mask[A.ABANDON]:
            self._gave_up = True
            return [A.ABANDON]
        return [int(np.flatnonzero(action_mask)[0])]

    def _draw(self, observation: np.ndarray, hand: np.ndarray, mask: np.ndarray) -> int:
        top = np.flatnonzero(observation[LAYOUT["top_discard"]])
        if (
            mask[A.DRAW_DISCARD]
            and top.size
            and (top[0] == JOKER or _partners(hand, int(top[0])) >= 2 or not mask[A.DRAW_STOCK])
        ):
            return A.DRAW_DISCARD
        return A.DRAW_STOCK
