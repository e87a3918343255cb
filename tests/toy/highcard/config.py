"""High Card's rules: how many cards each player holds (the only variant)."""

from __future__ import annotations

from dataclasses import dataclass

from taas.envs.core.config import check_choice, plain_fields

GAME = "highcard"


@dataclass(frozen=True)
class Config:
    hand_size: int = 3
    max_turns: int = 100

    def __post_init__(self):
        plain_fields(self)
        check_choice(GAME, "hand_size", self.hand_size, range(1, 5))
        check_choice(GAME, "max_turns", self.max_turns, range(1, 10**6))
