"""Rommé (German Rummy) rule variants: one frozen, validated dataclass.

Rules: docs/rules/romme.md (every flag, and the decisions taken where the sources are silent).
"""

from __future__ import annotations

from dataclasses import dataclass

from taas.envs.core.config import check_choice, plain_fields
from taas.envs.rummy.melds import MeldRules, card_values, wild_mask

GAME = "romme"
MAX_PLAYERS = 6
HAND_VALUES = card_values(ace=11)
"""What each kind costs left in hand (Joker 20, Ace 11 always, J/Q/K 10, 2-10 face value): the
one table behind hand scoring (:func:`taas.envs.romme.rules.hand_value`) and the meld maths."""
BOOLS = (True, False)


@dataclass(frozen=True)
class Config:
    """Every rule variant of Rommé; defaults are German Rommé's scoring (docs/rules/romme.md) on
    German tournament-style play (110 cards, 13 each, opening >= 40).

    ``target_per_opponent`` sets the match target (100 per opponent); ``never_opened_cap`` is
    the flat cap, the other cap (half the target) always applies as the scoring rules say.
    ``rediscard_ban_lapses=True`` lets the card just taken from the pile be discarded when
    nothing else is left to discard (romme_v0's behaviour); by default it never is.
    ``episode="match"`` plays rounds until the target is reached with a single lowest total.
    """

    num_players: int = 4
    jokers: int = 6
    hand_size: int = 13
    first_player_extra_card: bool = False
    opening_min: int = 40
    allow_wraparound: bool = False
    joker_limit: str = "not_more_than_naturals"
    jokers_may_touch: bool = True
    discard_draw_requires_opening: bool = False
    lay_off_on_opening_turn: bool = True
    exchanged_joker_must_be_used: bool = True
    exchange_before_opening: bool = False
    may_discard_joker: bool = True
    must_discard_to_go_out: bool = False
    forbid_rediscard_of_drawn_discard: bool = True
    rediscard_ban_lapses: bool = False
    on_stock_empty: str = "block"
    hand_rummy_scoring: str = "flat"
    hand_rummy_points: int = 200
    hand_rummy_ignores_opening_min: bool = False
    never_opened_surcharge: int = 25
    never_opened_cap: int = 100
    blocked_tie: str = "all_win"
    target_per_opponent: int = 100
    episode: str = "round"
    reward: str = "points"
    max_turns_per_round: int = 1000
    max_abandons_per_turn: int = 100

    def __post_init__(self) -> None:
        plain_fields(self)
        check_choice(GAME, "num_players", self.num_players, range(2, MAX_PLAYERS + 1))
        check_choice(GAME, "jokers", self.jokers, (6, 4, 0))
        check_choice(GAME, "hand_size", self.hand_size, (13, 11, 14))
        check_choice(GAME, "opening_min", self.opening_min, range(0, 1000))
        check_choice(
            GAME, "joker_limit", self.joker_limit, ("not_more_than_naturals", "any", "one_per_meld")
        )
        for flag in (
            "first_player_extra_card",
            "allow_wraparound",
            "jokers_may_touch",
            "discard_draw_requires_opening",
            "lay_off_on_opening_turn",
            "exchanged_joker_must_be_used",
            "exchange_before_opening",
            "may_discard_joker",
            "must_discard_to_go_out",
            "forbid_rediscard_of_drawn_discard",
            "rediscard_ban_lapses",
            "hand_rummy_ignores_opening_min",
        ):
            check_choice(GAME, flag, getattr(self, flag), BOOLS)
        check_choice(GAME, "on_stock_empty", self.on_stock_empty, ("block", "reshuffle"))
        check_choice(GAME, "hand_rummy_scoring", self.hand_rummy_scoring, ("flat", "double"))
        for name in ("hand_rummy_points", "never_opened_surcharge", "never_opened_cap"):
            check_choice(GAME, name, getattr(self, name), range(0, 10**6))
        check_choice(GAME, "target_per_opponent", self.target_per_opponent, range(1, 10**6))
        check_choice(GAME, "blocked_tie", self.blocked_tie, ("all_win", "none_win"))
        check_choice(GAME, "episode", self.episode, ("round", "match"))
        check_choice(GAME, "reward", self.reward, ("points", "zero_sum", "win"))
        check_choice(GAME, "max_turns_per_round", self.max_turns_per_round, range(1, 10**9))
        check_choice(GAME, "max_abandons_per_turn", self.max_abandons_per_turn, range(0, 10**9))

    @property
    def target(self) -> int:
        """Match target: 100 per opponent (2p 100 .. 6p 500)."""
        return self.target_per_opponent * (self.num_players - 1)

    def meld_rules(self) -> MeldRules:
        """The variant's melds for the shared meld maths (:mod:`taas.envs.rummy.opening`):
        runs, sets of 3-4 distinct suits, printed jokers as the only wilds and every meld with a
        natural card; unmelded cards at their hand values (ace 11, joker 20)."""
        return MeldRules(
            wild=wild_mask(),
            values=HAND_VALUES,
            group_mode="distinct",
            allow_wraparound=self.allow_wraparound,
            wild_limit="none" if self.joker_limit == "any" else self.joker_limit,
            wilds_may_touch=self.jokers_may_touch,
        )
