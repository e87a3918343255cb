"""Traditional Nepali Marriage (``taas.envs.marriage_nepali``): engine, maal and settlement,
observation, PettingZoo env ``marriage_nepali_v0`` and the game's spec."""

from taas.envs.core.spec import AgentEntry, GameSpec

SPEC = GameSpec(
    name="marriage_nepali",
    title="Traditional Nepali Marriage (hidden tiplu, seeing, maal, zero-sum settlement)",
    players="2–5 (6)",
    envs={"marriage_nepali_v0": "taas.envs.marriage_nepali.env"},
    config="taas.envs.marriage_nepali.config:Config",
    game="taas.envs.marriage_nepali.rules:NepaliGame",
    observer="taas.envs.marriage_nepali.observation:NepaliObserver",
    determinizer="taas.envs.marriage_nepali.determinize",
    agents={
        "heuristic": AgentEntry(
            "taas.agents.heuristic.marriage_nepali:NepaliHeuristicAgent",
            "races to see, keeps the maal, finishes as soon as the cards allow (a baseline)"),
    },
    default_opponent="heuristic",
    model="marriage_nepali",
    learned="ppo:marriage_nepali",
    afterstate="taas.agents.learned.marriage_nepali_value:NepaliValueAgent",
    best="ismcts:0.2s",
    cli="taas.envs.marriage_nepali.cli",
    view="taas.envs.marriage_nepali.view:NepaliView",
)
