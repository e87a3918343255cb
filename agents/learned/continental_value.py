"""Continental Rummy afterstates: what a hand looks like once its owner has discarded.

In Continental a turn is "draw one card, shed one"; suits never matter (groups only), so the
position a seat leaves behind is its count per rank, its jokers and what it knows about the
cards still live. A value network over these *afterstates* chooses a discard by comparing the
hands each discard leaves, and a draw by the hand the top card leaves against the expected
hand over the live cards the stock may give (one draw of look ahead, exact over ranks).

Features read only the seat's own observation (through the heuristic's ``read``), so the
player is fair by construction.
"""

from __future__ import annotations

import numpy as np

from taas.agents.heuristic.continental import _RANK_OF, ContinentalHeuristicAgent
from taas.agents.heuristic.continental_greedy import discardable_naturals, go_out_or_joker
from taas.envs.continental import actions as A
from taas.envs.continental.hands import CARD_VALUES
from taas.envs.continental.observation import LAYOUT
from taas.envs.core.cards import JOKER, NUM_RANKS
from taas.envs.core.game import make_layout

RANK_VALUES = CARD_VALUES[:NUM_RANKS].astype(np.float32)  # one suit's kinds, rank by rank
JOKER_VALUE = float(CARD_VALUES[JOKER])
_BLOCKS = [
    ("counts", NUM_RANKS),  # naturals per rank in the hand left / 4
    ("jokers", 1),  # / 4
    ("live", NUM_RANKS),  # live copies per rank (the heuristic's count) / 8
    ("live_jokers", 1),  # / 4
    ("singles", 1), ("pairs", 1), ("triples", 1), ("fours", 1),  # ranks held 1, 2, 3, 4+ times
    ("short", 1),  # cards the held ranks lack to make 3 each / 16
    ("missing", 1),  # short less the jokers, at least 0 / 16
    ("outs", 1),  # live cards whose draw lets the hand go out next turn / 24
    ("penalty", 1),  # the hand's penalty / 150
    ("live_held", 1),  # live copies of the ranks held / 32
    ("shed", NUM_RANKS + 1),  # one-hot: the rank shed (the last for a joker)
    ("stock", 1),  # the observation's stock size
    ("out", 1),  # 1: the seat went out (the row of :func:`out_features`)
]
FEATURES, NUM_FEATURES = make_layout(_BLOCKS)
SERIES_RULES = ("episode", "num_rounds", "target_score", "tiebreak_players")
"""Rules of the series around the rounds: the features never read them (no totals, no rounds
left), so a model trained on single rounds plays every round of any series the same way."""


def _short(counts: np.ndarray) -> np.ndarray:
    """Cards the held ranks lack to make 3 each (the jokers a hand needs)."""
    return np.where(counts > 0, np.maximum(0, 3 - counts), 0).sum(-1)


def can_go_out(counts: np.ndarray, jokers: np.ndarray, m: int, banned=-1) -> np.ndarray:
    """Whether each drawn-to hand (rows of per-rank ``counts``, ``jokers``) can shed one card
    (a joker, or a natural not of rank ``banned``) and lie all in groups of 3 or more with at
    least ``m`` naturals each, jokers filling the rest (the engine's test, docs/rules section
    4, without its rare "two groups" corner). Vectorised over the rows: shedding a natural
    changes only its own rank's shortfall to 3 (a single -2, a pair or a triple +1, four or
    more 0) and whether that rank falls below ``m`` naturals."""
    jokers = np.asarray(jokers)
    present = counts > 0
    short = _short(counts)
    was_thin = present & (counts < m)
    thin = was_thin.sum(-1)
    ranks = present.sum(-1)
    left = counts - 1
    d_short = np.select([counts == 1, counts <= 3], [-2, 1], 0)
    d_thin = (left > 0) & (left < m)
    ok = (present & (np.arange(NUM_RANKS) != np.asarray(banned)[..., None])
          & (short[..., None] + d_short <= jokers[..., None])
          & (thin[..., None] - was_thin + d_thin == 0)
          & (ranks[..., None] - (counts == 1) > 0)).any(-1)
    return ok | ((jokers > 0) & (thin == 0) & (short <= jokers - 1) & (ranks > 0))


def outs(counts: np.ndarray, jokers: np.ndarray, live: np.ndarray, live_jokers: int,
         m: int) -> np.ndarray:
    """Live cards (copy by copy) whose draw lets each afterstate go out next turn."""
    eye = np.eye(NUM_RANKS, dtype=counts.dtype)
    drawn = counts[..., None, :] + eye  # (..., rank drawn, ranks)
    ok = can_go_out(drawn, jokers[..., None], m)
    total = (ok * live).sum(-1)
    if live_jokers:
        total = total + live_jokers * can_go_out(counts, jokers + 1, m)
    return total


def features(counts: np.ndarray, jokers: np.ndarray, shed: np.ndarray, ctx: dict,
             m: int) -> np.ndarray:
    """One row per afterstate: the hand (``counts``, ``jokers``) after shedding rank ``shed``
    (``NUM_RANKS`` for a joker), in the context ``ctx`` the observation gives."""
    counts = counts.astype(np.int64)
    jokers = np.asarray(jokers, np.int64)
    n = counts.shape[0]
    present = counts > 0
    short = _short(counts)
    live = ctx["live"]
    row = np.zeros((n, NUM_FEATURES), np.float32)
    col = {k: row[:, v] for k, v in FEATURES.items()}
    col["counts"][:] = counts / 4.0
    col["jokers"][:, 0] = jokers / 4.0
    col["live"][:] = live / 8.0
    col["live_jokers"][:] = ctx["live_jokers"] / 4.0
    for name, held in (("singles", counts == 1), ("pairs", counts == 2),
                       ("triples", counts == 3), ("fours", counts >= 4)):
        col[name][:, 0] = held.sum(-1) / 8.0
    col["short"][:, 0] = short / 16.0
    col["missing"][:, 0] = np.maximum(0, short - jokers) / 16.0
    col["outs"][:, 0] = outs(counts, jokers, live, ctx["live_jokers"], m) / 24.0
    col["penalty"][:, 0] = (counts @ RANK_VALUES + JOKER_VALUE * jokers) / 150.0
    col["live_held"][:, 0] = (live * present).sum(-1) / 32.0
    col["shed"][np.arange(n), shed] = 1
    col["stock"][:] = ctx["stock"]
    return row


def out_features(ctx: dict) -> np.ndarray:
    """The afterstate of going out: an empty hand, flagged (its value is the others' charges)."""
    row = features(np.zeros((1, NUM_RANKS), np.int64), np.zeros(1), np.array([NUM_RANKS]),
                   ctx, 1)
    row[0, FEATURES["out"]] = 1
    return row


def context(player: ContinentalHeuristicAgent, observation: np.ndarray) -> dict:
    """What the afterstate features take from the table, as ``player`` last read it."""
    return {"live": player.live.astype(np.int64), "live_jokers": int(player.live_jokers),
            "stock": float(observation[LAYOUT["stock_size"]][0])}


def chosen_afterstate(player: ContinentalHeuristicAgent, observation: np.ndarray,
                      action: int) -> np.ndarray:
    """The feature row of the afterstate a discard-phase ``action`` leaves (what training
    records for every seat's discard)."""
    player.read(observation)
    ctx = context(player, observation)
    if action >= A.GO_OUT:
        return out_features(ctx)[0]
    kind = action - A.DISCARD
    counts, jokers = player.per_rank.astype(np.int64), player.jokers
    if kind == JOKER:
        return features(counts[None], np.array([jokers - 1]), np.array([NUM_RANKS]), ctx,
                        player.config.min_naturals_per_group)[0]
    shed = int(_RANK_OF[kind])
    counts[shed] -= 1
    return features(counts[None], np.array([jokers]), np.array([shed]), ctx,
                    player.config.min_naturals_per_group)[0]


def _sheds(counts: np.ndarray, banned: int) -> np.ndarray:
    """Ranks a natural may be shed from (never rank ``banned``)."""
    ranks = np.flatnonzero(counts)
    return ranks[ranks != banned]


class ContinentalValueAgent(ContinentalHeuristicAgent):
    """Draws and discards by an afterstate value function; buys and goes out as the heuristic.

    ``value`` maps a batch of :func:`features` rows to values (the seat's expected score
    difference at the end of the round, as the training targets were scaled)."""

    name = "value"
    NUM_FEATURES = NUM_FEATURES  # what a checkpoint's ``features`` must say
    SERIES_RULES = SERIES_RULES  # rules it never reads: any series plays the same model

    @staticmethod
    def afterstate(player: ContinentalHeuristicAgent, observation: np.ndarray,
                   action_mask: np.ndarray, action: int) -> np.ndarray | None:
        """The feature row a training game records for ``player``'s ``action`` (a discard or
        going out), None for the other decisions."""
        if not action_mask[A.DISCARD : A.GO_OUT_NO_DISCARD + 1].any():
            return None
        return chosen_afterstate(player, observation, action)

    def __init__(self, value, seed: int | None = None, rules: dict | None = None):
        super().__init__(seed, rules)
        self.value = value
        self.m = self.config.min_naturals_per_group

    def ranking(self, observation: np.ndarray, action_mask: np.ndarray) -> list[int]:
        """Both draws, or the natural discards, best afterstate first; the heuristic's
        ranking for buys, a forced draw, a joker on top, going out or a forced joker discard."""
        self.read(observation)
        choose_draw = action_mask[A.DRAW_STOCK] and action_mask[A.DRAW_DISCARD]
        if choose_draw and self.top != JOKER:
            ctx = context(self, observation)
            if self._take_top(ctx):
                return [A.DRAW_DISCARD, A.DRAW_STOCK]
            return [A.DRAW_STOCK, A.DRAW_DISCARD]
        in_discard = action_mask[A.DISCARD : A.GO_OUT_NO_DISCARD + 1].any()
        if not in_discard or go_out_or_joker(action_mask) is not None:
            return super().ranking(observation, action_mask)
        kinds = discardable_naturals(action_mask)
        ranks = np.unique(_RANK_OF[kinds])
        v = self._values([(self.per_rank.astype(np.int64), self.jokers, ranks)],
                         context(self, observation))[0]
        pos = {int(r): i for i, r in enumerate(ranks[np.argsort(-v, kind="stable")])}
        return [A.DISCARD + int(k) for k in sorted(kinds, key=lambda k: pos[int(_RANK_OF[k])])]

    def _values(self, options: list, ctx: dict) -> list[np.ndarray]:
        """For each (counts, jokers, ranks) option, the values of shedding each of ``ranks``,
        all rows in one batch."""
        sizes = [len(ranks) for _, _, ranks in options]
        after = np.repeat(np.stack([c for c, _, _ in options]), sizes, 0)
        sheds = np.concatenate([ranks for _, _, ranks in options])
        after[np.arange(len(after)), sheds] -= 1
        jokers = np.repeat([j for _, j, _ in options], sizes)
        values = self.value(features(after, jokers, sheds, ctx, self.m))
        return np.split(values, np.cumsum(sizes)[:-1])

    def _take_top(self, ctx: dict) -> bool:
        """Whether the top discard's best afterstate beats the stock's expected one (over the
        live cards, drawn in proportion; a hand that can go out scores the going-out value)."""
        counts, jokers = self.per_rank.astype(np.int64), self.jokers
        r = int(_RANK_OF[self.top])
        eye = np.eye(NUM_RANKS, dtype=np.int64)
        live = np.flatnonzero(ctx["live"])
        hands = [counts + eye[r], *(counts + eye[live])]  # the top, then each live rank
        held = [jokers] * (1 + len(live))
        weights = [1, *ctx["live"][live]]
        if ctx["live_jokers"]:
            hands.append(counts)
            held.append(jokers + 1)
            weights.append(ctx["live_jokers"])
        hands, held = np.stack(hands), np.array(held)
        banned = np.full(len(hands), -1)
        banned[0] = r  # the card taken may not go straight back; its rank's other suits
        # could, but shedding the rank just drawn only undoes the draw
        out = can_go_out(hands, held, self.m, banned)
        options = [(hands[i], held[i], _sheds(hands[i], banned[i]))
                   for i in np.flatnonzero(~out)]
        values = np.zeros(len(hands))
        if out.any():
            values[out] = self.value(out_features(ctx))[0]
        if options:
            values[~out] = [v.max() for v in self._values(options, ctx)]
        weights = np.array(weights[1:], np.float64)
        if not weights.sum():
            return True
        return values[0] > np.dot(values[1:], weights) / weights.sum()
