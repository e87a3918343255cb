"""Rommé (``romme_v0``): German Rummy with an opening meld, a shared table, laying off and
joker exchange.

Rules (seed 002 for the scoring; the game is rebuilt in ``shared/rules/romme.md``). 2–6
players, two packs and 6 jokers (110 cards), 13 cards each; the next card starts the discard
pile. A turn: draw the top stock card or the top discard, then lay melds, lay off and
exchange jokers as you may, then discard one card. Melds are runs (3+ cards of one suit in
sequence, ace below the 2 or above the king, no wrap-around) and sets (3–4 cards of one rank in
different suits); jokers stand for any card, never more jokers than natural cards in a meld.
A player's first melds (the opening) must be laid in one turn and be worth at least 40 (face
value, J/Q/K 10, ace 1 low / 11 high, a joker worth the card it stands for); after opening a
player may meld freely, lay off on any meld on the table and take a table joker by putting the
card it stands for in its place (the joker must go back on the table that turn). Whoever
empties the hand wins the round (0); everyone else is charged the cards left in hand (Joker 20,
Ace 11, J/Q/K 10, 2–10 face value); a player who never opened is charged that + 25, at most 100
and at most half the target; Hand-Rommé (opening and going out in one turn before anyone else
opened) charges every opponent 200. When the stock runs out the round is blocked: the lowest
hand wins. A match ends once a total reaches 100 per opponent; the lowest total wins (a tie for
lowest plays another round).

Flags (``taas.envs.make("romme_v0", **flags)``):

==================================  ========================  ==================================
flag                                default                   alternatives
==================================  ========================  ==================================
num_players                         4                         2..6
jokers                              6                         4, 0
hand_size                           13                        11, 14
first_player_extra_card             False                     True (first player gets 14 cards
                                                              and starts by melding/discarding)
opening_min                         40                        any int, e.g. 30, 51
allow_wraparound                    False                     True (K-A-2 runs)
joker_limit                         "not_more_than_naturals"  "any" (one natural suffices),
                                                              "one_per_meld"
jokers_may_touch                    True                      False (no two jokers side by side
                                                              in a run)
discard_draw_requires_opening       False                     True (before opening, take the
                                                              discard only to open with it)
lay_off_on_opening_turn             True                      False (lay-offs and exchanges
                                                              from the next turn)
exchanged_joker_must_be_used        True                      False
exchange_before_opening             False                     True
may_discard_joker                   True                      False
must_discard_to_go_out              False                     True
forbid_rediscard_of_drawn_discard   True                      False
on_stock_empty                      "block"                   "reshuffle" (pile but its top
                                                              card becomes the stock)
hand_rummy_scoring                  "flat"                    "double" (losers' charges x2)
hand_rummy_points                   200                       int
hand_rummy_ignores_opening_min      False                     True
never_opened_surcharge              25                        int
never_opened_cap                    100                       int (half the target always caps)
blocked_tie                         "all_win"                 "none_win"
target_per_opponent                 100                       int
episode                             "round"                   "match"
reward                              "points"                  "zero_sum", "win"
max_turns_per_round                 1000                      safety limit: the round ends
                                                              truncated (no scores)
==================================  ========================  ==================================

Engine decisions where the spec is silent are listed in :mod:`taas.envs.romme.rules`; the main ones:
a lay-off goes to the oldest table meld that takes the card (a run's high end first), an
exchange takes the joker of the oldest meld where a joker stands for the card; before opening,
meld shapes are offered only while an opening reaching ``opening_min`` is still possible, and
the melds laid towards it stay provisional (``abandon`` takes them back) until it is reached.

Actions: ``Discrete(798)``, static ids (:mod:`taas.envs.romme.actions`): 0 draw, 1 take the discard,
2 abandon the unfinished opening, 3–55 discard kind, 56–108 lay off kind (108 = a joker),
109–160 exchange: put natural kind in place of a table joker, 161–797 meld a shape from the
fixed catalogue (161–468 runs by suit, first position, length; 469–533 sets by rank and suit
subset; 534–797 wrap-around runs). A shape lists its exact cards; the hand supplies the
naturals it holds and a joker for each one it lacks. Card kinds are ``suit * 13 + rank``
(suits S H D C, rank A=0..K=12), 52 = joker.

Observation: ``{"observation": float32[2787], "action_mask": int8[798]}``; blocks in
:data:`taas.envs.romme.observation.LAYOUT`: own hand, top discard, discard pile, ``seats`` (per
seat, ego-centric and padded to 6, its public record as :data:`taas.envs.romme.rules.SEAT` names
it: cards discarded, cards taken from the pile, opened, hand size, total / 100, dealer), the
table (36 meld slots, :data:`taas.envs.romme.observation.ROW_LAYOUT`: cards by rank, joker
positions, suits, first rank, provisional flag, and the seat that laid it), the card taken from
the pile this turn, phase, stock size, the pending opening value, whether the mover opened this
turn, jokers still owed after an exchange, the target.

Rewards: ``"points"`` — minus the charge, when a round ends; ``"zero_sum"`` — the round's mean
charge minus one's own; ``"win"`` — at the end +1 shared by the winners (the player who went
out, the lowest hand of a blocked round, or the match winner), −1 shared by the others. A
truncated round scores nothing. ``info`` carries the totals and target and, at the end,
``winners`` and ``rounds``: per round the melds on the table and per player the hand left, its
value, whether they opened, the charge and why (hand value, surcharge and caps, Hand-Rommé,
blocked round).

Illegal actions: the raw env raises ``ValueError`` naming the action, the player and the legal
actions; ``env()`` applies PettingZoo's convention (the episode ends, the offender gets -1).

Version History
- v0: initial release.
"""

from __future__ import annotations

from taas.envs.core.aec import CardGameEnv, wrap
from taas.envs.core.config import build_config
from taas.envs.romme.config import Config
from taas.envs.romme.observation import RommeObserver
from taas.envs.romme.rules import RommeGame

__all__ = ["Config", "env", "raw_env"]


def raw_env(render_mode: str | None = None, **rules) -> CardGameEnv:
    """The AEC env; an illegal action raises ``ValueError``."""
    config = build_config(Config, "romme", rules)
    return CardGameEnv(RommeGame(config), RommeObserver(config), render_mode)


def env(render_mode: str | None = None, **rules) -> CardGameEnv:
    """The AEC env with PettingZoo's illegal-move convention (the episode ends, -1)."""
    return wrap(raw_env(render_mode, **rules))
