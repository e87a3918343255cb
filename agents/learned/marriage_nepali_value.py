"""Nepali Marriage afterstates (:mod:`.afterstate`): what a discard or a draw leaves, as the
seat sees it.

The features (:data:`FEATURES`) are the hand left, the card shed, the wild kinds (known only
once the seat has seen), the copies of each kind the seat has not seen face up (the pile,
every seat's exposed and shown cards, its own hand), each seat's seen flag, route and hand
size, whether a tiplu has been drawn, the stock and turn, and the heuristic's own judgement:
how much the shed card was worth keeping, and the pairs and triples the hand left holds.

A draw is valued the same way (the paired search changes the heuristic's draw more surely than
its discards, as in Rommé: :mod:`.romme_value`): taking the top card leaves the hand with it
(its ``drawn`` one-hot and what it is worth keeping there), drawing from the stock the hand as
it is; the ``draw`` flags tell the three kinds of row apart.
"""

from __future__ import annotations

import numpy as np

from taas.agents.heuristic.marriage_nepali import NepaliHeuristicAgent
from taas.agents.learned.afterstate import (
    DiscardValuePlayer,
    hands_after,
    hands_drawn,
    one_hot,
)
from taas.envs.core.cards import JOKER, NUM_KINDS
from taas.envs.core.game import make_layout
from taas.envs.marriage_nepali import actions as A
from taas.envs.marriage_nepali.config import DECKS, Config
from taas.envs.marriage_nepali.expert import keep_scores
from taas.envs.marriage_nepali.observation import LAYOUT, MAX_SEATS

FEATURES, NUM_FEATURES = make_layout([
    ("hand", NUM_KINDS),  # the hand left / 3
    ("shed", NUM_KINDS),  # one-hot
    ("wild", NUM_KINDS),  # my wild kinds (only once I have seen)
    ("unseen", NUM_KINDS),  # copies I have not seen face up / 3
    ("seen", MAX_SEATS), ("dublee_route", MAX_SEATS), ("hand_size", MAX_SEATS),  # me first
    ("table", 3),  # tiplu drawn, stock size, turn (the observation's)
    ("keep", 1),  # the heuristic's keep score of the shed card / 20 (a wild: 5)
    ("pairs", 1), ("triples", 1),  # kinds the hand left holds twice, three times / 8
    ("drawn", NUM_KINDS),  # one-hot of the pile's top card a draw takes
    ("draw", 2),  # a draw from the stock, a draw from the pile (a discard: neither)
])
DRAWS = range(A.DRAW_STOCK, A.DRAW_DISCARD + 1)


class NepaliValueAgent(DiscardValuePlayer, NepaliHeuristicAgent):
    """The heuristic, its discards and draws ordered by an afterstate value."""

    name = "value"
    CHOICES = (range(A.DISCARD, A.DISCARD + NUM_KINDS), DRAWS)
    NUM_FEATURES = NUM_FEATURES
    CONFIG = Config

    @staticmethod
    def features(player: NepaliHeuristicAgent, observation: np.ndarray,
                 actions: np.ndarray) -> np.ndarray:
        hand = np.rint(observation[LAYOUT["hand"]] * DECKS).astype(np.int64)
        wild = observation[LAYOUT["wild"]] > 0
        pairs = player.config.dublee_allowed and (hand[:JOKER] >= 2).sum() >= 4
        row = _table_rows(player, observation, hand, len(actions))
        row[:, FEATURES["wild"]] = wild
        if actions[0] in DRAWS:
            top = np.flatnonzero(observation[LAYOUT["top_discard"]])
            rest = hands_drawn(hand, actions, top, A.DRAW_STOCK, row, FEATURES)
            taken = actions == A.DRAW_DISCARD
            if taken.any():  # what the card taken is worth keeping in the hand it joins
                row[taken, FEATURES["keep"].start] = keep_scores(
                    rest[taken][0], top[:1], wild, pairs)[0] / 20
        else:
            kinds = actions - A.DISCARD
            rest = hands_after(hand, kinds)
            row[:, FEATURES["shed"]] = one_hot(kinds)
            row[:, FEATURES["keep"].start] = keep_scores(hand, kinds, wild, pairs) / 20
        row[:, FEATURES["hand"]] = rest / DECKS
        row[:, FEATURES["pairs"].start] = (rest[:, :JOKER] == 2).sum(1) / 8
        row[:, FEATURES["triples"].start] = (rest[:, :JOKER] >= 3).sum(1) / 8
        return row


def _table_rows(player: NepaliHeuristicAgent, observation: np.ndarray, hand: np.ndarray,
                n: int) -> np.ndarray:
    """``n`` rows with what every afterstate of the turn shares: the copies unseen, the seats
    and the table."""
    face_up = observation[LAYOUT["discard_pile"]] + sum(
        observation[LAYOUT[name]].reshape(MAX_SEATS, NUM_KINDS).sum(0)
        for name in ("exposed", "shown"))
    copies = np.full(NUM_KINDS, DECKS)
    copies[JOKER] = player.config.printed_jokers
    unseen = np.maximum(0, copies - hand - np.rint(face_up * DECKS))
    row = np.zeros((n, NUM_FEATURES), np.float32)
    row[:, FEATURES["unseen"]] = unseen / DECKS
    for name in ("seen", "dublee_route", "hand_size"):
        row[:, FEATURES[name]] = observation[LAYOUT[name]]
    row[:, FEATURES["table"]] = np.concatenate(
        [observation[LAYOUT[k]] for k in ("tiplu_drawn", "stock_size", "turn")])
    return row
