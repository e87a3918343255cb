"""Discard afterstates for the suited rummies: a learned value re-ranks a rule player's discards.

In Marriage, Rommé and Nepali Marriage most of a turn's skill is the discard, and what a
discard decides is the hand it leaves (the *afterstate*). :class:`DiscardValuePlayer` is a
game's heuristic whose discards are ordered by a value network over those afterstates
(trained by :mod:`taas.training.afterstate_value` on the heuristic's own games, so greedy
play on it is a policy-improvement step over the heuristic, or by
:mod:`taas.training.search_afterstate` on a search's choices); every other decision (melds,
shows, lay-offs, and Marriage's draws) stays the heuristic's. Each game's subclass says how
to read its observation into feature rows (:meth:`DiscardValuePlayer.features`); the rows
read only the seat's own observation and the heuristic's judgement of its own hand, so the
player is fair by construction.

Mariage's player (:mod:`.mariage_value`) uses the same mixin over every legal move, its rows
the observation with the move beside it, as a trick game leaves no hand to value.

Continental's player (:mod:`.continental_value`) values draws exactly over ranks, which its
suitless groups make cheap. Rommé's and Nepali Marriage's value a draw by the hand it leaves
without guessing the stock card (a meld search per unseen card would cost too much): the
pile's top card added, or the hand as it is, with flags that tell the two apart, so the
network learns what a stock card is worth.
"""

from __future__ import annotations

import numpy as np

from taas.envs.core.cards import NUM_KINDS

SERIES_RULES = ("episode", "num_rounds", "target_score", "tiebreak_players", "better",
                "foul_payee")
"""Rules of the series around the rounds, which the features never read, so a model trained on
single rounds plays every round of any series the same way."""


class DiscardValuePlayer:
    """Mixin before a game's heuristic: ``ranking`` re-orders the heuristic's ways of ending a
    turn (its discards, and where the game has them other hand-shaping moves such as
    Marriage's dublee swap) by ``value`` (a numpy function from feature rows to values, the
    seat's expected score difference at the end of the round as the targets were scaled).

    A subclass sets ``CHOICES`` (the ranges of action ids it values, the discards first, kinds
    in card order), ``NUM_FEATURES``, :meth:`features` and, when its heuristic takes a
    ``Config`` rather than a rules dict, ``CONFIG``."""

    CHOICES: tuple[range, ...]
    NUM_FEATURES: int
    CONFIG: type | None = None
    SERIES_RULES = SERIES_RULES

    def __init__(self, value, seed: int | None = None, rules: dict | None = None,
                 margin: float = 0.0, width: int = 0):
        rules = rules or {}
        super().__init__(seed, self.CONFIG(**rules) if self.CONFIG else rules)
        self.value_fn, self.margin, self.width = value, margin, width

    @staticmethod
    def features(player, observation: np.ndarray, actions: np.ndarray) -> np.ndarray:
        """One row per action in ``actions`` (of :attr:`CHOICES`): the hand ``player`` (the
        game's heuristic, or this player) leaves by it, read from ``observation``. A static
        method, so training records the rows of the heuristic's own games."""
        raise NotImplementedError

    @classmethod
    def is_choice(cls, action: int) -> bool:
        return any(action in r for r in cls.CHOICES)

    @classmethod
    def afterstate(cls, player, observation: np.ndarray, action_mask: np.ndarray,
                   action: int) -> np.ndarray | None:
        """The feature row a training game records for ``player``'s ``action`` (``player`` is
        the heuristic or this class), None unless it is one of the choices with an
        alternative."""
        legal = sum(int(action_mask[r.start : r.stop].sum()) for r in cls.CHOICES)
        if not cls.is_choice(action) or legal < 2:
            return None
        return cls.features(player, observation, np.array([action]))[0]

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return self.ranking(observation, action_mask)[0]

    def ranking(self, observation: np.ndarray, action_mask: np.ndarray) -> list[int]:
        """The heuristic's ranking with its choices in value order, best first, when the
        best valued beats the heuristic's own first choice by more than ``margin``; else, or
        when the heuristic's first move is not a choice (a draw, a show, a meld), its ranking
        unchanged. Only the moves the heuristic ranks are valued (it may leave some out, such
        as Marriage's wild cards, which it never throws); with a ``width``, only the choices
        among its first ``width`` moves (those a paired search compares, for values distilled
        from one: :mod:`taas.training.search_afterstate`)."""
        base = super().ranking(observation, action_mask)
        if not base or not self.is_choice(base[0]):
            return base
        choices = np.array([a for a in base[: self.width or None] if self.is_choice(a)])
        if len(choices) < 2:
            return base
        values = self.value_fn(self.features(self, observation, choices))
        if values.max() - values[0] <= self.margin:  # not clearly better: its own order
            return base
        ordered = choices[np.argsort(-values, kind="stable")].tolist()
        return ordered + [a for a in base if a not in ordered]


def one_hot(kinds: np.ndarray, size: int = NUM_KINDS) -> np.ndarray:
    """``[len(kinds), size]`` float32 rows, a 1 at each kind."""
    out = np.zeros((len(kinds), size), np.float32)
    out[np.arange(len(kinds)), kinds] = 1
    return out


def hands_after(hand: np.ndarray, kinds: np.ndarray) -> np.ndarray:
    """``[len(kinds), NUM_KINDS]``: ``hand`` less one card of each kind in turn."""
    rest = np.repeat(hand[None].astype(np.int64), len(kinds), 0)
    rest[np.arange(len(kinds)), kinds] -= 1
    return rest


def hands_drawn(hand: np.ndarray, draws: np.ndarray, top: np.ndarray, stock: int,
                row: np.ndarray, features: dict) -> np.ndarray:
    """``[len(draws), NUM_KINDS]``: the hand each draw leaves, ``hand`` with the pile's ``top``
    card (its one-hot, empty when the pile is) for a pile draw, as it is for a draw from the
    ``stock`` (the card unknown). Marks each row's ``draw`` flag (stock, pile) and the card a
    pile draw takes in its ``drawn`` one-hot."""
    taken = draws != stock
    rest = np.repeat(hand[None].astype(np.int64), len(draws), 0)
    row[np.arange(len(draws)), features["draw"].start + draws - stock] = 1
    if taken.any():
        rest[taken, top[0]] += 1
        row[taken, features["drawn"].start + top[0]] = 1
    return rest
