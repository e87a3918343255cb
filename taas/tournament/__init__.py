"""Agent-vs-agent tournaments (``taas.tournament``): duplicate round robin, crash-safe SQLite
results, ratings.

``define(...)`` checks a tournament's definition, ``run(definition, out)`` plays it (locally or
on Ray) into ``out/tournament.sqlite``, ``standings(definition, games)`` rates it and
``write_report`` writes the leaderboard, CSV, Markdown report and plots. ``taas tournament`` is
the command line for all of it; docs/tournaments.md explains the design.
"""

from taas.tournament.roundrobin import Definition, Game, define, schedule
from taas.tournament.runner import run
from taas.tournament.store import read_definition, read_games

__all__ = ["Definition", "Game", "define", "read_definition", "read_games", "run", "schedule"]
