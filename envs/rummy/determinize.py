"""What one rummy seat cannot see, dealt afresh: the shared half of the rummy determinizers.

Continental, Marriage and Rommé hide the same things: the other seats' hands and the stock's
order. A seat knows its own hand, every face-up card (the discard pile; Rommé's melds;
Marriage's indicator, set-aside dublees and the hands of invalid shows), every hand size and the
stock size, and the cards a seat took from the pile and has not played since. Those holdings
are known only as a count per kind (the public records keep taken and discarded counts per
round, not their order), so ``taken - played`` clipped at zero is what is known for sure.

:func:`redeal` deals everything else at random. The unseen pool is computed from public
counts (``shoe - seen - known``), never from the hidden cards, and is checked against the
hidden slots it must fill. The table's reshuffle seed is redrawn too: a simulation that
empties the stock must not rebuild it in the true future order.

What is not used (a determinization stays consistent with the observation vectors, which
drop the same history): after a reshuffle, which of the pile's old cards other seats have
drawn since; jokers a Rommé seat took by exchange.
"""

from __future__ import annotations

import numpy as np

from taas.envs.core.cards import JOKER, NUM_KINDS, NUM_RANKS
from taas.envs.rummy.table import Table

_KINDS = np.arange(NUM_KINDS)
_RANK = _KINDS[:JOKER] % NUM_RANKS
_SUIT = _KINDS[:JOKER] // NUM_RANKS
_NEAR = (
    ((_RANK[:, None] == _RANK) & (_SUIT[:, None] != _SUIT))
    | ((_SUIT[:, None] == _SUIT) & (np.abs(_RANK[:, None] - _RANK) <= 2)
       & (_RANK[:, None] != _RANK))
).astype(np.int64)
"""``_NEAR[a, b]``: natural kinds ``a`` and ``b`` could share a meld (same rank, other suit;
or same suit, within two ranks)."""


def known_holdings(taken: np.ndarray, played: np.ndarray) -> np.ndarray:
    """Per seat and kind, the copies a seat surely holds: taken from the pile minus played
    (discarded, melded, set aside), clipped at zero. A lower bound whatever the order was,
    because a hand only loses a kind by playing it."""
    return np.maximum(taken.astype(np.int64) - played.astype(np.int64), 0)


def redeal(
    hands: np.ndarray,
    table: Table,
    seats: list[int],
    seen: np.ndarray,
    known: np.ndarray,
    shoe: np.ndarray,
    rng: np.random.Generator,
) -> None:
    """Deal the hidden cards of ``seats`` and the stock afresh, in place.

    ``seen``: counts of every card the observer can place outside ``seats``' hands and the
    stock (its own hand, the pile, the game's face-up zones); ``known``: (players, kinds) cards
    each of ``seats`` surely holds (kept in that hand). Hand sizes and the stock size are
    public and kept; the table gets a fresh reshuffle seed.
    """
    pool = shoe.astype(np.int64) - seen.astype(np.int64) - known[seats].sum(axis=0)
    sizes = hands[seats].sum(axis=1).astype(np.int64) - known[seats].sum(axis=1)
    if pool.min() < 0 or sizes.min() < 0 or pool.sum() != sizes.sum() + len(table.stock):
        raise ValueError(
            f"public counts do not fit the hidden slots: {int(pool.sum())} unseen cards for "
            f"{int(sizes.sum())} hidden hand cards and a stock of {len(table.stock)}"
        )
    cards = np.repeat(_KINDS, pool)
    rng.shuffle(cards)
    start = 0
    for q, size in zip(seats, sizes.tolist(), strict=True):
        hands[q] = known[q] + np.bincount(cards[start : start + size], minlength=NUM_KINDS)
        start += size
    table.stock = cards[start:].tolist()
    table.seed = int(rng.integers(2**63))


def leaf_returns(
    returns: np.ndarray,
    seats: list[int],
    charges: np.ndarray,
    distances: np.ndarray,
    temperature: float,
    reward: str,
    rival: float | None = None,
) -> np.ndarray:
    """The search's estimate of a round cut short: each of ``seats`` goes out first with a
    probability falling with its distance from going out (a softmax of ``-distances /
    temperature``; ``inf`` never wins) and otherwise pays its ``charges`` (what it would pay if
    the round ended now). With ``rival`` each seat races as many rivals at that distance
    instead of the others' dealt hands: a seat's value then depends on its own cards only,
    which the determinization leaves alone, so its estimate is far less noisy. Expressed in
    the env's ``reward`` (``points``, ``zero_sum``, ``win``) on top of the ``returns`` so far."""
    d = np.asarray(distances, np.float64)
    if rival is None:
        weight = np.exp(-(d - d.min()) / temperature)
        win = weight / weight.sum()
    else:
        win = 1.0 / (1.0 + (len(seats) - 1) * np.exp((d - rival) / temperature))
    expected = (1.0 - win) * charges
    out = np.array(returns, np.float64)
    if reward == "points":
        out[seats] -= expected
    elif reward == "zero_sum":
        out[seats] += expected.mean() - expected
    else:
        lose = 1.0 / (len(seats) - 1)
        out[seats] += win * (1.0 + lose) - lose
    return out


def meld_partners(hand: np.ndarray) -> np.ndarray:
    """Per natural kind, how many held kinds could share a set or a run with it: the
    rollout players' measure of a loose card (one matrix product per decision)."""
    return _NEAR @ (hand[:JOKER] > 0)
