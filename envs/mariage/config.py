"""Mariage rule variants: one frozen, validated dataclass (rules: docs/rules/mariage.md)."""

from __future__ import annotations

from dataclasses import dataclass

from taas.envs.core.config import check_choice, check_optional_int, plain_fields

GAME = "mariage"
MATCH_MODES = ("game_points", "raw_points", "three_in_a_row")
# match_target=None resolves to the mode's usual target: 7 game points, 1000 raw points,
# three deals won in a row.
DEFAULT_TARGETS = {"game_points": 7, "raw_points": 1000, "three_in_a_row": 3}
BOOLS = (True, False)


@dataclass(frozen=True)
class Config:
    """Every rule variant of Mariage; defaults are the rules of docs/rules/mariage.md.

    ``closing_penalty`` is what the closer's opponent scores when the closer fails;
    ``closing_penalty_no_trick`` applies instead when that opponent had no trick at the moment
    of closing. ``max_turns`` is an environment safety limit (actions per episode), not a rule:
    a random player's false claims can stall a ``raw_points`` match.
    """

    exchange_requires_trick: bool = False
    exchange_min_facedown: int = 1
    marriages_in_closed_phase: bool = False
    must_head_trick: bool = False
    allow_false_claims: bool = True
    false_claim_points: int = 2
    closing_penalty: int = 2
    closing_penalty_no_trick: int = 3
    last_trick_bonus: bool = False
    match_mode: str = "game_points"
    match_target: int | None = None
    episode: str = "deal"
    reward: str = "points"
    max_turns: int = 10_000

    def __post_init__(self) -> None:
        plain_fields(self)
        for flag in ("exchange_requires_trick", "marriages_in_closed_phase", "must_head_trick",
                     "allow_false_claims", "last_trick_bonus"):
            check_choice(GAME, flag, getattr(self, flag), BOOLS)
        check_choice(GAME, "exchange_min_facedown", self.exchange_min_facedown, (1, 2))
        for name in ("false_claim_points", "closing_penalty", "closing_penalty_no_trick"):
            check_choice(GAME, name, getattr(self, name), (1, 2, 3))
        check_choice(GAME, "match_mode", self.match_mode, MATCH_MODES)
        check_optional_int(GAME, "match_target", self.match_target, 1)
        check_choice(GAME, "episode", self.episode, ("deal", "match"))
        check_choice(GAME, "reward", self.reward, ("points", "win"))
        check_choice(GAME, "max_turns", self.max_turns, range(1, 10**9))

    @property
    def target(self) -> int:
        """The match target with ``None`` resolved for the mode."""
        return DEFAULT_TARGETS[self.match_mode] if self.match_target is None else self.match_target
