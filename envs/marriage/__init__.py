"""Marriage (``taas.envs.marriage``): engine, observation, PettingZoo env ``marriage_v1`` and
the game's spec."""

from taas.envs.core.spec import AgentEntry, GameSpec

SPEC = GameSpec(
    name="marriage",
    title="Marriage (Nepal: 3 decks + 3 jokers, 21 cards, wild rank, lives, dublee, tunnela)",
    players="3–6",
    envs={"marriage_v1": "taas.envs.marriage.env"},
    retired={"marriage_v0": "marriage_v1"},
    config="taas.envs.marriage.config:Config",
    game="taas.envs.marriage.rules:MarriageGame",
    observer="taas.envs.marriage.observation:MarriageObserver",
    determinizer="taas.envs.marriage.determinize",
    agents={
        "heuristic": AgentEntry(
            "taas.agents.heuristic.marriage:MarriageHeuristicAgent",
            "shows at once; judges cards by the meld solver's least deadwood with a life"),
    },
    default_opponent="heuristic",
    learned="ppo:marriage",
    best="ismcts:54",
    model="marriage",
    afterstate="taas.agents.learned.marriage_value:MarriageValueAgent",
    cli="taas.envs.marriage.cli",
    view="taas.envs.marriage.view:MarriageView",
)
