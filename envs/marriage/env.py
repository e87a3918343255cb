"""Marriage (`marriage_v1`): Nepal's three-deck rummy with a wild rank, dublees and tunnelas.

Rules in full, with worked examples: `docs/rules/marriage.md` in the repository.
3–6 players, three decks and three
printed jokers (159 cards); 21 cards each. The top stock card is turned as the indicator (out
of play): every card of the next rank up (2 < … < K < A < 2) is wild this round, in all suits,
as are the printed jokers. A turn: draw the top stock card or the top discard, then one of

- discard one card;
- show: discard one card and lay the other 21 in melds — sequences (3+ consecutive cards of one
  suit, ace low or high, no wrap) and groups (3+ cards of one rank, duplicates allowed; three
  identical cards are a tunnela), wilds filling gaps, every meld with a card not acting as a
  wild, and at least one *life* (a sequence with no wild card, not even one in its own place);
- dublee swap: set two identical non-wild cards aside face up and take the first wild card found
  searching the stock from the top (the top card if there is none) instead of discarding.

A valid show ends the round: the shower scores 0, every other player the minimum deadwood over
arrangements that hold the required lives (the whole hand without them): 2–10 face value,
J Q K 10, ace 10, any unmelded wild card 20. When the stock runs out the discard pile except
its top card is shuffled into a new stock; if nothing can be drawn any more the round is void
and charges no one. A card just taken from the discard pile is not discarded again that turn,
not even as a show's discard (a dublee swap may set it aside).
A session is 2 × players rounds; the lowest total wins, ties go to an extra round.

## Flags

`taas.envs.make("marriage_v1", **flags)`:

| flag | default | alternatives |
| --- | --- | --- |
| `num_players` | `4` | `3..6` (`3..4` with `decks=2`) |
| `allow_two_players` | `False` | `True` (2 players, outside the rules) |
| `decks` | `3` | `2` (106 cards) |
| `printed_jokers` | `None` (=decks) | `0` |
| `hand_size` | `None` | `21` (3 decks); `13` (default), `16` (2 decks) |
| `wild_scope` | `"rank"` | `"rank_and_suit"` (next rank, same suit only) |
| `printed_joker_indicator` | `"redraw"` | `"aces_wild"`, `"printed_only"` |
| `allow_wraparound` | `False` | `True` (see below) |
| `wild_in_natural_place_is_pure` | `False` | `True` (7H 8H 9H with 8s wild is a life) |
| `tunnela_counts_as_life` | `False` | `True` |
| `allow_all_wild_melds` | `False` | `True` (Jk Jk Jk is a meld) |
| `max_group_size` | `None` | int >= 3 |
| `lives_required` | `1` | `2` |
| `dublee_swap` | `True` | `False` (the no-dublee variant) |
| `show_requires_discard` | `True` | `False` (all 22 cards melded, no discard) |
| `invalid_show` | `"forbid"` | `"penalize"` (see below) |
| `invalid_show_penalty` | `100` | int >= 0 |
| `ace_penalty` | `10` | `1` |
| `joker_penalty` | `20` | int >= 0 (any unmelded wild card) |
| `tunnela_bonus` | `0` | int (see below) |
| `num_rounds` | `None` (=2n) | int >= 1 |
| `target_score` | `None` | int: the session ends after the round in which a total reaches it |
| `tiebreak_players` | `"all"` | `"tied_only"` |
| `settle_each_round` | `False` | `True` (match rewards paid every round) |
| `forbid_rediscard_of_drawn_discard` | `True` | `False` |
| `deadlock` | `"void"` | — |
| `ruleset` | `"seed"` | — (`"nepali_traditional"` not implemented) |
| `episode` | `"round"` | `"match"` (the whole session, tie-breaks too) |
| `reward` | `"points"` | `"zero_sum"`, `"win"` |
| `max_turns_per_round` | `1000` | safety limit: the episode ends truncated |

- `allow_wraparound=True`: K-A-2 and Q-K-A-2-3 are sequences, at most 13 cards; the exact
  solver is slower with it (the docs' speed page gives the cost).
- `invalid_show="penalize"`: a show is always offered; a false show costs max(penalty, hand
  value) and puts the player out of the round.
- `tunnela_bonus`: minus this per tunnela a loser can keep as a meld of its own.

Where the rules leave room the engine decides as documented in `taas.envs.marriage.rules`
(a redrawn joker indicator goes back below the top card; an invalid show still discards,
reveals the rest and charges max(invalid_show_penalty, their value) unless the round ends
void; void rounds count as played; with a `tunnela_bonus` a loser pays the least over every
arrangement holding the lives, the bonus included, so a tunnela is kept apart from a bigger
group when that pays; tie-break penalties add to the totals).

## Actions

`Discrete(162)`, static ids (`taas.envs.marriage.actions`): 0 draw from the stock,
1 take the top discard, 2–54 discard kind, 55–107 show discarding kind, 108 show without a
discard (`show_requires_discard=False`), 109–161 dublee swap of kind. Card kinds are
`suit * 13 + rank` (suits S H D C, rank A=0..K=12) and 52 = printed joker. Under
`invalid_show="forbid"` a show is in the mask only when it is valid.

## Observation

`{"observation": float32[1635], "action_mask": int8[162]}`; the named blocks
are in `taas.envs.marriage.observation.LAYOUT`, seats ego-centric (self first, then
clockwise) and padded to 6. Every feature lies in [0, 1], the totals in [-1, 1]; the space's
`low`/`high` say exactly that. Blocks, their sizes and values:

- `hand` (53): count per kind / decks
- `wild` (53): 1 for each wild kind this round
- `wild_rank` (14): one-hot rank A..K; last slot: no wild rank
- `indicator` (53): one-hot
- `first_up` (53): one-hot: the card turned to start the discard pile
- `top_discard` (53): one-hot
- `discard_pile` (53): count per kind now in the pile / decks
- `discarded_by` (6 x 53): per seat, tanh(count / decks): a card may come back through a
  reshuffle and be discarded again
- `taken_by` (6 x 53): per seat, tanh(count / decks), pick-ups from the pile
- `set_aside` (6 x 53): per seat, dublees set aside, count / decks
- `revealed` (6 x 53): per seat, a hand shown by an invalid show, count / decks
- `hand_sizes` (6): cards held / (hand_size + 1)
- `totals` (6): tanh(session total / 500) (`TOTAL_SCALE`)
- `active` (6): 1: the seat plays this round
- `dealer` (6): one-hot
- `phase` (2): one-hot: draw, discard
- `stock_size` (1): cards in the stock / cards in the shoe
- `jokers_redrawn` (1): tanh(printed jokers turned as indicator, put back)
- `turn` (1): turns this round / max_turns_per_round
- `rounds_left` (1): regular rounds left after this one / num_rounds
- `tiebreak` (1): 1 in a tie-break round

## Rewards

`"points"` — minus the round penalty; `"zero_sum"` — the mean penalty over all
seats minus one's own (a seat sitting out a tie-break pays 0 in it); `"win"` — +1 to the
winner (the shower, or the session winner), −1/(n−1) to everyone else. In a round episode the
reward comes when the round ends; in a match episode once at the end (sums of the round
penalties, or the session winner), or every round with `settle_each_round=True` (for
`"win"` then +1 per round won). Void and truncated rounds score nothing;
`settle_each_round` changes only when `"points"` and `"zero_sum"` are paid, never the
totals or the sum paid. `info` carries at every step the current `round`, the `dealer`
and the session `totals`; at the end also `winner` and `rounds`: for each round the
indicator, wild rank, penalties, and every player's hand, best arrangement (melds, which
count as the required lives, which cards act as wilds), deadwood and penalty, so the scoring
can be checked by hand.
`taas.envs.marriage.scoring.score_hand` scores any hand the same way.

Illegal actions: the raw env raises `ValueError` naming the action, the player and the legal
actions; `env()` applies PettingZoo's convention (the episode ends, the offender gets -1).

## Version History

- v1: rules, rewards and observation fixed against the rules.
  Rules: the card just taken from the discard pile may not be discarded by a show either
  (the re-discard ban as written; v0 let a show discard it). A loser with `tunnela_bonus`
  pays the least
  over every arrangement, the bonus included (v0 took the minimum-deadwood arrangement, which
  could hide a tunnela in a group of six). A void round charges no one, also after an invalid
  show under `invalid_show="penalize"` (v0 charged the invalid show unless
  `settle_each_round`). In a match, a seat put out by an invalid show is dealt in again the
  next round (v0 dealt it no cards, and it played on with an empty hand).
  Rewards: `"zero_sum"` settled each round takes the mean over all seats, so it pays in
  total what the session's end pays (v0 differed after `"tied_only"` tie-breaks).
  Observation: a `first_up` block keeps the round's first up-card public after a reshuffle;
  every feature scaled into [0, 1] (totals [-1, 1]) as in the list above, with exact
  `low`/`high` (v0: raw counts, totals / 100, bounds up to 1e6); 1635 features (v0 1582).
  Fixes without a rule change: `render()` after a dublee swap (it raised `TypeError`); a
  `"tied_only"` tie-break no longer holds one list as both `active` and `tied`;
  `clone()` copies no generator (about 10x faster).
  Engine: stock, discard pile, pick-up/discard records and reshuffles are the shared rummy
  `Table` (`state.table`), every shuffle drawn from `(seed, shuffles)`, so seeded
  trajectories differ from the first v1 build (same rules, other deals).
- v0: initial release. Later fixes within v0: `allow_wraparound=True` works (it raised
  NotImplementedError); with `max_group_size` set, a lone card with two wilds may form a
  run (J-Q-K from a J) rather than only a capped group, so some hands that were wrongly refused
  a show or scored too high are now right.
"""

from __future__ import annotations

from taas.envs.core.aec import env_factories
from taas.envs.marriage.config import GAME, Config
from taas.envs.marriage.observation import MarriageObserver
from taas.envs.marriage.rules import MarriageGame

__all__ = ["Config", "env", "raw_env"]

raw_env, env = env_factories(GAME, Config, MarriageGame, MarriageObserver)
