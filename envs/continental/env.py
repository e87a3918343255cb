"""Continental Rummy (`continental_v1`): sets-only rummy, go out all at once.

Rules in full, with worked examples: `docs/rules/continental.md` in the repository.
3–8 players, two decks and 4 jokers
(108 cards); 15 cards each. A turn: draw the top stock card or the top discard, then discard
one card — or go out: discard one card and lay every other card in groups of 3+ cards of one
rank (suits do not matter, duplicates are normal, jokers wild, each group with at least one
natural card, at least two groups). Runs never count. The player who goes out scores 0; every
other player is charged the whole hand (Ace 1, 2–9 face, 10/J/Q/K 10, Joker 15). When the
stock is empty and the discard pile holds more than its top card, the pile except its top card
is shuffled into a new stock. A series is one round per player; the lowest total wins, and a
tie for lowest is settled by one more round among the tied players only.

## Flags

`taas.envs.make("continental_v1", **flags)`:

| flag | default | alternatives |
| --- | --- | --- |
| `num_players` | `4` | `3..8` |
| `jokers` | `4` | `0` |
| `large_table` (7–8 players) | `"third_deck"` | `"deal_13"` (108 cards, 13 each) |
| `hand_size` | `15` | `13`, `12` |
| `min_naturals_per_group` | `1` | `2` |
| `must_discard_to_go_out` | `True` | `False` (also go out with all cards grouped) |
| `forbid_rediscard_of_drawn_discard` | `True` | `False` |
| `allow_buying` | `False` | `True` (buy the top discard out of turn, see below) |
| `num_rounds` | `None` (=n) | any int >= 1 (e.g. 4) |
| `target_score` | `None` | int: the series ends when a total reaches it |
| `tiebreak_players` | `"tied_only"` | none (the rules table's only value) |
| `meld_type` | `"sets"` | none (see below) |
| `episode` | `"round"` | `"match"` (the whole series, tie-break included) |
| `reward` | `"points"` | `"zero_sum"`, `"win"` |
| `max_turns_per_round` | `1000` | safety limit: the round ends truncated |

A buyer (`allow_buying=True`) takes the top discard out of turn with +2 penalty cards from
the stock. `meld_type="sequences"`, classic Continental, is not implemented: a clear error.

Where the rules are silent the engine decides as documented in `taas.envs.continental.rules`
(re-discarding a card taken from the pile is forbidden for either identical copy, also as the
go-out discard, with no exception; the stock is rebuilt whenever it is empty and the pile holds
more than its top card; buyers are asked clockwise from the seat after the next player, only
while the stock holds more than the two penalty cards; tie-break penalties add to the totals
and the tie-break winner wins).

## Actions

`Discrete(111)`, static ids (`taas.envs.continental.actions`): 0 draw, 1 take the
discard, 2–54 discard kind, 55–107 go out discarding kind, 108 go out with no discard, 109 buy,
110 pass. Card kinds are `suit * 13 + rank` (suits S H D C, rank A=0..K=12) and 52 = joker.

## Observation

`{"observation": float32[1098], "action_mask": int8[111]}`, every feature in
[0, 1] (`low` 0, `high` 1). Blocks (`taas.envs.continental.observation.LAYOUT`), their
sizes and content / scales:

- `hand` (53): own cards, count per kind / copies of that kind in the shoe
- `top_discard` (53): one-hot of the top discard
- `discard_pile` (53): cards in the pile, count per kind / copies
- `first_up` (53): one-hot of the card the deal turned up (kept after reshuffles)
- `seats` (8x110): per seat, ego-centric (self, then clockwise), padded to 8; parts named
  by `taas.envs.continental.rules.SEAT`: cards it discarded (53)
  and took from the pile (53) this round, count / copies capped at 1
  (only reshuffles can push a count past the copies); hand size / the
  largest hand (deal + 1, or with buying the shoe minus one deal);
  series total as `tanh(total / 500)`; plays this round; dealt
- `phase` (3): one-hot: draw, discard, buy
- `stock_size` (1): / the largest stock (the shoe minus two deals)
- `rounds_left` (1): rounds still to play after this one in a match episode / rounds
- `tiebreak` (1): 1 in the tie-break round

## Rewards

`"points"` — minus the penalty charged, when a round ends; `"zero_sum"` — the
mean penalty of the round's players minus one's own; `"win"` — at the end +1 to the winner
(who went out, or the series winner), −1/(n−1) to everyone else. A truncated round scores
nothing. `info` (cheap, ~1 µs) carries the round number, the dealer and the totals and, at
the end, `winner` and `rounds`: each round's going-out groups, the losers' hands and
penalties.

Illegal actions: the raw env raises `ValueError` naming the action, the player and the legal
actions; `env()` applies PettingZoo's convention (the episode ends, the offender gets -1).

## Version History

- v1: (issue 9, issue 10)
    - rules: the stock is rebuilt whenever a player would have to draw from an empty stock
      and the pile holds more than its top card (after buys the pile could hold one card
      when the stock ran out, and the stock then stayed empty for the rest of the round);
    - config: `tiebreak_players="tied_only"` and `meld_type="sets"` are accepted (other
      values are a clear error);
    - observation: every feature in [0, 1] with exact `low`/`high` (counts per copy, sizes
      per maximum, totals `tanh(total / 500)`, rounds left per rounds; v0 had raw counts and
      totals, `high=max_turns_per_round` and `1e6`); a new `first_up` block keeps the
      deal's up-card after reshuffles (1045 -> 1098 features); it is encoded by one compiled
      function;
    - randomness: every shuffle comes from `(seed, shuffle count)` of the shared rummy table
      (`taas.envs.rummy.table`), so a seed deals differently than in v0; `clone()` copies
      arrays instead of deep-copying (~6 µs for 4 players, was ~250 µs);
    - the greedy agent takes the discard when the stock is empty instead of an illegal draw.
- v0: initial release.
"""

from __future__ import annotations

from taas.envs.continental.config import Config
from taas.envs.continental.observation import ContinentalObserver
from taas.envs.continental.rules import ContinentalGame
from taas.envs.core.aec import env_factories

__all__ = ["Config", "env", "raw_env"]

raw_env, env = env_factories("continental", Config, ContinentalGame, ContinentalObserver)
