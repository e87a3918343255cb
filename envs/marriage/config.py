"""Marriage (Nepal) rule variants: one frozen, validated dataclass.

Rules: docs/rules/marriage.md.
"""

from __future__ import annotations

from dataclasses import dataclass

from taas.envs.core.config import check_choice, check_optional_int, plain_fields

GAME = "marriage"
MAX_PLAYERS = 6


@dataclass(frozen=True)
class Config:
    """Every rule variant of Marriage; defaults are the rules of docs/rules/marriage.md.

    ``None`` means "derived": ``printed_jokers`` = ``decks``, ``hand_size`` = 21 with 3 decks and
    13 with 2, ``num_rounds`` = 2 × players. ``episode="match"`` plays the whole session (with
    tie-break rounds) as one episode; ``settle_each_round`` then pays each round's reward when
    the round ends instead of once at the end of the session.
    """

    num_players: int = 4
    allow_two_players: bool = False
    decks: int = 3
    printed_jokers: int | None = None
    hand_size: int | None = None
    wild_scope: str = "rank"
    printed_joker_indicator: str = "redraw"
    allow_wraparound: bool = False
    wild_in_natural_place_is_pure: bool = False
    tunnela_counts_as_life: bool = False
    allow_all_wild_melds: bool = False
    max_group_size: int | None = None
    lives_required: int = 1
    dublee_swap: bool = True
    show_requires_discard: bool = True
    invalid_show: str = "forbid"
    invalid_show_penalty: int = 100
    ace_penalty: int = 10
    joker_penalty: int = 20
    tunnela_bonus: int = 0
    num_rounds: int | None = None
    target_score: int | None = None
    tiebreak_players: str = "all"
    settle_each_round: bool = False
    forbid_rediscard_of_drawn_discard: bool = True
    deadlock: str = "void"
    ruleset: str = "seed"
    episode: str = "round"
    reward: str = "points"
    max_turns_per_round: int = 1000

    def __post_init__(self) -> None:
        plain_fields(self)
        check_choice(GAME, "allow_two_players", self.allow_two_players, (True, False))
        low = 2 if self.allow_two_players else 3
        check_choice(GAME, "decks", self.decks, (2, 3))
        high = 4 if self.decks == 2 else MAX_PLAYERS
        if self.decks == 2 and type(self.num_players) is int and self.num_players > high:
            raise ValueError(
                f"num_players={self.num_players!r} is not a valid {GAME} rule with decks=2; "
                f"expected one of {low}..{high} (the 2-deck game is for 3-4 players)"
            )
        check_choice(GAME, "num_players", self.num_players, range(low, high + 1))
        if self.printed_jokers is not None:
            check_choice(GAME, "printed_jokers", self.printed_jokers, (0, self.decks))
        if self.hand_size is not None:
            check_choice(GAME, "hand_size", self.hand_size, (21,) if self.decks == 3 else (13, 16))
        check_choice(GAME, "wild_scope", self.wild_scope, ("rank", "rank_and_suit"))
        check_choice(
            GAME,
            "printed_joker_indicator",
            self.printed_joker_indicator,
            ("redraw", "aces_wild", "printed_only"),
        )
        for flag in (
            "allow_wraparound",
            "wild_in_natural_place_is_pure",
            "tunnela_counts_as_life",
            "allow_all_wild_melds",
            "dublee_swap",
            "show_requires_discard",
            "settle_each_round",
            "forbid_rediscard_of_drawn_discard",
        ):
            check_choice(GAME, flag, getattr(self, flag), (True, False))
        check_optional_int(GAME, "max_group_size", self.max_group_size, 3)
        check_choice(GAME, "lives_required", self.lives_required, (1, 2))
        check_choice(GAME, "invalid_show", self.invalid_show, ("forbid", "penalize"))
        check_choice(GAME, "invalid_show_penalty", self.invalid_show_penalty, range(0, 10**6))
        check_choice(GAME, "ace_penalty", self.ace_penalty, (10, 1))
        check_choice(GAME, "joker_penalty", self.joker_penalty, range(0, 10**4))
        check_choice(GAME, "tunnela_bonus", self.tunnela_bonus, range(0, 10**4))
        check_optional_int(GAME, "num_rounds", self.num_rounds, 1)
        check_optional_int(GAME, "target_score", self.target_score, 1)
        check_choice(GAME, "tiebreak_players", self.tiebreak_players, ("all", "tied_only"))
        check_choice(GAME, "deadlock", self.deadlock, ("void",))
        # "nepali_traditional" (the game with tiplu and maal points) is not implemented yet.
        check_choice(GAME, "ruleset", self.ruleset, ("seed",))
        check_choice(GAME, "episode", self.episode, ("round", "match"))
        check_choice(GAME, "reward", self.reward, ("points", "zero_sum", "win"))
        check_choice(GAME, "max_turns_per_round", self.max_turns_per_round, range(1, 10**6))

    @property
    def jokers(self) -> int:
        """Printed jokers in the shoe."""
        return self.decks if self.printed_jokers is None else self.printed_jokers

    @property
    def deal_size(self) -> int:
        """Cards per hand between turns (one more after the draw)."""
        if self.hand_size is not None:
            return self.hand_size
        return 21 if self.decks == 3 else 13

    @property
    def rounds(self) -> int:
        """Regular rounds in a session (tie-break rounds come on top)."""
        return 2 * self.num_players if self.num_rounds is None else self.num_rounds
