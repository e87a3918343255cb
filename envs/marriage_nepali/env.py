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
each holding with its maal items, the nets).

## Version History

- v0: initial release.
"""

from __future__ import annotations

from taas.envs.core.aec import env_factories
from taas.envs.marriage_nepali.config import GAME, Config
from taas.envs.marriage_nepali.observation import NepaliObserver
from taas.envs.marriage_nepali.rules import NepaliGame

__all__ = ["Config", "env", "raw_env"]

raw_env, env = env_factories(GAME, Config, NepaliGame, NepaliObserver)
