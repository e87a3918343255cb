"""Mariage (`mariage_v1`): the German two-player ancestor of Sixty-Six.

Rules in full, with worked examples: `docs/rules/mariage.md` in the repository.
32 cards, A 10 K Q J 9 8 7 per suit (card points
A 11, 10 10, K 4, Q 3, J 2; 120 in all). Six cards each; the 13th card, face up under the
19-card talon, is the trump indicator and the last card drawn. The non-dealer leads. While the
talon is open anything may be played; after each trick the winner draws, then the loser (who
gets the indicator on the last draw). Once the talon is exhausted or closed, the follower must
follow suit, else trump, else play anything. A trick goes to the higher card of the led suit or
to a trump. Before leading, the leader may exchange the trump 7 for the indicator, close the
talon (its cards leave play), and declare a K-Q marriage (20, trumps 40; open phase only) and
lead one of the pair; marriage points count once the declarer has won a trick. Either player
may claim 66 at any own turn, also right after declaring a marriage: a valid claim scores 1
game point (opponent 33-65), 2 (below 33) or 3 (no trick); a false one gives the opponent 2.
A closer who does not reach 66 gives the opponent 2 (3 if the opponent had no trick when the
talon was closed). A deal played out without close or claim goes to the higher score (tie:
the non-dealer), game points by the same table. A match goes to 7 game points; the deal
alternates.

## Flags

`mariage_v1` keyword arguments, all validated:

| flag | default | alternatives |
| --- | --- | --- |
| `exchange_requires_trick` | `False` | `True`: the Sixty-Six rule |
| `exchange_min_facedown` | `1` | `2`: no exchange before the last trick's draw |
| `marriages_in_closed_phase` | `False` | `True` |
| `must_head_trick` | `False` | `True`: win the trick when possible |
| `allow_false_claims` | `True` | `False`: claim masked unless the score is 66+ |
| `false_claim_points` | `2` | `1`, `3` |
| `closing_penalty` | `2` | `1`, `3` |
| `closing_penalty_no_trick` | `3` | `1`, `2` |
| `last_trick_bonus` | `False` | `True`: +10 for trick 16 (talon not closed) |
| `match_mode` | `"game_points"` | `"raw_points"` (deal scores summed), `"three_in_a_row"` |
| `match_target` | `None` | int; `None` = 7, 1000 or 3 by `match_mode` |
| `episode` | `"deal"` | `"match"` |
| `reward` | `"points"` | `"win"` |
| `max_turns` | `10000` | actions per episode before truncation |

(`"three_in_a_row"`: consecutive deals won.)

## Actions

`Discrete(39)`, `taas.envs.mariage.actions`: 0-31 `play c` (card id
`suit * 8 + r`, r = A 10 K Q J 9 8 7, suits S H D C), 32-35 `marry s` (declare; the next
action leads its K or Q, or claims), 36 `exchange`, 37 `close`, 38 `claim`.

## Observation

`Box(float32, 260)`, slices named in
`taas.envs.mariage.observation.LAYOUT`: own hand, face-up indicator, the card led in the
current trick, cards played by me and by the opponent, cards the opponent is known to hold,
the indicator put out of play by a close, trump suit, marriages declared by each, phase,
my turn, talon closed by me / by the opponent / exhausted, whether I dealt, whether the
non-closer had no trick at the close; then scalars, every one in [0, 1] (the declared bounds
are exactly `low` 0 and `high` 1): card points (/120), marriage points (/100) and score
(/230: 120 card points, 100 for all four marriages, the 10 of the last-trick bonus) of each,
tricks won (/16), talon size (/20), and the match standing, which has no bound in a long match
and is squashed: `tanh` of game points /7, raw points /1000 and deals won in a row /3.

## Rewards

`"points"` gives the deal's game points, + to the winner and - to the loser (in a
match, at the end of every deal); `"win"` gives +1/-1 for the deal (or, with
`episode="match"`, for the match). `info` carries the deal number, dealer, trump, the
deal's scores, game points and the config, current at every step; at the end `result`
(winner, game points, scores and the reason in words); matches add every deal's result.

## Version History

- v1: every observation feature lies in [0, 1] with exact declared bounds (`high` was 2 for
  the points block and 1e6 for the match block): marriage points are scaled by /100 and scores
  by /230 instead of /120, and the match standing is `tanh`-squashed (it was a plain ratio).
  Non-integer actions (`True`, `0.0`) and bad seeds raise `ValueError`; `info` is
  refreshed at every step (it was only set at reset and at the end).
- v0: first release.
"""

from __future__ import annotations

from taas.envs.core.aec import env_factories
from taas.envs.mariage.config import GAME, Config
from taas.envs.mariage.observation import MariageObserver
from taas.envs.mariage.rules import MariageGame

__all__ = ["Config", "env", "raw_env"]

raw_env, env = env_factories(GAME, Config, MariageGame, MariageObserver)
