"""The contract between a game and everything above it (``taas.envs.core``): the engine's
game/state/observer roles, config validation, action ids, cards, the one AEC adapter and its
single-agent view, the conformance checker, the compile switch, the game spec and the human
table's view."""
