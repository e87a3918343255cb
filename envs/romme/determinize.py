"""What one Rommé seat cannot see, dealt afresh, and a fast player for the search's rollouts
(the shared rummy part: :mod:`taas.envs.rummy.determinize`).

Besides its own hand and the discard pile a seat sees every meld on the table. Melds do not
record which seat laid each card, so a card a seat took from the pile counts as still held
only beyond the copies of its kind now on the table. The search compares only the heuristic's
best draws and discards (``WIDTH``); melds, lay-offs and exchanges it plays as the heuristic
does. Its rollouts play the round on as the expert would, most of them to the round's end, so
a move is scored by the true charges (cut after two turns and scored by hand sizes, the search
did not beat the heuristic). A rollout still cut short is scored by hand sizes (public, so the
same in every determinization): an opened hand sheds cards fast, one that has not opened
still needs its 40.
"""

from __future__ import annotations

import numpy as np

from taas.envs.core.cards import JOKER, NUM_KINDS
from taas.envs.romme import actions as A
from taas.envs.romme.rules import DRAW, HAND_VALUES, RommeGame, RommeState, charge, hand_value
from taas.envs.rummy.determinize import (
    known_holdings,
    leaf_returns,
    meld_partners,
    redeal,
)

ROLLOUT_DEPTH = 40  # most of a round (three players: 50 moves on average), cut to bound a decision
WIDTH = 3  # the expert's best moves the paired search compares (agents/search/ismcts.py)
CONFIDENCE = 1.0  # standard errors a move must gain over the expert's choice to replace it
TEMPERATURE = 2.0  # in cards (see evaluate)
UNOPENED = 4  # cards a hand that has not opened counts as being further from going out


def table_cards(state: RommeState) -> np.ndarray:
    """Counts of the cards in the melds on the table."""
    cards = [c for m in state.melds for c in m.cards()]
    return np.bincount(cards, minlength=NUM_KINDS) if cards else np.zeros(NUM_KINDS, np.int64)


def determinize(game: RommeGame, state: RommeState, player: int,
                rng: np.random.Generator) -> RommeState:
    """A copy of ``state`` whose other hands and stock are dealt at random from the cards
    ``player`` has not seen, each hand keeping its size and the pile cards it surely holds."""
    s = state.clone()
    t = s.table
    on_table = table_cards(state)
    known = known_holdings(t.taken_by, t.discarded_by + on_table)
    others = [q for q in range(game.num_players) if q != player]
    seen = state.hands[player] + t.pile + on_table
    redeal(s.hands, t, others, seen, known, game.shoe(state), rng)
    s.mask = None
    return s


def rollout(game: RommeGame, state: RommeState, rng: np.random.Generator) -> int:
    """The expert's own continuation (:func:`greedy`), with no random moves: a paired sample
    then measures what a move is worth when every seat plays on as the expert does (one step
    of policy improvement), and only the dealt cards differ between samples."""
    mask = game.legal_mask(state)
    return greedy(game, state, mask, np.flatnonzero(mask))


def greedy(game: RommeGame, state: RommeState, mask: np.ndarray, legal: np.ndarray) -> int:
    """What :class:`~taas.agents.heuristic.romme.RommeHeuristicAgent` plays, read from the
    state: take a discard that fits two held cards (or a joker); exchange jokers; lay the most
    valuable melds (the opening once it reaches the minimum); lay off natural cards, the
    dearest first, a joker only near the end; shed the least connected card, the dearest
    first; abandon an opening that cannot be finished."""
    if len(legal) == 1:
        return int(legal[0])
    hand = state.hands[state.current]
    if state.phase == DRAW:
        top = state.table.top
        wanted = top == JOKER or (top >= 0 and meld_partners(hand)[top] >= 2)
        if mask[A.DRAW_DISCARD] and (wanted or not mask[A.DRAW_STOCK]):
            return A.DRAW_DISCARD
        return A.DRAW_STOCK
    swaps = legal[(legal >= A.EXCHANGE) & (legal < A.MELD)]
    if swaps.size:
        return int(swaps[0])
    if legal[-1] >= A.MELD:
        opened = state.opened[state.current]
        need = None if opened else game.config.opening_min - state.pending_value
        _, plan = game.opening.best(hand, need)
        for shape in plan:
            if mask[A.MELD + shape]:
                return A.MELD + shape
    lay_ids, lay_kinds = state.offers[0], state.offers[1]
    offered = mask[lay_ids] > 0
    natural = offered & (lay_kinds != JOKER)
    if natural.any():
        return int(lay_ids[natural][np.argmax(HAND_VALUES[lay_kinds[natural]])])
    kinds = legal[(legal >= A.DISCARD) & (legal < A.LAY_OFF)] - A.DISCARD
    if offered.any() and (not kinds.size or state.sizes[state.current] <= 3):
        return int(lay_ids[offered][0])
    if kinds.size:
        partners = np.append(meld_partners(hand), 99)  # a joker fits anything
        key = partners[kinds] * 100 - HAND_VALUES[kinds]
        return A.DISCARD + int(kinds[np.argmin(key)])
    return A.ABANDON if mask[A.ABANDON] else int(legal[0])


def evaluate(game: RommeGame, state: RommeState) -> np.ndarray:
    """Returns so far plus each seat's expected charge this round: its hand (with the
    never-opened surcharge), unless it goes out first (likelier the fewer cards it holds)."""
    cfg = game.config
    seats = list(range(game.num_players))
    charges = np.array(
        [charge(hand_value(state.hands[q]), bool(state.opened[q]), cfg)[0] for q in seats],
        np.float64,
    )
    distances = np.array(state.sizes, np.float64) + UNOPENED * (1 - state.opened)
    return leaf_returns(game.returns(state), seats, charges, distances, TEMPERATURE, cfg.reward)
