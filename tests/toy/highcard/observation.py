"""What a High Card player sees: its hand, every card played, the card led, both trick counts."""

from __future__ import annotations

import numpy as np

from taas.envs.core.game import Observer, make_layout

LAYOUT, SIZE = make_layout([("hand", 8), ("played", 8), ("lead", 8), ("tricks", 2)])


class HighCardObserver(Observer):
    layout, size = LAYOUT, SIZE
    low = np.zeros(SIZE, np.float32)
    high = np.ones(SIZE, np.float32)

    def __init__(self, config):
        self.config = config

    def encode(self, state, player: int) -> np.ndarray:
        obs = np.zeros(SIZE, np.float32)
        obs[LAYOUT["hand"]] = state.hands[player]
        obs[LAYOUT["played"]] = state.played
        if state.lead >= 0:
            obs[LAYOUT["lead"].start + state.lead] = 1
        obs[LAYOUT["tricks"]] = np.array(
            [state.tricks[player], state.tricks[1 - player]]) / self.config.hand_size
        return obs
