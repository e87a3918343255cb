"""What one Nepali Marriage seat cannot see, dealt afresh, and the search's rollouts and leaf
values: the search agents' view of a round.

A seat sees its own concealed cards, every face-up card (the pile, exposed starting tunnelas,
shown combinations, kept in the copy with every seat's seen flag and route) and remembers which
cards each seat took from the pile: a card a seat took and has not visibly let go (discarded or
shown) is still in its hand. Everything else — the rest of the other hands, the stock's order,
the table's future reshuffles and, for a seat that may not look at it, the tiplu itself — is
dealt at random from the unseen cards, so a determinization never contradicts the seat's
knowledge and never assumes a tiplu an unseen seat cannot know (it draws one at random from
the unseen cards, as the first shower did). A seat that has seen keeps the true tiplu, and
with it the maal of every card it can see.

The search (``ismcts:N``) is the paired improvement search on the heuristic
(:class:`taas.agents.search.ismcts.PairedSearch`, ``WIDTH``/``CONFIDENCE``): rollouts play the
heuristic's own rules (:class:`~taas.envs.marriage_nepali.expert.Expert`, asked from the
state with only the mover's knowledge: its concealed cards, and the wild kinds only if it may
look at the tiplu) for ``ROLLOUT_DEPTH`` moves, and :func:`evaluate` values a round cut short
by its expected settlement.
"""

from __future__ import annotations

import math

import numpy as np

from taas.envs.core.cards import JOKER, NUM_KINDS
from taas.envs.marriage_nepali import settlement
from taas.envs.marriage_nepali.expert import Expert
from taas.envs.marriage_nepali.rules import DUBLEE, ROUTES, NepaliGame, NepaliState
from taas.envs.rummy.determinize import meld_partners

ROLLOUT_DEPTH = 16  # two turns of every seat at four players; evaluate scores the rest
WIDTH = 3  # the expert's best moves the paired search compares (agents/search/ismcts.py)
CONFIDENCE = 1.0  # standard errors a move must gain over the expert's choice to replace it
TEMPERATURE = 2.0  # in loose cards (see evaluate)
_NO_WILD = np.zeros(NUM_KINDS, bool)


def knows_tiplu(game: NepaliGame, state: NepaliState, player: int) -> bool:
    """Whether ``player`` may look at the tiplu (seen, or ``open_maal``)."""
    return state.tiplu >= 0 and (state.seen[player] or game.config.open_maal)


def known_cards(state: NepaliState, player: int, other: int) -> np.ndarray:
    """Cards ``player`` knows ``other`` holds: taken from the pile and not discarded or shown
    since (a lower bound: a discarded copy may have been another one)."""
    if other == player:
        return state.hands[player].astype(np.int64)
    taken = state.records[1, other].astype(np.int64)
    gone = state.records[0, other].astype(np.int64) + state.shown[other]
    return np.minimum(np.maximum(taken - gone, 0), state.hands[other])


def determinize(game: NepaliGame, state: NepaliState, player: int,
                rng: np.random.Generator) -> NepaliState:
    """A copy of ``state`` in which the cards ``player`` cannot see are dealt at random,
    consistently with hand sizes and the pick-ups ``player`` remembers; the table's reshuffle
    seed is redrawn (a simulation that recycles the pile must not do so in the true order)."""
    s = state.clone()
    n = game.num_players
    known = [known_cards(state, player, q) for q in range(n)]
    pool = np.bincount(state.table.stock, minlength=NUM_KINDS).astype(np.int64)
    for q in range(n):
        if q != player:
            pool += state.hands[q] - known[q]
    hidden_tiplu = state.tiplu >= 0 and not knows_tiplu(game, state, player)
    if hidden_tiplu:
        pool[state.tiplu] += 1
    cards = np.repeat(np.arange(NUM_KINDS), pool)
    rng.shuffle(cards)
    cards = cards.tolist()
    if hidden_tiplu:  # a printed joker is redrawn, unless the spades-ace rule keeps it
        keep_man = game.config.man_tiplu == "spades_ace"
        i = next(i for i, c in enumerate(cards) if keep_man or c != JOKER)
        s.tiplu = cards.pop(i)
    for q in range(n):
        if q == player:
            continue
        need = int(state.hands[q].sum() - known[q].sum())
        s.hands[q] = known[q] + np.bincount(cards[:need], minlength=NUM_KINDS)
        cards = cards[need:]
    s.table.stock = cards
    s.table.seed = int(rng.integers(2**63))
    s.mask = None
    return s


_EXPERT: list = [None, None]  # the last game and its expert (one game per search agent)
# (printed jokers, tiplu card) -> wild kinds as bools (a Man tiplu card implies spades_ace)
_WILD: dict[tuple[int, int], np.ndarray] = {}


def wild_mask(game: NepaliGame, state: NepaliState) -> np.ndarray:
    """The round's wild kinds as a bool per kind (the tiplu must be drawn)."""
    key = (game.config.printed_jokers, state.tiplu)
    mask = _WILD.get(key)
    if mask is None:
        mask = _WILD[key] = np.zeros(NUM_KINDS, bool)
        mask[list(game.roles(state).wild)] = True
    return mask


def rollout(game: NepaliGame, state: NepaliState, rng: np.random.Generator) -> int:
    """The heuristic's move for the seat to move, from what that seat knows."""
    mask = game.legal_mask(state)
    if _EXPERT[0] is not game:
        _EXPERT[:] = game, Expert(game.config)
    expert = _EXPERT[1]
    p = state.current
    wild = wild_mask(game, state) if knows_tiplu(game, state, p) else _NO_WILD
    return expert.rank(state.hands[p], wild, state.seen[p], state.route[p] == DUBLEE,
                       state.table.top, mask)[0]


def evaluate(game: NepaliGame, state: NepaliState) -> np.ndarray:
    """Returns so far plus the round's expected settlement (× the deal's stake) if it ended
    now with one of the seen players finishing: every holding's maal as it stands, and the
    finisher drawn with a weight ``exp(-loose / TEMPERATURE)``, ``loose`` being its concealed
    natural cards with no partner for a combination, less its wild cards (on the dublee
    route: 0 with a pair, else 1). Before anyone has seen, nothing is known to be owed."""
    out = game.returns(state)
    seen = [p for p in range(game.num_players) if state.seen[p]]
    if state.over or not seen:
        return out
    cfg, wild = game.config, wild_mask(game, state)
    raw = [c["maal"] for c in game.maal_counts(state)]
    dublee = [p for p in seen if state.route[p] == DUBLEE]
    weights, nets = [], []
    for w in seen:
        hand = state.hands[w]
        if state.route[w] == DUBLEE:
            loose = 0.0 if (hand[:cfg.dublee_kinds] >= 2).any() else 1.0
        else:
            natural = (hand[:JOKER] > 0) & ~wild[:JOKER]
            lone = natural & (meld_partners(hand * ~wild) == 0) & (hand[:JOKER] < 3)
            loose = max(0.0, float(hand[:JOKER][lone].sum() - hand[wild].sum()))
        weights.append(math.exp(-loose / TEMPERATURE))
        nets.append(settlement.settle(raw, state.seen, w, cfg, ROUTES[state.route[w]], dublee,
                                      state.fouls if cfg.foul_payee == "winner" else None))
    expected = np.asarray(weights) @ np.asarray(nets, np.float64) / sum(weights)
    return out + expected * game.deal_stake(state)
