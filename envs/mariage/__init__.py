"""Mariage (``taas.envs.mariage``): engine, observation, PettingZoo env ``mariage_v1`` and the
game's spec."""

from taas.envs.core.spec import AgentEntry, GameSpec

SPEC = GameSpec(
    name="mariage",
    title="Mariage (German 32-card ancestor of Sixty-Six)",
    players="2",
    envs={"mariage_v1": "taas.envs.mariage.env"},
    retired={"mariage_v0": "mariage_v1"},
    config="taas.envs.mariage.config:Config",
    game="taas.envs.mariage.rules:MariageGame",
    observer="taas.envs.mariage.observation:MariageObserver",
    determinizer="taas.envs.mariage.determinize",
    agents={
        "heuristic": AgentEntry(
            "taas.agents.heuristic.mariage:MariageHeuristicAgent",
            "the standard Sixty-Six strategy: claims at 66, marriages, closes on sure tricks"),
        "pimc": AgentEntry(
            "taas.agents.search.pimc:PIMCAgent",
            "perfect-information Monte Carlo: every move played out in pimc:N worlds or pimc:0.2s "
            "(pimc:N:infer: worlds inferred from the opponent's moves)"),
    },
    default_opponent="heuristic",
    learned="ppo:mariage",
    best="pimc:0.2s:infer",
    model="mariage",
    afterstate="taas.agents.learned.mariage_value:MariageValueAgent",
    view="taas.envs.mariage.view:MariageView",
)
