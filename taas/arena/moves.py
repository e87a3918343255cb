"""The public move log (``taas.arena.moves``): one line per move for people, made of what every
seat may see (the move's name and the cards that entered or left a face-up zone), shared by
``play_game``'s rendering, replays and the tables."""

from __future__ import annotations

import numpy as np

from taas.envs.core.cards import cards_str, from_counts


class MoveRenderer:
    """One line per move for people: who moved, the action's name, the cards that became
    public or left a face-up zone (discard pile, table, trick), and any rewards."""

    def __init__(self, env):
        self.game, self.env = env.game, env
        self.before = self._public()
        self.deal = self._deal()

    def _public(self) -> dict[str, np.ndarray]:
        return public_zones(self.game, self.env.state)

    def _deal(self):
        """The round (rummies) or deal (Mariage) number from the info, to tell a new deal in
        a match from a move; None where the engine reports neither."""
        info = self.game.info(self.env.state, 0)
        return info.get("round", info.get("deal"))

    def move(self, seat: int, action: int, rewards: dict[str, float]) -> str:
        after, deal = self._public(), self._deal()
        line = f"player_{seat:<2} {self.game.action_to_str(action)}"
        if deal != self.deal:  # the move ended a deal and the next one is on the table
            face_up = [f"{n} {cards_str(from_counts(c), True)}" for n, c in after.items()
                       if c.any()]
            changes = ["deal over"]
            tail = f"\n--- new deal{': ' + '; '.join(face_up) if face_up else ''}"
        else:
            changes, tail = _diff(self.before, after), ""
        self.before, self.deal = after, deal
        if changes:
            line += "   [" + "; ".join(changes) + "]"
        scored = {a: r for a, r in rewards.items() if r}
        if scored:
            line += "   rewards " + " ".join(f"{a} {r:+g}" for a, r in scored.items())
        return line + tail


def public_zones(game, state) -> dict[str, np.ndarray]:
    """The zones every seat sees (all of :meth:`~taas.envs.core.game.Game.zones` but the hands
    and the game's ``private_zones``): all that the public move log shows of the cards."""
    return {
        name: np.asarray(z, dtype=np.int64).copy()
        for name, z in game.zones(state).items()
        if not name.startswith("hand_") and name not in game.private_zones
    }


def _diff(before: dict[str, np.ndarray], after: dict[str, np.ndarray]) -> list[str]:
    """The cards each face-up zone gained and lost (a long loss, such as a pile shuffled into
    the stock, as a count)."""
    changes = []
    for name, counts in after.items():
        diff = counts - before.get(name, np.zeros_like(counts))
        gained, lost = from_counts(np.maximum(diff, 0)), from_counts(np.maximum(-diff, 0))
        if gained:
            changes.append(f"{name} +{cards_str(gained, symbols=True)}")
        if lost:
            shown = cards_str(lost, symbols=True) if len(lost) <= 4 else f"{len(lost)} cards"
            changes.append(f"{name} -{shown}")
    return changes
