"""Search players (``taas.agents.search``): determinized ISMCTS, the paired improvement search
on a game's heuristic, and the cheating oracle (:mod:`taas.agents.search.ismcts`). They know no
card game: what is hidden and how to play on comes from the game's determinizer."""


def __getattr__(attr: str):
    """Names of the pre-0.2 module
    ``taas.agents.search``, now in ``taas.agents.search.ismcts`` (with a warning)."""
    from taas._moved import forward

    return forward(__name__, "taas.agents.search.ismcts", attr)
