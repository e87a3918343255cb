"""High Card (``highcard_v0``): a toy two-player game that exists to prove that a game plugs
into Taas from its own folder (see ``tests/toy/test_toy_game.py``)."""

from highcard.config import GAME, Config
from highcard.observation import HighCardObserver
from highcard.rules import HighCardGame
from taas.envs.core.aec import env_factories

__all__ = ["Config", "env", "raw_env"]

raw_env, env = env_factories(GAME, Config, HighCardGame, HighCardObserver)
