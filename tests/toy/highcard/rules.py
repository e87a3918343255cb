"""High Card, a toy game for the registry test: two players, the eight spades 2-9. Each holds
``hand_size`` cards; they take turns to play one, player 0 leading; the higher card of a pair
wins the trick; the player with more tricks scores +1, the other -1 (a tie: 0)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from taas.envs.core.cards import NUM_KINDS, card_str
from taas.envs.core.game import Game, State

KINDS = np.arange(1, 9)  # the spades 2..9 as card kinds (kind = suit * 13 + rank, spades = 0)


@dataclass
class HighCardState(State):
    hands: np.ndarray  # (2, 8): which of the eight cards each holds
    stock: np.ndarray  # (8,): the cards nobody was dealt
    lead: int = -1  # index (0..7) of the card led in this trick, -1 if none
    played: np.ndarray = field(default_factory=lambda: np.zeros(8, np.int8))
    tricks: list = field(default_factory=lambda: [0, 0])
    current: int = 0
    over: bool = False
    truncated: bool = False
    turns: int = 0
    returns: np.ndarray = field(default_factory=lambda: np.zeros(2))


class HighCardGame(Game):
    env_id = "highcard_v0"
    num_players = 2
    num_actions = 8  # play card i (the spade of rank i + 2)

    def new_state(self, rng: np.random.Generator) -> HighCardState:
        order = rng.permutation(8)
        n = self.config.hand_size
        hands = np.zeros((2, 8), np.int8)
        hands[0, order[:n]] = 1
        hands[1, order[n:2 * n]] = 1
        stock = np.zeros(8, np.int8)
        stock[order[2 * n:]] = 1
        return HighCardState(hands, stock)

    def _legal_mask(self, s: HighCardState) -> np.ndarray:
        if s.over:
            return np.zeros(8, np.int8)
        return s.hands[s.current].copy()

    def _apply(self, s: HighCardState, a: int) -> None:
        p = s.current
        s.hands[p, a] = 0
        s.played[a] = 1
        s.turns += 1
        if s.lead < 0:
            s.lead, s.current = a, 1 - p
        else:
            winner = p if a > s.lead else 1 - p
            s.tricks[winner] += 1
            s.lead, s.current = -1, winner
        if not s.hands.any():
            s.over = True
            diff = np.sign(s.tricks[0] - s.tricks[1])
            s.returns = np.array([diff, -diff], np.float64)
        elif s.turns >= self.config.max_turns:
            s.over = s.truncated = True

    def action_to_str(self, action: int) -> str:
        return f"play {card_str(int(KINDS[action]), symbols=False)}"

    def _kinds(self, cards: np.ndarray) -> np.ndarray:
        out = np.zeros(NUM_KINDS, np.int8)
        out[KINDS] = cards
        return out

    def zones(self, s: HighCardState) -> dict[str, np.ndarray]:
        return {"hand_0": self._kinds(s.hands[0]), "hand_1": self._kinds(s.hands[1]),
                "stock": self._kinds(s.stock), "played": self._kinds(s.played)}

    def shoe(self, s: HighCardState) -> np.ndarray:
        return self._kinds(np.ones(8, np.int8))

    def render(self, s: HighCardState, symbols: bool = True) -> str:
        hands = [f"player_{p}: " + " ".join(self.action_to_str(a)[5:]
                                             for a in np.flatnonzero(s.hands[p]))
                 for p in range(2)]
        return "\n".join([*hands, f"tricks {s.tricks[0]}-{s.tricks[1]}"])
