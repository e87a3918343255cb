"""Rommé (``taas.envs.romme``): engine, observation, PettingZoo env ``romme_v1`` and the
game's spec."""

from taas.envs.core.spec import AgentEntry, GameSpec

SPEC = GameSpec(
    name="romme",
    title="Rommé (German rummy: opening ≥ 40, laying off, joker exchange, Hand-Rommé)",
    players="2–6",
    envs={"romme_v1": "taas.envs.romme.env"},
    retired={"romme_v0": "romme_v1"},
    config="taas.envs.romme.config:Config",
    game="taas.envs.romme.rules:RommeGame",
    observer="taas.envs.romme.observation:RommeObserver",
    determinizer="taas.envs.romme.determinize",
    agents={
        "heuristic": AgentEntry(
            "taas.agents.heuristic.romme:RommeHeuristicAgent",
            "opens as soon as it can, lays off, exchanges jokers, sheds its dearest loose card"),
    },
    default_opponent="heuristic",
    learned="ppo:romme",
    best="ismcts:30",
    model="romme",
    afterstate="taas.agents.learned.romme_value:RommeValueAgent",
    cli="taas.envs.romme.cli",
    view="taas.envs.romme.view:RommeView",
)
