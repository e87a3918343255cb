"""Rule-based players (``taas.agents.heuristic``), one module per game; each game's spec names
the ones it offers. They read only their seat's observation, through the game's ``LAYOUT``."""
