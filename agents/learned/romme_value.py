"""Rommé afterstates (:mod:`.afterstate`): what a discard or a draw leaves, as the seat sees it.

The features (:data:`FEATURES`) are the hand left, the card shed, the discard pile, each seat's
opened flag and hand size, the stock and the mover's opening in progress, and the heuristic's
own judgement of the hand left: the most its melds are worth (the opening search), what the
cards would cost if caught, how connected the shed card was, and whether an opponent is close
to going out.

A draw is valued too (the paired search changes the heuristic's draw far more surely than its
discards: it takes the pile's top card too often): taking the top card leaves the hand with it
(its ``drawn`` one-hot and how connected it is), drawing from the stock leaves the hand as it
is, the unknown card not guessed; the ``draw`` flags tell the three kinds of row apart, so
the network learns what an unseen card is worth instead of a meld search per unseen card.
"""

from __future__ import annotations

import numpy as np

from taas.agents.heuristic.romme import RommeHeuristicAgent, _partners, opponent_close
from taas.agents.learned.afterstate import (
    DiscardValuePlayer,
    hands_after,
    hands_drawn,
    one_hot,
)
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
    ("drawn", NUM_KINDS),  # one-hot of the pile's top card a draw takes
    ("draw", 2),  # a draw from the stock, a draw from the pile (a discard: neither)
])
DRAWS = range(A.DRAW_STOCK, A.DRAW_DISCARD + 1)


class RommeValueAgent(DiscardValuePlayer, RommeHeuristicAgent):
    """The heuristic, its discards and draws ordered by an afterstate value."""

    name = "value"
    CHOICES = (range(A.DISCARD, A.DISCARD + NUM_KINDS), DRAWS)
    NUM_FEATURES = NUM_FEATURES
    CONFIG = Config

    @staticmethod
    def features(player: RommeHeuristicAgent, observation: np.ndarray,
                 actions: np.ndarray) -> np.ndarray:
        hand = np.rint(observation[LAYOUT["hand"]] / COPY_STEP).astype(np.int64)
        if actions[0] in DRAWS:
            return _draw_rows(player, observation, actions, hand)
        kinds = actions - A.DISCARD
        rest = hands_after(hand, kinds)
        row = _table_rows(observation, len(kinds))
        row[:, FEATURES["shed"]] = one_hot(kinds)
        row[:, FEATURES["partners"].start] = [min(_partners(hand, int(k)), 8) / 8
                                                 for k in kinds]  # a joker: 8
        row[:, FEATURES["shed_value"].start] = HAND_VALUES[kinds] / 20
        return _hand_rows(player, row, rest)


def _draw_rows(player: RommeHeuristicAgent, observation: np.ndarray, actions: np.ndarray,
               hand: np.ndarray) -> np.ndarray:
    """Rows for draws (a turn's draws are valued only against each other): the hand with the
    top card for the pile, the hand as it is for the stock."""
    top = np.flatnonzero(observation[LAYOUT["top_discard"]])
    row = _table_rows(observation, len(actions))
    rest = hands_drawn(hand, actions, top, A.DRAW_STOCK, row, FEATURES)
    if top.size:
        row[actions == A.DRAW_DISCARD, FEATURES["partners"].start] = min(
            _partners(hand, int(top[0])), 8) / 8
    return _hand_rows(player, row, rest)


def _table_rows(observation: np.ndarray, n: int) -> np.ndarray:
    """``n`` rows with what every afterstate of the turn shares: the pile, the seats, the
    table and whether an opponent is close to going out."""
    seats = observation[LAYOUT["seats"]].reshape(-1, SEAT_SIZE)
    row = np.zeros((n, NUM_FEATURES), np.float32)
    row[:, FEATURES["discard_pile"]] = observation[LAYOUT["discard_pile"]]
    row[:, FEATURES["opened"]] = seats[:, SEAT["opened"].start]
    row[:, FEATURES["hand_size"]] = seats[:, SEAT["hand_size"].start]
    row[:, FEATURES["table"]] = np.concatenate(
        [observation[LAYOUT[k]] for k in ("stock_size", "pending_value", "owed_jokers",
                                          "opened_now")])
    row[:, FEATURES["close"].start] = opponent_close(observation)
    return row


def _hand_rows(player: RommeHeuristicAgent, row: np.ndarray, rest: np.ndarray) -> np.ndarray:
    """``row`` with the hands each move leaves (``rest``) and the heuristic's judgement of
    them: the most their melds are worth, what they cost if caught."""
    row[:, FEATURES["hand"]] = rest * COPY_STEP
    row[:, FEATURES["meld_value"].start] = [player._opening.best(r)[0] / 100 for r in rest]
    row[:, FEATURES["hand_value"].start] = rest @ HAND_VALUES / 100
    return row
