"""What one Continental seat cannot see, dealt afresh, and a fast player for the search's
rollouts (the shared rummy part: :mod:`taas.envs.rummy.determinize`).

Continental melds nothing before going out, so what a seat sees is its own hand, the discard
pile and the seats' pile records (whatever the others took and have not discarded is still
theirs). A hand that goes out pays nothing, every other hand pays all its cards: going out
is never searched (it is the heuristic's only candidate), and a cut-short rollout is scored
by how many cards each hand still has to draw, each raced against rivals at ``RIVAL`` cards
rather than against the others' dealt hands, which differ in every determinization and would
drown the few points between two discards in noise.
"""

from __future__ import annotations

import numpy as np

from taas.envs.continental import actions as A
from taas.envs.continental.hands import CARD_VALUES, penalty
from taas.envs.continental.rules import BUY, DRAW, ContinentalGame, ContinentalState
from taas.envs.core.cards import JOKER, NUM_RANKS
from taas.envs.rummy.determinize import (
    known_holdings,
    leaf_returns,
    redeal,
)

ROLLOUT_DEPTH = 4  # the other seats' turns after the move: what they take from the pile
WIDTH = 3  # the expert's best moves the paired search compares (agents/search/ismcts.py)
CONFIDENCE = 1.0  # standard errors a move must gain over the expert's choice to replace it
TEMPERATURE = 1.0  # in cards still to draw (see distance)
RANDOM_MOVES = 0.1  # share of random rollout moves
RIVAL = 4.0  # the distance of the rivals each seat races (see leaf_returns)
_RANK = np.arange(JOKER) % NUM_RANKS


def determinize(game: ContinentalGame, state: ContinentalState, player: int,
                rng: np.random.Generator) -> ContinentalState:
    """A copy of ``state`` whose other hands and stock are dealt at random from the cards
    ``player`` has not seen, each hand keeping its size and the pile cards it surely holds."""
    s = state.clone()
    t = s.table
    known = known_holdings(t.taken_by, t.discarded_by)
    others = [q for q in range(game.num_players) if q != player]
    seen = state.hands[player] + t.pile
    redeal(s.hands, t, others, seen, known, game.shoe(state), rng)
    s.mask = None
    return s


def _per_rank(hand: np.ndarray) -> np.ndarray:
    return hand[:JOKER].reshape(4, NUM_RANKS).sum(axis=0)


def distance(hand: np.ndarray, size: int) -> int:
    """Cards to draw before ``hand`` lies in groups of ``size`` cards: keep every rank held
    three times or more and the jokers, then the pairs and single cards worth keeping; each
    card short of ``size`` and each card a kept pair or single lacks (beyond the jokers) is a
    draw, and one draw can serve both."""
    ranks = _per_rank(hand)
    kept = int(ranks[ranks >= 3].sum()) + int(hand[JOKER])
    pairs, singles = int((ranks == 2).sum()), int((ranks == 1).sum())
    jokers = int(hand[JOKER])
    best = size
    for p in range(pairs + 1):
        for k in range(singles + 1 if p == pairs else 1):
            best = min(best, max(size - kept - 2 * p - k, p + 2 * k - jokers))
    return max(best, 0)


def rollout(game: ContinentalGame, state: ContinentalState, rng: np.random.Generator) -> int:
    """A greedy player: take a discard whose rank it holds (or a joker), buy one that makes a
    group, go out when it can shedding its dearest card, else shed a card of its rarest rank,
    the dearest first; one move in ten is random."""
    mask = game.legal_mask(state)
    if rng.random() < RANDOM_MOVES:
        legal = np.flatnonzero(mask)
        return int(legal[rng.integers(len(legal))])
    hand = state.hands[state.current]
    ranks = _per_rank(hand)
    top = state.table.top
    if state.phase == DRAW:
        wanted = top >= 0 and (top == JOKER or ranks[top % NUM_RANKS] >= 1)
        return A.DRAW_DISCARD if mask[A.DRAW_DISCARD] and (wanted or not mask[A.DRAW_STOCK]) \
            else A.DRAW_STOCK
    if state.phase == BUY:
        return A.BUY if top != JOKER and ranks[top % NUM_RANKS] >= 2 else A.PASS
    out = np.flatnonzero(mask[A.GO_OUT : A.GO_OUT_NO_DISCARD])
    if out.size:
        return A.GO_OUT + int(out[np.argmax(CARD_VALUES[out])])
    if mask[A.GO_OUT_NO_DISCARD]:
        return A.GO_OUT_NO_DISCARD
    kinds = np.flatnonzero(mask[A.DISCARD : A.DISCARD + JOKER])
    if not kinds.size:
        return A.DISCARD + JOKER
    key = ranks[_RANK[kinds]] * 100 - CARD_VALUES[kinds]
    return A.DISCARD + int(kinds[np.argmin(key)])


def evaluate(game: ContinentalGame, state: ContinentalState) -> np.ndarray:
    """Returns so far plus each active seat's expected charge this round: its whole hand,
    unless it goes out first (likelier the fewer cards it still has to draw)."""
    seats = state.active
    charges = np.array([penalty(state.hands[q]) for q in seats], np.float64)
    size = game.config.deal_size  # the hand that goes out: all but the last discard
    distances = np.array([distance(state.hands[q], size) for q in seats], np.float64)
    return leaf_returns(game.returns(state), seats, charges, distances, TEMPERATURE,
                        game.config.reward, RIVAL if RIVAL >= 0 else None)
