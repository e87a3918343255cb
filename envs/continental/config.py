"""Continental Rummy rule variants: one frozen, validated dataclass.

Rules: docs/rules/continental.md.
"""

from __future__ import annotations

from dataclasses import dataclass

from taas.envs.core.config import check_choice, check_optional_int, plain_fields

GAME = "continental"
MAX_PLAYERS = 8


@dataclass(frozen=True)
class Config:
    """Every rule variant of Continental Rummy; defaults are the rules of docs/rules/continental.md.

    ``large_table`` applies to 7–8 players only: ``"third_deck"`` adds a third deck and two
    more jokers (15 cards each), ``"deal_13"`` keeps 108 cards and deals 13 each.
    ``num_rounds=None`` means one round per player. ``episode="match"`` plays the whole series
    (with the tie-break round among tied players) as one episode. ``tiebreak_players`` and
    ``meld_type`` have one supported value each (the rules table's defaults): they are
    accepted so a config written from the table works, and anything else is a clear error.
    """

    num_players: int = 4
    jokers: int = 4
    large_table: str = "third_deck"
    hand_size: int = 15
    min_naturals_per_group: int = 1
    must_discard_to_go_out: bool = True
    forbid_rediscard_of_drawn_discard: bool = True
    allow_buying: bool = False
    num_rounds: int | None = None
    target_score: int | None = None
    tiebreak_players: str = "tied_only"
    meld_type: str = "sets"
    episode: str = "round"
    reward: str = "points"
    max_turns_per_round: int = 1000

    def __post_init__(self) -> None:
        plain_fields(self)
        check_choice(GAME, "num_players", self.num_players, range(3, MAX_PLAYERS + 1))
        check_choice(GAME, "jokers", self.jokers, (0, 4))
        check_choice(GAME, "large_table", self.large_table, ("third_deck", "deal_13"))
        check_choice(GAME, "hand_size", self.hand_size, (12, 13, 15))
        check_choice(GAME, "min_naturals_per_group", self.min_naturals_per_group, (1, 2))
        for flag in ("must_discard_to_go_out", "forbid_rediscard_of_drawn_discard", "allow_buying"):
            check_choice(GAME, flag, getattr(self, flag), (True, False))
        check_choice(GAME, "tiebreak_players", self.tiebreak_players, ("tied_only",))
        check_choice(GAME, "meld_type", self.meld_type, ("sets",))
        check_choice(GAME, "episode", self.episode, ("round", "match"))
        check_choice(GAME, "reward", self.reward, ("points", "zero_sum", "win"))
        check_optional_int(GAME, "num_rounds", self.num_rounds, 1)
        check_optional_int(GAME, "target_score", self.target_score, 1)
        check_choice(GAME, "max_turns_per_round", self.max_turns_per_round, range(1, 10**9))

    @property
    def large(self) -> bool:
        return self.num_players >= 7

    @property
    def decks(self) -> int:
        return 3 if self.large and self.large_table == "third_deck" else 2

    @property
    def total_jokers(self) -> int:
        """Printed jokers in the shoe: a third deck brings two more (none without jokers)."""
        return self.jokers + 2 * (self.decks == 3 and self.jokers > 0)

    @property
    def deal_size(self) -> int:
        if self.large and self.large_table == "deal_13":
            return min(self.hand_size, 13)
        return self.hand_size

    @property
    def rounds(self) -> int:
        return self.num_players if self.num_rounds is None else self.num_rounds
