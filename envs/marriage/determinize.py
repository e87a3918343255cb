"""What one Marriage seat cannot see, dealt afresh, and a fast player for the search's
rollouts (the shared rummy part: :mod:`taas.envs.rummy.determinize`).

Besides its own hand and the discard pile a seat sees the wild-card indicator, the dublees set
aside by swaps and the hands revealed by invalid shows (those seats are out of the round, so
their hands stay as revealed). A cut-short rollout is scored by each hand's least deadwood
(the penalty it would pay now), which also says how far it is from showing. The search
compares only the heuristic's best draws, discards and swaps (``WIDTH``); a valid show it
plays at once, as the heuristic does.
"""

from __future__ import annotations

import numpy as np

from taas.envs.core.cards import JOKER
from taas.envs.marriage import actions as A
from taas.envs.marriage.rules import DRAW, MarriageGame, MarriageState
from taas.envs.rummy import melds
from taas.envs.rummy.determinize import (
    known_holdings,
    leaf_returns,
    meld_partners,
    redeal,
)

ROLLOUT_DEPTH = 6  # a turn of every seat at three players: the deadwood solver scores the rest
RANDOM_MOVES = 0.1  # share of random rollout moves
WIDTH = 3  # the expert's best moves the paired search compares (agents/search/ismcts.py)
CONFIDENCE = 1.0  # standard errors a move must gain over the expert's choice to replace it
TEMPERATURE = 15.0  # in penalty points (see evaluate)


def determinize(game: MarriageGame, state: MarriageState, player: int,
                rng: np.random.Generator) -> MarriageState:
    """A copy of ``state`` whose hidden hands and stock are dealt at random from the cards
    ``player`` has not seen, each hand keeping its size and the pile cards it surely holds."""
    s = state.clone()
    t = s.table
    known = known_holdings(t.taken_by, t.discarded_by + state.set_aside)
    hidden = [q for q in range(game.num_players) if q != player and q not in state.dead]
    seen = (state.hands[player] + t.pile + state.set_aside.sum(axis=0)
            + state.revealed.sum(axis=0))
    seen[state.indicator] += 1
    redeal(s.hands, t, hidden, seen, known, game.shoe(state), rng)
    s.mask = None
    return s


def rollout(game: MarriageGame, state: MarriageState, rng: np.random.Generator) -> int:
    """A greedy player: take a wild discard or one that fits two held cards; show when it can
    (validly), shedding its dearest card; else shed the least connected card that is not wild, the
    dearest first. One move in ten is random."""
    mask = game.legal_mask(state)
    legal = np.flatnonzero(mask)
    if len(legal) == 1:
        return int(legal[0])
    if rng.random() < RANDOM_MOVES:
        return int(legal[rng.integers(len(legal))])
    hand = state.hands[state.current]
    wild = state.wild
    if state.phase == DRAW:
        top = state.table.top
        wanted = top >= 0 and (wild[top] or top == JOKER or meld_partners(hand)[top] >= 2)
        if mask[A.DRAW_DISCARD] and (wanted or not mask[A.DRAW_STOCK]):
            return A.DRAW_DISCARD
        return A.DRAW_STOCK
    show = _show(game, state, mask)
    if show is not None:
        return show
    values = np.asarray(game.scorer(state).rules.values)
    kinds = legal[legal < A.SHOW] - A.DISCARD
    partners = np.append(meld_partners(hand), 0) + 99 * wild  # keep wild cards and jokers
    key = partners[kinds] * 100 - values[kinds]
    return A.DISCARD + int(kinds[np.argmin(key)])


def _show(game: MarriageGame, state: MarriageState, mask: np.ndarray) -> int | None:
    """A valid show shedding the dearest card, if the mover has one (under ``"penalize"``
    the mask also offers invalid shows)."""
    scorer = game.scorer(state)
    hand = state.hands[state.current]
    penalize = game.config.invalid_show == "penalize"
    shows = mask[A.SHOW : A.SHOW_ALL] > 0
    if penalize and shows.any():
        shows &= scorer.show_discards(hand)
    kinds = np.flatnonzero(shows)
    if kinds.size:
        return A.SHOW + int(kinds[np.argmax(np.asarray(scorer.rules.values)[kinds])])
    if mask[A.SHOW_ALL] and (not penalize or scorer.can_show(hand)):
        return A.SHOW_ALL
    return None


def evaluate(game: MarriageGame, state: MarriageState) -> np.ndarray:
    """Returns so far plus each seat's expected penalty this round: its least deadwood, unless
    it shows first (likelier the less deadwood it holds). A seat out by an invalid show pays
    its fixed penalty and cannot show."""
    rules = game.scorer(state).rules
    seats = list(state.active)
    charges = np.array([state.fixed_penalty[q] if q in state.dead
                        else melds.deadwood(state.hands[q], rules) for q in seats], np.float64)
    distances = np.where([q in state.dead for q in seats], np.inf, charges)
    return leaf_returns(game.returns(state), seats, charges, distances, TEMPERATURE,
                        game.config.reward)
