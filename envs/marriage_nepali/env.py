"""`marriage_nepali_v0`: traditional Nepali Marriage (tiplu, maal, zero-sum settlement).

The game as Nepal plays it, specified in docs/rules/marriage-nepali.md: 3 decks, 21 cards
each, 2-5 players (6 with `max_players=6`), anticlockwise by default. Unseen players race
to show 3 pure 3-card combinations (or 7 dublees at 4+ players); the first shower draws the
hidden tiplu, which only seen players know; a seen player finishes with 4 more combinations
(wilds allowed) or an 8th dublee; every holding's maal is counted and the round settles
zero-sum, `Net_i = n·S_i − T − g_i`.

Agents `player_0..player_{n-1}`. Observation: `{"observation": Box(float32), "action_mask":
Box(int8)}`, blocks named in `taas.envs.marriage_nepali.observation.LAYOUT`. Actions:
a fixed `Discrete(319)`, see `taas.envs.marriage_nepali.actions`. Rules: every field of
`taas.envs.marriage_nepali.config.Config` (spec table 2N.10). Reward: the round's Net
× `stake` for every player when the round ends (zero-sum; void and truncated rounds pay 0).
`info`: every seat's seen flag and route; at the end `result` (the tiplu and its roles,
`tiplu_card` too when a Man was drawn under `man_tiplu="spades_ace"`, each holding with its
maal items, the nets).

## Sessions

`episode="match"` plays deal after deal in one episode, the deal passing one seat
in `direction` (the first dealer is random). Rewards per deal: each deal pays its Net × the
deal's stake to every player the moment it ends (zero-sum; `better=True` doubles the stake
in every second cycle of `num_players` deals; a void deal pays 0). Per session: the
episode's return is the running settlement, `info["totals"]`, the sum of the deals'
payments. The session ends after `num_rounds` deals (default one per player) or after the
deal in which a total reaches `target_score` (with `num_rounds` unset: only then); a deal
cut by `max_turns_per_round` ends the episode as truncated. `info` then also carries the
rummies' series fields: `round` (the deal in play), `dealer`, `totals`, `stake` (the
deal's, while one is in play), at the end `winner` (the one highest total, -1 on a tie),
`truncated` and `rounds`: each deal's `result` with its `dealer`, `stake`,
`money` (Net × stake) and `penalties` (minus `money`, the shape the rummies' series
table reads). The observation covers the deal in play only (no session totals).

## Version History

- v0: initial release. Later, within v0 (flag defaults, observation and actions unchanged;
  a seeded round that reaches an empty stock plays differently from before): the
  discard pile is recycled when a draw from the empty stock is made (2N.8; it was rebuilt the
  moment the stock emptied, so the card then on top was never recycled), and an empty stock
  is recycled for the tiplu; sessions (`episode="match"`, `num_rounds`,
  `target_score`, `better`, `foul_payee`) added, off by default; the spades-ace rule
  (`man_tiplu="spades_ace"`: a Man drawn as tiplu stays the tiplu card and A♠ plays as
  tiplu; three A♠ score 18, pagat 17, and a starting tunnela of them counts as three
  tiplus, both **ASSUMPTIONS**) added, off by default.
"""

from __future__ import annotations

from taas.envs.core.aec import env_factories
from taas.envs.marriage_nepali.config import GAME, Config
from taas.envs.marriage_nepali.observation import NepaliObserver
from taas.envs.marriage_nepali.rules import NepaliGame

__all__ = ["Config", "env", "raw_env"]

raw_env, env = env_factories(GAME, Config, NepaliGame, NepaliObserver)
