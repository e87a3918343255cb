"""Rommé (`romme_v1`): German Rummy with an opening meld, a shared table, laying off and
joker exchange.

Rules (in full, with worked examples: `docs/rules/romme.md` in the repository). 2–6
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

## Flags

`taas.envs.make("romme_v1", **flags)`:

| flag | default | alternatives |
| --- | --- | --- |
| `num_players` | `4` | `2..6` |
| `jokers` | `6` | `4`, `0` |
| `hand_size` | `13` | `11`, `14` |
| `first_player_extra_card` | `False` | `True` (see below) |
| `opening_min` | `40` | any int, e.g. `30`, `51` |
| `allow_wraparound` | `False` | `True` (K-A-2 runs) |
| `joker_limit` | `"not_more_than_naturals"` | `"any"` (one natural suffices), `"one_per_meld"` |
| `jokers_may_touch` | `True` | `False` (no two jokers side by side in a run) |
| `discard_draw_requires_opening` | `False` | `True` (see below) |
| `lay_off_on_opening_turn` | `True` | `False` (lay-offs and exchanges from the next turn) |
| `exchanged_joker_must_be_used` | `True` | `False` |
| `exchange_before_opening` | `False` | `True` |
| `may_discard_joker` | `True` | `False` |
| `must_discard_to_go_out` | `False` | `True` |
| `forbid_rediscard_of_drawn_discard` | `True` | `False` |
| `rediscard_ban_lapses` | `False` | `True` (see below) |
| `on_stock_empty` | `"block"` | `"reshuffle"` (pile but its top card becomes the stock) |
| `hand_rummy_scoring` | `"flat"` | `"double"` (losers' charges x2) |
| `hand_rummy_points` | `200` | int |
| `hand_rummy_ignores_opening_min` | `False` | `True` |
| `never_opened_surcharge` | `25` | int |
| `never_opened_cap` | `100` | int (half the target always caps) |
| `blocked_tie` | `"all_win"` | `"none_win"` |
| `target_per_opponent` | `100` | int |
| `episode` | `"round"` | `"match"` |
| `reward` | `"points"` | `"zero_sum"`, `"win"` |
| `max_turns_per_round` | `1000` | safety limit: the round ends truncated (no scores) |
| `max_abandons_per_turn` | `100` | safety limit (see below) |

- `first_player_extra_card=True`: the first player gets 14 cards and starts by
  melding/discarding.
- `discard_draw_requires_opening=True`: before opening, take the discard only to open with it.
- `rediscard_ban_lapses=True`: the card just taken may be discarded when nothing else is
  left, as in v0.
- `max_abandons_per_turn`: one more `abandon` in a turn truncates the round.

Engine decisions where the rules are silent are listed in `taas.envs.romme.rules`; the main
ones: before opening, meld shapes are offered only while an opening reaching `opening_min` is
still possible, and the melds laid towards it stay provisional (`abandon` takes them back)
until it is reached; an action is offered only if the turn can still end by the rules after it
(an exchanged joker still placeable, a card other than the one just taken left to discard).

## Actions

`Discrete(1629)`, static ids (`taas.envs.romme.actions`): 0 draw, 1 take the
discard, 2 abandon the unfinished opening, 3–55 discard kind, 56–379 lay off on table slot
`(id - 56) // 9` (slot i = the i-th meld laid this round, at most 36), index `(id - 56) % 9`:
a natural at a run's low/high end (0/1), a set's missing suit S/H/D/C (2–5), a joker at a run's
low/high end (6/7) or in a set (8); 380–991 exchange on slot `(id - 380) // 17`: index 0–12
the run's joker standing for rank A..K, 13–16 a set's joker replaced by suit S/H/D/C;
992–1628 meld a shape from the fixed catalogue (992–1299 runs by suit, first position, length;
1300–1364 sets by rank and suit subset; 1365–1628 wrap-around runs). A shape lists its exact
cards; the hand supplies the naturals it holds and a joker for each one it lacks. Card kinds
are `suit * 13 + rank` (suits S H D C, rank A=0..K=12), 52 = joker.

## Observation

`{"observation": float32[2840], "action_mask": int8[1629]}`, every feature in
[0, 1]; blocks in `taas.envs.romme.observation.LAYOUT` and their scales:

- `hand`: count per kind / copies in the shoe (2; jokers / 6)
- `top_discard`: one-hot
- `discard_pile`: count per kind / copies (2; jokers / 6)
- `up_card`: one-hot: the card turned up at the deal (kept after a reshuffle)
- `seats`: per seat (ego-centric, padded to 6; `taas.envs.romme.rules.SEAT`):
  cards discarded and taken from the pile this round (count / copies,
  saturating at 1 after reshuffles), opened 0/1, hand size / 15,
  `tanh(total / 500)`, dealer 0/1
- `table`: 36 meld slots (`taas.envs.romme.observation.ROW_LAYOUT`): flags,
  suits, natural ranks 0/1, joker ranks 0/1 (a set's jokers / 3), first
  rank one-hot, ace high, owner one-hot
- `taken_now`: one-hot: the card taken from the pile this turn
- `phase`: one-hot: draw, play
- `stock_size`: / 110
- `pending_value`: the unfinished opening's value / `opening_min`, at most 1
- `opened_now`: 0/1
- `owed_jokers`: exchanged jokers still to place / 6
- `target`: `tanh(target / 500)`

## Rewards

`"points"` — minus the charge, when a round ends; `"zero_sum"` — the round's mean
charge minus one's own; `"win"` — at the end +1 shared by the winners (the player who went
out, the lowest hand of a blocked round, or the match winner), −1 shared by the others. A
truncated round scores nothing. `info` carries the totals and target and, at the end,
`winners` and `rounds`: per round the melds on the table and per player the hand left, its
value, whether they opened, the charge and why (hand value, surcharge and caps, Hand-Rommé,
blocked round).

Illegal actions: the raw env raises `ValueError` naming the action, the player and the legal
actions; `env()` applies PettingZoo's convention (the episode ends, the offender gets -1).

## Version History

- v1, amended: `max_abandons_per_turn` (default 100) truncates a round in which one turn
  takes an opening back more than 100 times. Before, `meld` then `abandon` could repeat
  without end in one turn (`max_turns_per_round` counts turns), so an episode that did that
  never ended; every episode that ended before plays exactly as it did.
- v1: a lay-off names the table slot and the run end (or the set's suit) and an exchange the
  slot and the joker, so the player chooses where a card goes (v0 took the oldest meld and a
  run's high end); an exchanged joker must go back on the table that turn and no action
  leaves it stranded (v0 let the duty lapse); the card just taken from the pile is never
  discarded again that turn, also not to go out (v0 let the ban lapse when nothing else was
  left; flag `rediscard_ban_lapses`); the observation gains the up-card block and every
  feature is scaled into [0, 1] (`high` was up to 1e6); shuffles draw from the state's seed
  and a shuffle counter, so deals differ from v0 for the same seed; `Discrete(798)` became
  `Discrete(1629)`. Stock, discard pile, the seats' pile records (raw counts in the state,
  scaled per copy in the observation) and the shuffles are the shared rummy table's
  (`taas.envs.rummy.table`); seeded episodes differ from pre-release `romme_v1` builds.
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
