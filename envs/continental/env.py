"""Continental Rummy (``continental_v1``): sets-only rummy, go out all at once.

Rules (seed 004; spec ``shared/rules/continental.md``). 3–8 players, two decks and 4 jokers
(108 cards); 15 cards each. A turn: draw the top stock card or the top discard, then discard
one card — or go out: discard one card and lay every other card in groups of 3+ cards of one
rank (suits do not matter, duplicates are normal, jokers wild, each group with at least one
natural card, at least two groups). Runs never count. The player who goes out scores 0; every
other player is charged the whole hand (Ace 1, 2–9 face, 10/J/Q/K 10, Joker 15). When the
stock runs out the discard pile except its top card is shuffled into a new stock. A series is
one round per player; the lowest total wins, and a tie for lowest is settled by one more round
among the tied players only.

Flags (``taas.envs.make("continental_v1", **flags)``):

==================================  ============  ==========================================
flag                                default       alternatives
==================================  ============  ==========================================
num_players                         4             3..8
jokers                              4             0
large_table (7–8 players)           "third_deck"  "deal_13" (108 cards, 13 each)
hand_size                           15            13, 12
min_naturals_per_group              1             2
must_discard_to_go_out              True          False (also go out with all cards grouped)
forbid_rediscard_of_drawn_discard   True          False
allow_buying                        False         True (buy the top discard out of turn,
                                                  +2 penalty cards from the stock)
num_rounds                          None (=n)     any int >= 1 (e.g. 4)
target_score                        None          int: the series ends when a total reaches it
episode                             "round"       "match" (the whole series, tie-break included)
reward                              "points"      "zero_sum", "win"
max_turns_per_round                 1000          safety limit: the round ends truncated
==================================  ============  ==========================================

Where the seed is silent the engine decides as documented in :mod:`taas.envs.continental.rules`
(re-discarding a card taken from the pile is forbidden for either identical copy; buyers are
asked clockwise from the seat after the next player, only while the stock holds more than the
two penalty cards; tie-break penalties add to the totals and the tie-break winner wins).

Actions: ``Discrete(111)``, static ids (:mod:`taas.envs.continental.actions`): 0 draw, 1 take the
discard, 2–54 discard kind, 55–107 go out discarding kind, 108 go out with no discard, 109 buy,
110 pass. Card kinds are ``suit * 13 + rank`` (suits S H D C, rank A=0..K=12) and 52 = joker.

Observation: ``{"observation": float32[1045], "action_mask": int8[111]}``; the named blocks are
in :data:`taas.envs.continental.observation.LAYOUT`: own hand, top discard, discard pile, then one
block per seat (ego-centric, padded to 8; parts named by :data:`taas.envs.continental.rules.SEAT`:
the cards it discarded and took from the pile this round, hand size, series total, plays this
round, dealt), then phase, stock size, rounds left and the tie-break flag.

Rewards: ``"points"`` — minus the penalty charged, when a round ends; ``"zero_sum"`` — the
mean penalty of the round's players minus one's own; ``"win"`` — at the end +1 to the winner
(who went out, or the series winner), −1/(n−1) to everyone else. A truncated round scores
nothing. ``info`` carries the totals and, at the end, ``winner`` and ``rounds``: each round's
going-out groups, the losers' hands and penalties.

Illegal actions: the raw env raises ``ValueError`` naming the action, the player and the legal
actions; ``env()`` applies PettingZoo's convention (the episode ends, the offender gets -1).

Version History
- v0: initial release.
"""

from __future__ import annotations

from taas.envs.continental.config import Config
from taas.envs.continental.observation import ContinentalObserver
from taas.envs.continental.rules import ContinentalGame
from taas.envs.core.aec import env_factories

__all__ = ["Config", "env", "raw_env"]

raw_env, env = env_factories("continental", Config, ContinentalGame, ContinentalObserver)
