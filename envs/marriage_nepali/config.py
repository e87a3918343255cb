"""Traditional Nepali Marriage rule variants: one frozen, validated dataclass.

Every flag of the rules specification's table 2N.10 (summarised in the env's doc page
docs/rules/marriage-nepali.md) is a field with the spec's default, so a table that plays
differently is one keyword away and every disputed point is visible in one place.
"""

from __future__ import annotations

from dataclasses import dataclass

from taas.envs.core.cards import JOKER
from taas.envs.core.config import check_choice, check_optional_int, plain_fields

GAME = "marriage_nepali"
DECKS = 3
HAND_SIZE = 21


@dataclass(frozen=True)
class Config:
    """Every rule variant of traditional Nepali Marriage (spec 2N.10), defaults first.

    ``joker_dublee=True`` lets two printed jokers (Man) form a dublee (W; it matters only with
    ``printed_jokers=3``). ``foul_points=0`` is "off" (W's Dhoos penalty for discarding maal
    to a seen player);
    ``shown_marriage_values=None`` is "off", else the (one, two) values of a marriage shown
    as a primary combination (a string ``"15,35"`` from the command line is read too).

    ``man_tiplu``: a printed joker (Man) drawn as the tiplu is redrawn (``"redraw"``, PY) or,
    with ``"spades_ace"`` (Indian "paplu" sites, weak), stays the face-down tiplu card while
    the ace of spades takes the tiplu's role (poplu 2♠, jhiplu K♠, alter A♣, ordinary jokers
    A♥ A♦); it matters only with ``printed_jokers=3``. All three A♠ are then in play as
    tiplus. **ASSUMPTIONS** (the spec is silent): three tiplus are worth 18 (``"common"``,
    3/8/18) or 17 (``"pagat"``, 3/7/17), and three marriages 40, by the rule the tables
    already use past their last step (each more adds 10), which keeps a tiplu worth more than
    a poplu at every count; a starting tunnela of three A♠ earns no tunnela bonus and counts
    as three tiplus (its cards stay in the tiplu and marriage count): the tables have no
    tiplu-tunnela category, the poplu/jhiplu one (common table: 15) would make exposing it
    worth less than holding it (18), and a new bonus would be a second invented number.

    Sessions (``episode="match"``: many deals, the deal passing one seat in ``direction``):
    ``num_rounds`` deals (``None``: one per player, or no limit when ``target_score`` is set);
    ``target_score`` ends the session after the deal in which a running total reaches it (in
    the reward's unit, points × stake); ``better=True`` plays every second cycle of
    ``num_players`` deals at double stake (W's "Better"); ``foul_payee="next_winner"`` pays
    ``foul_points`` to the winner of the next deal won, cancelled if the offender wins it (W's
    Dhoos as written), ``"winner"`` to the winner of the deal of the foul.
    """

    num_players: int = 4
    printed_jokers: int = 0
    man_tiplu: str = "redraw"
    max_players: int = 5
    direction: str = "anticlockwise"
    unseen_discard_pickup: str = "any"
    seen_wild_pickup: bool = True
    dublee_discard_pickup: str = "winning_only"
    forbid_rediscard_of_drawn_discard: bool = True
    tunnela_bonus_scope: str = "initial"
    initial_tunnela_window: str = "before_first_draw"
    three_initial_tunnelas: str = "see"
    dublee_route: bool = True
    dublee_min_players: int = 4
    open_maal: bool = False
    ace_sequence: str = "both_ends"
    max_meld_size: int = 3
    finish_on_show_turn: bool = True
    dublee_finish_discard: bool = True
    joker_dublee: bool = False
    stock_exhausted: str = "reshuffle"
    unseen_maal: str = "murder"
    tunnel_pachaunu: bool = False
    maal_table: str = "common"
    shown_marriage_values: tuple[int, int] | None = None
    seen_payment: int = 3
    unseen_payment: int = 10
    dublee_seen_loser_payment: int = 0
    dublee_win_extra: int = 5
    foul_points: int = 0
    stake: int = 1
    episode: str = "round"
    num_rounds: int | None = None
    target_score: int | None = None
    better: bool = False
    foul_payee: str = "winner"
    max_turns_per_round: int = 2000

    def __post_init__(self) -> None:
        plain_fields(self)
        if isinstance(self.shown_marriage_values, (str, list)):
            object.__setattr__(self, "shown_marriage_values", _pair(self.shown_marriage_values))
        check_choice(GAME, "max_players", self.max_players, (5, 6))
        check_choice(GAME, "num_players", self.num_players, range(2, self.max_players + 1))
        check_choice(GAME, "printed_jokers", self.printed_jokers, (0, 3))
        check_choice(GAME, "man_tiplu", self.man_tiplu, ("redraw", "spades_ace"))
        check_choice(GAME, "direction", self.direction, ("anticlockwise", "clockwise"))
        check_choice(GAME, "unseen_discard_pickup", self.unseen_discard_pickup,
                     ("any", "never", "complete_pure"))
        check_choice(GAME, "dublee_discard_pickup", self.dublee_discard_pickup,
                     ("winning_only", "any", "never"))
        check_choice(GAME, "tunnela_bonus_scope", self.tunnela_bonus_scope,
                     ("initial", "shown", "hand", "off"))
        check_choice(GAME, "initial_tunnela_window", self.initial_tunnela_window,
                     ("before_first_draw", "own_first_turn"))
        check_choice(GAME, "three_initial_tunnelas", self.three_initial_tunnelas, ("see", "win"))
        check_choice(GAME, "dublee_min_players", self.dublee_min_players, (4, 2, 3))
        check_choice(GAME, "ace_sequence", self.ace_sequence, ("both_ends", "low_only"))
        check_choice(GAME, "max_meld_size", self.max_meld_size, (3, 4))
        check_choice(GAME, "stock_exhausted", self.stock_exhausted, ("reshuffle", "void"))
        check_choice(GAME, "unseen_maal", self.unseen_maal, ("murder", "kidnap", "count"))
        check_choice(GAME, "maal_table", self.maal_table, ("common", "pagat"))
        for flag in ("seen_wild_pickup", "forbid_rediscard_of_drawn_discard", "dublee_route",
                     "open_maal", "finish_on_show_turn", "dublee_finish_discard",
                     "joker_dublee", "tunnel_pachaunu", "better"):
            check_choice(GAME, flag, getattr(self, flag), (True, False))
        if self.shown_marriage_values is not None:
            _pair(self.shown_marriage_values)
        for name in ("seen_payment", "unseen_payment", "dublee_seen_loser_payment",
                     "dublee_win_extra", "foul_points"):
            check_choice(GAME, name, getattr(self, name), range(0, 10**4))
        check_choice(GAME, "stake", self.stake, range(1, 10**6))
        check_choice(GAME, "episode", self.episode, ("round", "match"))
        check_optional_int(GAME, "num_rounds", self.num_rounds, 1)
        check_optional_int(GAME, "target_score", self.target_score, 1)
        check_choice(GAME, "foul_payee", self.foul_payee, ("winner", "next_winner"))
        if self.episode == "round":
            for name, off in (("better", False), ("foul_payee", "winner")):
                if getattr(self, name) != off:
                    raise ValueError(f"{name}={getattr(self, name)!r} is a session rule of "
                                     f"{GAME}: it needs episode='match'")
        check_choice(GAME, "max_turns_per_round", self.max_turns_per_round, range(1, 10**6))

    @property
    def dublee_allowed(self) -> bool:
        """Whether the dublee route is open at this table size (spec 2N.4)."""
        return self.dublee_route and self.num_players >= self.dublee_min_players

    @property
    def rounds(self) -> int | None:
        """Deals in a session: ``num_rounds``, else one per player, or no limit (None) when
        only ``target_score`` ends it."""
        if self.num_rounds is not None:
            return self.num_rounds
        return None if self.target_score is not None else self.num_players

    @property
    def dublee_kinds(self) -> int:
        """Card kinds ``0..dublee_kinds - 1`` can pair into a dublee: the ranked cards, and
        the printed joker with ``joker_dublee`` (kinds put printed jokers last)."""
        return JOKER + self.joker_dublee


def _pair(value) -> tuple[int, int]:
    """``(15, 35)`` from a tuple, a list or the command line's ``"15,35"``."""
    parts = value.split(",") if isinstance(value, str) else list(value)
    try:
        pair = tuple(int(p) for p in parts)
    except (TypeError, ValueError):
        pair = ()
    if len(pair) != 2 or min(pair) < 0:
        raise ValueError(
            f"shown_marriage_values={value!r} is not a valid {GAME} rule; expected None or two "
            "whole numbers such as (15, 35)"
        )
    return pair
