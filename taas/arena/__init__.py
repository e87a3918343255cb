"""The arena (``taas.arena``): where players meet a table. The game loop
(:func:`play_game`), game records and replays (:mod:`taas.arena.replay`), duplicate-deal
evaluation (:mod:`taas.arena.evaluate`) and the single-agent training view
(:func:`single_agent_env`). It sits above the players (``taas.agents``) and the games
(``taas.envs``) and below what people run (CLI, tables, tournaments, training).
"""

from __future__ import annotations

from taas.arena.loop import GameResult, play_game
from taas.arena.single_agent import single_agent_env

__all__ = ["GameResult", "play_game", "single_agent_env"]
