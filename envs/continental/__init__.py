"""Continental Rummy (``taas.envs.continental``): engine, observation, PettingZoo env
``continental_v1`` and the game's spec."""

from taas.envs.core.spec import AgentEntry, GameSpec

SPEC = GameSpec(
    name="continental",
    title="Continental Rummy (sets only, go out all at once)",
    players="3–8",
    envs={"continental_v1": "taas.envs.continental.env"},
    retired={"continental_v0": "continental_v1"},
    config="taas.envs.continental.config:Config",
    game="taas.envs.continental.rules:ContinentalGame",
    observer="taas.envs.continental.observation:ContinentalObserver",
    determinizer="taas.envs.continental.determinize",
    agents={
        "greedy": AgentEntry(
            "taas.agents.heuristic.continental_greedy:GreedyAgent",
            "collects ranks, sheds singletons, goes out at once; a baseline that beats random"),
        "heuristic": AgentEntry(
            "taas.agents.heuristic.continental:ContinentalHeuristicAgent",
            "greedy's shape plus live copies counted and a one-draw look ahead"),
    },
    default_opponent="heuristic",
    learned="ppo:continental",
    best="ppo:continental",
    model="continental",
    afterstate="taas.agents.learned.continental_value:ContinentalValueAgent",
    cli="taas.envs.continental.cli",
    view="taas.envs.continental.view:ContinentalView",
)
