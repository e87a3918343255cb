"""High Card, the toy game of the registry test: its spec is all Taas needs to know of it. The
tests register it (``taas.envs.register(highcard.SPEC)``) for as long as they need it."""

from taas.envs.core.spec import GameSpec

SPEC = GameSpec(
    name="highcard",
    title="High Card (a toy: the higher spade takes the trick)",
    players="2",
    envs={"highcard_v0": "highcard.env"},
    config="highcard.config:Config",
    game="highcard.rules:HighCardGame",
    observer="highcard.observation:HighCardObserver",
    determinizer="highcard.determinize",
    view="highcard.view:HighCardView",
)
