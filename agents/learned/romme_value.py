"""Rommé discard afterstates (:mod:`.afterstate`): what a discard leaves, as the seat sees it.

The features (:data:`FEATURES`) are the hand left, the card shed, the discard pile, each seat's
opened flag and hand size, the stock and the mover's opening in progress, and the heuristic's
own judgement of the hand left: the most its melds are worth (the opening search), what the
cards would cost if caught, how connected the shed card was, and whether an opponent is close
to going out.
"""

from __future__ import annotations

import numpy as np

from taas.agents.heuristic.romme import RommeHeuristicAgent, _partners, opponent_close
from taas.agents.learned.afterstate import DiscardValuePlayer, hands_after, one_hot
from taas.envs.core.cards import NUM_KINDS
from taas.envs.core.game import make_layout
from taas.envs.romme import actions as A
from taas.envs.romme.config import MAX_PLAYERS, Config
from taas.envs.romme.observation import LAYOUT
from taas.envs.romme.rules import COPY_STEP, HAND_VALUES, SEAT, SEAT_SIZE

FEATURES, NUM_FEATURES = make_layout([
    ("hand", NUM_KINDS),  # the hand left, as the observation scales it
    ("shed", NUM_KINDS),  # one-hot
    ("discard_pile", NUM_KINDS),  # the pile before the shed card joins it
    ("opened", MAX_PLAYERS),  # per seat, me first
    ("hand_size", MAX_PLAYERS),  # per seat / 15 (mine before the discard)
    ("table", 4),  # stock size, pending opening, owed jokers, opened this turn
    ("meld_value", 1),  # the most the hand left's melds are worth / 100
    ("hand_value", 1),  # what the hand left costs if caught / 100
    ("partners", 1),  # held cards that could share a meld with the shed card / 8
    ("shed_value", 1),  # what the shed card costs / 20
    ("close", 1),  # an opponent who has opened is down to a few cards
])


class RommeValueAgent(DiscardValuePlayer, RommeHeuristicAgent):
    """The heuristic, its discards ordered by an afterstate value."""

    name = "value"
    CHOICES = (range(A.DISCARD, A.DISCARD + NUM_KINDS),)
    NUM_FEATURES = NUM_FEATURES
    CONFIG = Config

    @staticmethod
    def features(player: RommeHeuristicAgent, observation: np.ndarray,
                 actions: np.ndarray) -> np.ndarray:
        kinds = actions - A.DISCARD
        hand = np.rint(observation[LAYOUT["hand"]] / COPY_STEP).astype(np.int64)
        rest = hands_after(hand, kinds)
        seats = observation[LAYOUT["seats"]].reshape(-1, SEAT_SIZE)
        row = np.zeros((len(kinds), NUM_FEATURES), np.float32)
        row[:, FEATURES["hand"]] = rest * COPY_STEP
        row[:, FEATURES["shed"]] = one_hot(kinds)
        row[:, FEATURES["discard_pile"]] = observation[LAYOUT["discard_pile"]]
        row[:, FEATURES["opened"]] = seats[:, SEAT["opened"].start]
        row[:, FEATURES["hand_size"]] = seats[:, SEAT["hand_size"].start]
        row[:, FEATURES["table"]] = np.concatenate(
            [observation[LAYOUT[k]] for k in ("stock_size", "pending_value", "owed_jokers",
                                              "opened_now")])
        row[:, FEATURES["meld_value"].start] = [player._opening.best(r)[0] / 100 for r in rest]
        row[:, FEATURES["hand_value"].start] = rest @ HAND_VALUES / 100
        row[:, FEATURES["partners"].start] = [min(_partners(hand, int(k)), 8) / 8
                                                 for k in kinds]  # a joker: 8
        row[:, FEATURES["shed_value"].start] = HAND_VALUES[kinds] / 20
        row[:, FEATURES["close"].start] = opponent_close(observation)
        return row

