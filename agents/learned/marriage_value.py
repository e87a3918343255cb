"""Marriage discard afterstates (:mod:`.afterstate`): what a discard leaves, as the seat sees it.

A turn ends with a discard or, for a dead dublee, a swap (the pair set aside for the first
wild card of the stock); the player values both. The features (:data:`FEATURES`) are the hand
left (a swap's with one wild card in the pair's place), the card shed or the pair swapped, the
wild kinds, the live
copies the heuristic counts (every copy not seen in the pile, the melds set aside and shown,
the indicator, or picked up by an opponent and still held), the hand sizes, stock and turn,
and the heuristic's own judgement of the hand left: its least deadwood and the lives it
lacks (the meld solver), the live cards that would have made the shed card a meld, and
whether the next player has been collecting it.
"""

from __future__ import annotations

import numpy as np

from taas.agents.heuristic.marriage import LATE_TURNS, MarriageHeuristicAgent
from taas.agents.learned.afterstate import DiscardValuePlayer, hands_after, one_hot
from taas.envs.core.cards import NUM_KINDS
from taas.envs.core.game import make_layout
from taas.envs.marriage import actions as A
from taas.envs.marriage.config import MAX_PLAYERS
from taas.envs.marriage.observation import LAYOUT

FEATURES, NUM_FEATURES = make_layout([
    ("hand", NUM_KINDS),  # the hand left / decks
    ("shed", NUM_KINDS),  # one-hot
    ("swapped", NUM_KINDS),  # one-hot: the dublee set aside
    ("wild", NUM_KINDS),  # this round's wild kinds
    ("live", NUM_KINDS),  # live copies per kind (the heuristic's count) / decks
    ("hand_sizes", MAX_PLAYERS),  # the observation's, me first
    ("table", 2),  # stock size, turn (the observation's)
    ("own_turns", 1),  # my turns so far / LATE_TURNS
    ("deadwood", 1),  # least deadwood of the hand left with the lives it can have / 100
    ("missing_lives", 1),  # lives the hand left lacks of those required
    ("outs", 1),  # live cards that would have made the shed card (or pair) a meld / 16
    ("wanted", 1),  # the next player has been collecting near the shed card
])


class MarriageValueAgent(DiscardValuePlayer, MarriageHeuristicAgent):
    """The heuristic, its discards and dublee swaps ordered by an afterstate value."""

    name = "value"
    CHOICES = (range(A.DISCARD, A.DISCARD + NUM_KINDS),
               range(A.DUBLEE_SWAP, A.DUBLEE_SWAP + NUM_KINDS))
    NUM_FEATURES = NUM_FEATURES

    @staticmethod
    def features(player: MarriageHeuristicAgent, observation: np.ndarray,
                 actions: np.ndarray) -> np.ndarray:
        player._read(observation)
        d = player.config.decks
        swap = actions >= A.DUBLEE_SWAP
        kinds = np.where(swap, actions - A.DUBLEE_SWAP, actions - A.DISCARD)
        rest = hands_after(player.hand, kinds)
        if swap.any():  # the pair's second card goes too, and a wild card comes, as the
            # heuristic reckons it (the first wild kind it holds fewer than 3 of)
            rest[swap, kinds[swap]] -= 1
            wild = [w for w in np.flatnonzero(player.wild) if player.hand[w] < 3]
            if wild:
                rest[swap, wild[0]] += 1
        row = np.zeros((len(kinds), NUM_FEATURES), np.float32)
        row[:, FEATURES["hand"]] = rest / d
        row[:, FEATURES["shed"]] = one_hot(kinds) * ~swap[:, None]
        row[:, FEATURES["swapped"]] = one_hot(kinds) * swap[:, None]
        row[:, FEATURES["wild"]] = player.wild
        row[:, FEATURES["live"]] = player.live / d
        row[:, FEATURES["hand_sizes"]] = observation[LAYOUT["hand_sizes"]]
        row[:, FEATURES["table"]] = np.concatenate(
            [observation[LAYOUT["stock_size"]], observation[LAYOUT["turn"]]])
        row[:, FEATURES["own_turns"].start] = player.own_turns / LATE_TURNS
        judged = np.array([player.judge(r) for r in rest], np.float32).reshape(-1, 2)
        row[:, FEATURES["deadwood"].start] = judged[:, 0] / 100
        row[:, FEATURES["missing_lives"].start] = judged[:, 1]
        row[:, FEATURES["outs"].start] = [player._outs(player.hand, int(k)) / 16 for k in kinds]
        row[:, FEATURES["wanted"].start] = player.wanted[kinds]
        return row
