"""The rummy table every draw-and-discard game shares: stock, discard pile, per-seat records.

One vocabulary for the three rummies (Continental, Marriage, Rommé), so each engine keeps only
what differs (its deal, its melds, its extra ways to take cards):

- ``stock``: list of card kinds, top at the end; ``discard``: the pile, top at the end;
  ``pile``: the pile as counts per kind (the observation copies it as it is).
- ``discarded_by`` / ``taken_by``: (players, kinds) count rows of what each seat discarded and
  took from the pile this round. They are *views into the game's own public array*, so an
  observation still copies each seat's whole record as one block; the game passes the views in
  (and new views into its copied array to :meth:`Table.copy`).
- ``first_up``: the card turned up to start the pile (-1 when none was). It was face up and
  nobody discarded it, so it stays in the public record after a reshuffle buries it.
- ``drawn_discard``: the kind of the last :meth:`take` since the last :meth:`draw` (-1 after
  a draw): the mover's card for the re-discard ban.
- The stock is rebuilt whenever it is empty and the pile holds more than its top card: the
  pile but its top card, shuffled. :meth:`draw`, :meth:`draw_first` and :meth:`discard_card` check
  it, so at every decision point ``stock == [] implies len(discard) <= 1`` (Continental,
  Marriage, Rommé ``"reshuffle"``). ``reshuffle=False`` never rebuilds (Rommé ``"block"``: the
  engine ends the round when the stock is empty). ``reshuffle_on_draw=True`` rebuilds only when
  a draw from the empty stock is made (Nepali Marriage 2N.8): the card on top when the last
  stock card went is recycled too once buried, and :meth:`refill` rebuilds on demand (the
  tiplu pick); :attr:`can_draw` says whether a stock draw is possible either way.
- Randomness: every shuffle (the deal and each reshuffle) uses a generator derived from
  ``(seed, shuffles)``, the count of shuffles so far. The episode replays from its seed, and a
  clone copies two ints instead of a ``np.random.Generator`` (whose deepcopy costs ~50-100 µs).

How each engine calls it (Continental is ported; Marriage and Rommé follow the same pattern):

- **Continental**: ``deck = table.shuffled(shoe)``; deal ``deck[:n * size]``; then
  ``table.start(rest[:-1], rest[-1:])``. Draw phase: ``table.draw()`` / ``table.take(p)``; the
  discard: ``table.discard_card(p, card)``. Buying: ``table.take(buyer)`` then ``table.draw()`` per
  penalty card. The mask bans ``table.drawn_discard``.
- **Marriage**: ``face_up[0]``/``face_up[1]`` are passed as ``discarded_by``/``taken_by``
  (``face_up`` stays one block for the observation). The deal: ``deck = table.shuffled(shoe)``;
  the printed-joker redraw takes its insert positions from ``rng = table.rng()``; after the
  indicator is taken off, ``table.start(stock[:-1], stock[-1:])``. Draw phase and discards as
  in Continental; the dublee swap: ``table.draw_first(state.wild)`` (the first wild card from
  the top, else the top card). ``_pop_stock``/``_refill`` go away: the table refills after
  every draw and discard, so the round is void exactly when the next player must draw and
  ``not table.stock``. ``pile_counts`` becomes ``table.pile``.
- **Rommé**: ``Table(..., reshuffle=config.on_stock_empty == "reshuffle")`` over the public
  columns ``discarded``/``taken``. The deal: ``table.start(rest, [])`` with
  ``first_player_extra_card`` (no up-card, ``first_up == -1``), else
  ``table.start(rest[:-1], rest[-1:])``. ``DRAW_DISCARD`` reads ``table.top``; under ``"block"``
  the engine ends the round at the end of a turn when ``not table.stock``. Its own ``pile`` and
  ``discard`` fields, ``_refill`` and ``refresh_public``'s pile recount go away (hand-built
  test positions call ``table.start``).
"""

from __future__ import annotations

import numpy as np

from taas.envs.core.cards import NUM_KINDS
from taas.envs.core.jit import jit_norc


class Table:
    """Stock, discard pile and the seats' public pile records of one rummy round (see module
    docstring). Mutated in place by the engine; :meth:`copy` for clones."""

    __slots__ = (
        "discard",
        "discarded_by",
        "drawn_discard",
        "first_up",
        "pile",
        "reshuffle",
        "reshuffle_on_draw",
        "seed",
        "shuffles",
        "stock",
        "taken_by",
    )

    def __init__(
        self,
        discarded_by: np.ndarray,
        taken_by: np.ndarray,
        seed: int,
        reshuffle: bool = True,
        reshuffle_on_draw: bool = False,
    ):
        if discarded_by.shape != taken_by.shape or discarded_by.shape[1:] != (NUM_KINDS,):
            raise ValueError(
                f"discarded_by {discarded_by.shape} and taken_by {taken_by.shape} must both be "
                f"(players, {NUM_KINDS})"
            )
        self.discarded_by = discarded_by
        self.taken_by = taken_by
        self.seed = seed
        self.shuffles = 0
        self.reshuffle = reshuffle
        self.reshuffle_on_draw = reshuffle_on_draw
        self.stock: list[int] = []
        self.discard: list[int] = []
        self.pile = np.zeros(NUM_KINDS, np.int8)
        self.first_up = -1
        self.drawn_discard = -1

    # -- randomness -------------------------------------------------------------------------
    def rng(self) -> np.random.Generator:
        """A generator for one random event (a deal, a reshuffle): the next in this episode's
        sequence, derived from ``(seed, shuffles)``."""
        self.shuffles += 1
        return np.random.default_rng((self.seed, self.shuffles))

    def shuffled(self, counts: np.ndarray) -> list[int]:
        """The cards of a count vector in a random order (index -1 is the top)."""
        cards = np.repeat(np.arange(len(counts)), counts)
        self.rng().shuffle(cards)
        return cards.tolist()

    # -- the round ----------------------------------------------------------------------------
    def start(self, stock: list[int], discard: list[int]) -> None:
        """A new round: this stock and pile (bottom to top; the first pile card is the up-card,
        or none when ``discard`` is empty), empty records."""
        self.stock = stock
        self.discard = discard
        self.pile[:] = np.bincount(discard, minlength=NUM_KINDS) if discard else 0
        self.discarded_by[:] = 0
        self.taken_by[:] = 0
        self.first_up = discard[0] if discard else -1
        self.drawn_discard = -1

    @property
    def top(self) -> int:
        """The top card of the pile, -1 when the pile is empty."""
        return self.discard[-1] if self.discard else -1

    @property
    def can_draw(self) -> bool:
        """Whether a stock draw is possible now (from the stock, or from the pile recycled by
        the draw itself under ``reshuffle_on_draw``)."""
        return bool(self.stock) or (self.reshuffle_on_draw and self.reshuffle
                                    and len(self.discard) > 1)

    def draw(self) -> int:
        """Take the top stock card (the caller puts it in a hand)."""
        if self.reshuffle_on_draw:
            self.refill()
        card = self.stock.pop()
        self.drawn_discard = -1
        if not self.stock and not self.reshuffle_on_draw:
            self.refill()
        return card

    def draw_first(self, wanted: np.ndarray) -> int:
        """Take the stock card nearest the top whose kind is ``wanted`` (a bool per kind), or
        the top card when none is (Marriage's dublee swap: the first wild card)."""
        if self.reshuffle_on_draw:
            self.refill()
        stock = self.stock
        for i in range(len(stock) - 1, -1, -1):
            if wanted[stock[i]]:
                card = stock.pop(i)
                break
        else:
            card = stock.pop()
        if not stock and not self.reshuffle_on_draw:
            self.refill()
        return card

    def take(self, player: int) -> int:
        """``player`` takes the top discard: recorded in ``taken_by`` and ``drawn_discard``."""
        card = self.discard.pop()
        self.pile[card] -= 1
        self.taken_by[player, card] += 1
        self.drawn_discard = card
        return card

    def discard_card(self, player: int, card: int) -> None:
        """``player`` puts ``card`` face up on the pile (recorded in ``discarded_by``)."""
        self.discard.append(card)
        self.pile[card] += 1
        self.discarded_by[player, card] += 1
        if not self.stock and not self.reshuffle_on_draw:
            self.refill()

    def refill(self) -> None:
        """Rebuild an empty stock from the pile but its top card, if the policy allows (a
        non-empty stock is left alone)."""
        if self.reshuffle and not self.stock and len(self.discard) > 1:
            top = self.discard[-1]
            self.stock = self.shuffled(np.bincount(self.discard[:-1], minlength=NUM_KINDS))
            self.discard = [top]
            self.pile[:] = 0
            self.pile[top] = 1

    # -- copies and accounting --------------------------------------------------------------
    def copy(self, discarded_by: np.ndarray, taken_by: np.ndarray) -> Table:
        """An independent table over the clone's own record views."""
        c = Table.__new__(Table)
        c.stock = self.stock.copy()
        c.discard = self.discard.copy()
        c.pile = self.pile.copy()
        c.discarded_by = discarded_by
        c.taken_by = taken_by
        c.first_up = self.first_up
        c.drawn_discard = self.drawn_discard
        c.seed = self.seed
        c.shuffles = self.shuffles
        c.reshuffle = self.reshuffle
        c.reshuffle_on_draw = self.reshuffle_on_draw
        return c

    def zones(self) -> dict[str, np.ndarray]:
        """The stock and the pile as count vectors (for card conservation checks)."""
        return {
            "stock": np.bincount(self.stock, minlength=NUM_KINDS),
            "discard": np.bincount(self.discard, minlength=NUM_KINDS),
        }


# The observation of a rummy table starts with the same five blocks in every game.
OBS_HAND, OBS_TOP, OBS_PILE, OBS_UP, OBS_SEATS = (i * NUM_KINDS for i in range(5))


@jit_norc
def encode_table(obs, hand, pile, public, per_copy, seat_scale, player, top, first_up):
    """Fill the first blocks of a zeroed rummy observation (compiled, called from each game's
    compiled encoder): ``hand`` and ``pile`` counts times ``per_copy``, the top discard and the
    first up-card one-hot, then every seat's ``public`` row from ``player`` on (clockwise),
    times ``seat_scale`` and capped at 1."""
    for k in range(NUM_KINDS):
        obs[OBS_HAND + k] = hand[k] * per_copy[k]
    if top >= 0:
        obs[OBS_TOP + top] = 1.0
        for k in range(NUM_KINDS):
            obs[OBS_PILE + k] = pile[k] * per_copy[k]
    if first_up >= 0:
        obs[OBS_UP + first_up] = 1.0
    n, size = public.shape
    for i in range(n):
        p = (player + i) % n
        start = OBS_SEATS + i * size
        for j in range(size):
            obs[start + j] = min(public[p, j] * seat_scale[j], 1.0)
