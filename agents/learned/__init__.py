"""Learned players (``taas.agents.learned``): the policy network and checkpoint format of the
``ppo:`` spec (:mod:`taas.agents.learned.ppo`) and the afterstate-value players
(:mod:`taas.agents.learned.continental_value`). Importing them needs torch."""


def __getattr__(attr: str):
    """Names of the pre-0.2 module
    ``taas.agents.learned``, now in ``taas.agents.learned.ppo`` (with a warning)."""
    from taas._moved import forward

    return forward(__name__, "taas.agents.learned.ppo", attr)
