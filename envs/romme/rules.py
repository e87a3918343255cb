"""Rommé rules engine (rules: docs/rules/romme.md).

Hands are count vectors over card kinds; the table is a list of :class:`TableMeld`. A turn is
two phases: DRAW (stock or discard pile), then PLAY: any number of melds, lay-offs and joker
exchanges, ended by a discard (or by going out).

Decisions the rules leave to the engine (documented in the env docstring too):
- A lay-off names the table slot and the run end (or the set's suit); an exchange names the
  slot and the joker (by the rank it stands for in a run, by the suit put in a set).
- Before opening, meld shapes are offered only while the hand and the melds pending this turn
  can still reach ``opening_min`` (exact search, :mod:`taas.envs.rummy.opening`); the pending melds
  lie on the table marked provisional and count once they reach the minimum. ``abandon`` takes
  them back. With ``discard_draw_requires_opening`` the opening also needs the card taken from
  the pile, and the pile may be taken only when such an opening exists.
- No dead ends: an action is offered only if the turn can still end by the rules after it
  (:meth:`RommeGame.alive`). With ``exchanged_joker_must_be_used`` an exchanged joker must go
  back on the table (melded or laid off) before the discard, so an exchange is offered only if
  the joker can then be placed, and while it is owed an action is offered only if the joker can
  still be placed at once afterwards (a line that first needs other cards laid is not offered:
  lay those cards first, then exchange). The card just taken from the pile is never discarded
  in that turn, also not to go out, so play that would leave only that card is not offered
  unless it can be laid off (``rediscard_ban_lapses=True`` restores v0: the ban lapses when
  nothing else is left). Cards barred by kind: two copies of the taken card are both barred.
- With ``may_discard_joker=False`` a hand with nothing else to discard may discard a joker (a
  stock draw cannot be refused, so this bar lapses).
- ``lay_off_on_opening_turn=False`` also delays joker exchanges to later turns.
- With ``hand_rummy_ignores_opening_min`` a player whose going out this turn would be a
  Hand-Rommé may meld below the minimum; the discard still needs the minimum unless it is the
  last card.
- Stock, discard pile, the seats' pile records, the reshuffle (``on_stock_empty="reshuffle"``:
  the pile but its top card becomes the stock) and every shuffle come from the shared
  :class:`~taas.envs.rummy.table.Table`; under ``"block"`` the round ends at the end of a turn
  that leaves the stock empty.
- The never-opened cap "half the target" is rounded down.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from taas.envs.core.cards import JOKER, NUM_KINDS, card_str, cards_str, from_counts, shoe
from taas.envs.core.game import Game, State, make_layout
from taas.envs.core.jit import jit_norc
from taas.envs.romme import actions as A
from taas.envs.romme import config
from taas.envs.romme.config import Config
from taas.envs.romme.table import TableMeld, meld_from_shape
from taas.envs.rummy.opening import opening_search
from taas.envs.rummy.series import series_info
from taas.envs.rummy.table import Table

DRAW, PLAY = 0, 1
PHASES = ("draw", "play")
MAX_MELDS = A.MAX_MELDS
MAX_HAND = 15
"""The most cards a hand holds: 14 dealt (``hand_size=14``) and one drawn."""
MAX_JOKERS = 6
TOTAL_SCALE = 500.0
"""Match totals are observed as ``tanh(total / 500)`` (500: the 6-player target)."""
_LONGEST = int(A.SHAPE_LENGTH.max())
_NO_IDS = np.zeros(0, np.int64)
_LAY_JOKER = np.zeros(MAX_MELDS * A.LAY_PER_SLOT, bool)  # the lay-off ids that place a joker
for _i in (A.LAY_JOKER_LOW, A.LAY_JOKER_LOW + 1, A.LAY_JOKER_SET):
    _LAY_JOKER[_i :: A.LAY_PER_SLOT] = True

# A seat's public record: every card it discarded and every card it took from the pile this
# round (raw counts, written through the table's views; the observation scales them), whether
# it has opened, its hand size / 15, tanh(match total / 500), whether it dealt. One float32 row
# per seat, kept as play goes, so an observation copies the rows.
SEAT, SEAT_SIZE = make_layout(
    [
        ("discarded", NUM_KINDS),
        ("taken", NUM_KINDS),
        ("opened", 1),
        ("hand_size", 1),
        ("total", 1),
        ("dealer", 1),
    ]
)
_DISCARDED, _TAKEN = SEAT["discarded"], SEAT["taken"]
_OPENED, _SIZE, _TOTAL, _DEALER = (
    SEAT[k].start for k in ("opened", "hand_size", "total", "dealer")
)
COPY_STEP = np.array([0.5] * JOKER + [1.0 / MAX_JOKERS], np.float32)
"""One card of a kind as a share of the most copies a shoe holds (2; jokers 6)."""

HAND_VALUES = np.array(config.HAND_VALUES, np.int64)
"""What each kind costs left in hand (:data:`taas.envs.romme.config.HAND_VALUES`)."""


@jit_norc
def _offer(mask, hand, ids, kinds):
    """Offer ``ids[i]`` wherever the hand holds ``kinds[i]`` (one compiled pass instead of
    three numpy calls per kind of offer on every play step)."""
    for i in range(ids.shape[0]):
        if hand[kinds[i]] > 0:
            mask[ids[i]] = 1


@jit_norc
def _offer_discards(mask, hand, barred, joker_ok):
    """Offer the discard of every held kind but ``barred`` (-1: none) and, unless
    ``joker_ok``, the joker; how many were offered (0: :meth:`RommeGame._discards` decides)."""
    n = 0
    for k in range(hand.shape[0]):
        if hand[k] > 0 and k != barred and (joker_ok or k != JOKER):
            mask[A.DISCARD + k] = 1
            n += 1
    return n


def hand_value(counts: np.ndarray) -> int:
    """What the cards cost left in hand (the ace always 11, a joker 20)."""
    return int(HAND_VALUES @ np.asarray(counts, np.int64))


def charge(hv: int, opened: bool, cfg: Config) -> tuple[int, str]:
    """A loser's normal charge and why: the hand value, or for a player who never opened the
    hand value plus the surcharge, capped at ``never_opened_cap`` and at half the target."""
    if opened:
        return hv, f"hand value {hv}"
    raw = hv + cfg.never_opened_surcharge
    cap = min(cfg.never_opened_cap, cfg.target // 2)
    if raw <= cap:
        return raw, f"never opened: {hv} + {cfg.never_opened_surcharge} = {raw}"
    return cap, (
        f"never opened: {hv} + {cfg.never_opened_surcharge} = {raw}, capped at {cap} "
        f"(min of {cfg.never_opened_cap} and half the target {cfg.target})"
    )


@dataclass
class RommeState(State):
    """One episode. Public history is kept incrementally for observations (``public``, the
    seats' records, and ``sizes``); ``table`` holds the stock, the pile and the episode's
    seed; ``offers`` lists what the table takes, rebuilt
    whenever it changes: the lay-off ids with the card each takes from the hand, and the
    exchange ids with theirs. Table melds are immutable, so :meth:`clone` shares them (and
    ``offers``, which is replaced, never changed)."""

    hands: np.ndarray  # (players, kinds)
    public: np.ndarray  # (players, SEAT_SIZE) float32: each seat's public record (see SEAT)
    table: Table  # stock, pile, the records' discarded/taken views, shuffles
    opened: np.ndarray  # bool per player
    totals: np.ndarray
    returns: np.ndarray
    dealer: int = 0
    melds: list[TableMeld] = field(default_factory=list)
    phase: int = DRAW
    current: int = 0
    opened_now: bool = False  # the mover's opening was completed this turn
    pending_value: int = 0  # value of the provisional (unfinished) opening melds
    exchanged: int = 0  # jokers taken by exchange this turn
    jokers_placed: int = 0  # jokers put on the table this turn
    abandons: int = 0  # openings taken back this turn (bounded by max_abandons_per_turn)
    turns: int = 0
    rounds_played: int = 0
    over: bool = False
    truncated: bool = False
    winners: list[int] = field(default_factory=list)
    history: list[dict] = field(default_factory=list)
    offers: tuple = (_NO_IDS, _NO_IDS, _NO_IDS, _NO_IDS)
    sizes: list[int] = field(default_factory=list)  # cards in each hand
    version: int = 0  # bumped whenever the table changes
    obs_cache: tuple | None = None  # the observer's table rows (see observation.py)

    def clone(self) -> RommeState:
        """An independent copy: arrays and lists copied, melds (immutable) and finished
        round records shared."""
        new = object.__new__(RommeState)
        d = new.__dict__
        d.update(self.__dict__)
        for name in ("hands", "public", "opened", "totals", "returns"):
            d[name] = d[name].copy()
        public = d["public"]
        d["table"] = self.table.copy(public[:, _DISCARDED], public[:, _TAKEN])
        d["melds"] = self.melds[:]
        d["winners"] = self.winners[:]
        d["sizes"] = self.sizes[:]
        d["history"] = self.history[:]
        return new


class RommeGame(Game):
    """The engine: :class:`~taas.envs.core.game.Game` over :class:`RommeState`."""

    env_id = "romme_v1"
    num_actions = A.NUM_ACTIONS

    def __init__(self, config: Config):
        super().__init__(config)
        self.num_players = config.num_players
        self._shoe = shoe(2, config.jokers)
        # the variant's meld shapes (the first ids of A.SHAPES) and the opening search over them
        self.opening = opening_search(config.meld_rules())
        self._no_shapes = np.zeros(len(self.opening.shapes), bool)
        self._ban = config.forbid_rediscard_of_drawn_discard and not config.rediscard_ban_lapses
        # per count n: the shapes of at least n cards, ascending (the look-ahead's candidates)
        length = self.opening.length
        self._long_shapes = [np.flatnonzero(length >= n) for n in range(_LONGEST + 1)]
        # per count n: the shapes of at most / exactly n cards (the shape mask's size checks)
        self._fits = [length <= n for n in range(_LONGEST + 1)]
        self._fits_exactly = [length == n for n in range(_LONGEST + 1)]

    # -- set-up -----------------------------------------------------------------------------
    def new_state(self, rng: np.random.Generator) -> RommeState:
        n = self.num_players
        public = np.zeros((n, SEAT_SIZE), np.float32)
        table = Table(
            public[:, _DISCARDED],
            public[:, _TAKEN],
            seed=int(rng.integers(2**63)),
            reshuffle=self.config.on_stock_empty == "reshuffle",
        )
        s = RommeState(
            hands=np.zeros((n, NUM_KINDS), np.int8),
            public=public,
            table=table,
            opened=np.zeros(n, bool),
            totals=np.zeros(n, np.int64),
            returns=np.zeros(n),
        )
        s.dealer = int(table.rng().integers(n))
        self._deal(s)
        return s

    def _deal(self, s: RommeState) -> None:
        cfg = self.config
        n, size = self.num_players, cfg.hand_size
        deck = s.table.shuffled(self._shoe)
        s.hands[:] = 0
        s.public[:] = 0
        s.opened[:] = False
        s.melds = []
        first = (s.dealer + 1) % n
        for i in range(n):
            p = (first + i) % n
            np.add.at(s.hands[p], deck[i * size : (i + 1) * size], 1)
        rest = deck[n * size :]
        if cfg.first_player_extra_card:
            s.hands[first, rest.pop()] += 1
            s.table.start(rest, [])
            s.phase = PLAY
        else:
            s.table.start(rest[:-1], rest[-1:])
            s.phase = DRAW
        s.current = first
        s.turns = 0
        self._start_turn(s)
        self._table_changed(s)
        self.refresh_public(s)

    @staticmethod
    def refresh_public(s: RommeState) -> None:
        """Rebuild the parts of the public records that summarise other fields (who opened,
        hand sizes, totals, the dealer): after a deal, a scoring, or a state built by hand.
        Play keeps them up to date step by step."""
        s.public[:, _OPENED] = s.opened
        s.sizes = s.hands.sum(axis=1).tolist()
        s.public[:, _SIZE] = np.array(s.sizes) / MAX_HAND
        s.public[:, _TOTAL] = np.tanh(s.totals / TOTAL_SCALE)
        s.public[:, _DEALER] = 0
        s.public[s.dealer, _DEALER] = 1

    @staticmethod
    def _start_turn(s: RommeState) -> None:
        s.table.drawn_discard = -1  # the taken_now observation is the mover's own
        s.opened_now = False
        s.pending_value = 0
        s.exchanged = s.jokers_placed = s.abandons = 0

    # -- queries -------------------------------------------------------------------------------
    def current_player(self, state: RommeState) -> int:
        return -1 if state.over else state.current

    def is_terminal(self, state: RommeState) -> bool:
        return state.over

    def is_truncated(self, state: RommeState) -> bool:
        return state.truncated

    def returns(self, state: RommeState) -> np.ndarray:
        return state.returns.copy()

    def action_to_str(self, action: int) -> str:
        return A.action_to_str(action)

    def shoe(self, state: RommeState) -> np.ndarray:
        return self._shoe

    def zones(self, state: RommeState) -> dict[str, np.ndarray]:
        z = {f"hand_{p}": state.hands[p] for p in range(self.num_players)}
        table = np.zeros(NUM_KINDS, np.int64)
        for m in state.melds:
            np.add.at(table, m.cards(), 1)
        z["table"] = table
        return z | state.table.zones()

    def pending(self, s: RommeState) -> bool:
        """Has the mover laid melds of an opening that is not complete yet?"""
        return bool(s.melds) and s.melds[-1].provisional

    def may_use_table(self, s: RommeState) -> bool:
        """May the mover lay off (and exchange) now?"""
        cfg = self.config
        return bool(s.opened[s.current]) and (cfg.lay_off_on_opening_turn or not s.opened_now)

    def hand_rummy_exempt(self, s: RommeState) -> bool:
        """Does ``hand_rummy_ignores_opening_min`` free the mover from the minimum now?"""
        p = s.current
        return self.config.hand_rummy_ignores_opening_min and not s.opened[p] and not s.opened.any()

    def owed_jokers(self, s: RommeState) -> int:
        """Exchanged jokers the mover still has to put back on the table this turn."""
        if not self.config.exchanged_joker_must_be_used:
            return 0
        return max(0, s.exchanged - s.jokers_placed)

    def opening_reachable(
        self, s: RommeState, hand: np.ndarray, layable: np.ndarray | None = None
    ) -> bool:
        """Can the mover still complete an opening from ``hand`` and the pending melds?
        (``layable``: ``self.opening.layable(hand)`` when the caller has it already.)"""
        need = self.config.opening_min - s.pending_value
        return need <= 0 or self.opening.reaches(hand, need, layable)

    def barred(self, s: RommeState) -> int:
        """The kind the mover may not discard because it was just taken from the pile, or -1."""
        return s.table.drawn_discard if self._ban else -1

    # -- the mask ----------------------------------------------------------------------------
    def _legal_mask(self, s: RommeState) -> np.ndarray:
        """The rules' mask (:meth:`_rules_mask`) less the actions after which the turn could not
        end by the rules (:meth:`alive`), which are checked only where they can happen."""
        mask = self._rules_mask(s)
        if s.over:
            return mask
        if s.phase == DRAW:
            if mask[A.DRAW_DISCARD] and self._take_risky(s):
                mask[A.DRAW_DISCARD] = self._alive_after(s, A.DRAW_DISCARD)
            return mask
        if s.exchanged or s.offers[2].size or s.table.drawn_discard >= 0:  # else nothing is risky
            for a in self._risky(s, mask):
                mask[a] = (self._exchange_then_joker_off(s, a) or self._lay_off_then_end(s, a)
                           or self._alive_after(s, a))
        return mask

    def _rules_mask(self, s: RommeState) -> np.ndarray:
        mask = np.zeros(A.NUM_ACTIONS, np.int8)
        if s.over:
            return mask
        if s.phase == DRAW:
            mask[A.DRAW_STOCK] = bool(s.table.stock)
            mask[A.DRAW_DISCARD] = self._may_take(s)
            return mask
        cfg, p = self.config, s.current
        hand = s.hands[p]
        size = s.sizes[p]
        opened = bool(s.opened[p])
        pending = self.pending(s)
        mask[A.MELD : A.MELD + len(self._no_shapes)] = self._shape_mask(s, hand, size)
        table = self.may_use_table(s)
        lay_ids, lay_kinds, swap_ids, swap_kinds = s.offers
        if table and size > cfg.must_discard_to_go_out:
            _offer(mask, hand, lay_ids, lay_kinds)
        if table or (not opened and cfg.exchange_before_opening):
            _offer(mask, hand, swap_ids, swap_kinds)
        mask[A.ABANDON] = pending
        if pending and not (self.hand_rummy_exempt(s) and size == 1):
            return mask
        if not self.owed_jokers(s):
            drawn = s.table.drawn_discard if cfg.forbid_rediscard_of_drawn_discard else -1
            if not _offer_discards(mask, hand, drawn, cfg.may_discard_joker):
                mask[A.DISCARD : A.LAY_OFF] = self._discards(s, hand)
        return mask

    def _discards(self, s: RommeState, hand: np.ndarray) -> np.ndarray:
        """Bool per kind: may the mover discard it (before the look-ahead)?"""
        cfg = self.config
        ok = hand > 0
        drawn = s.table.drawn_discard
        if cfg.forbid_rediscard_of_drawn_discard and drawn >= 0:
            ok[drawn] = False
        if not cfg.may_discard_joker:
            ok[JOKER] = False
        if not np.count_nonzero(ok):  # (ndarray.any() costs three times more on small arrays)
            if cfg.rediscard_ban_lapses:
                ok = hand > 0
            elif not cfg.may_discard_joker:
                ok[JOKER] = hand[JOKER] > 0
        return ok

    def _shape_mask(self, s: RommeState, hand: np.ndarray, size: int) -> np.ndarray:
        """Bool per shape of the variant: may the mover, holding ``hand`` of ``size`` cards, lay
        it now?"""
        cfg = self.config
        opened = bool(s.opened[s.current])
        layable = self.opening.layable(hand)
        if not (opened or self.hand_rummy_exempt(s) or self.opening_reachable(s, hand, layable)):
            return self._no_shapes
        ok = layable
        room = size - cfg.must_discard_to_go_out
        if room < _LONGEST:
            ok &= self._fits[room] if room >= 0 else False
        if not opened and size <= _LONGEST:
            for shape in np.flatnonzero(ok & self._fits_exactly[size]):
                ok[shape] = self._completes(s, int(shape))
        return ok

    def _may_take(self, s: RommeState) -> bool:
        cfg, p, card = self.config, s.current, s.table.top
        if card < 0:
            return False
        if not cfg.discard_draw_requires_opening or s.opened[p] or not s.table.stock:
            return True
        hand = s.hands[p].copy()
        hand[card] += 1
        return self.opening.can_open_with(hand, card, cfg.opening_min)

    def _completes(self, s: RommeState, shape: int) -> bool:
        """May a player who has not opened lay ``shape`` with the last cards in hand? Only if
        it completes the opening (or the Hand-Rommé exemption applies)."""
        if self.hand_rummy_exempt(s):
            return True
        value = s.pending_value + int(self.opening.value[shape])
        return value >= self.config.opening_min and self._drawn_card_used(s, shape)

    def _drawn_card_used(self, s: RommeState, shape: int = -1) -> bool:
        """With ``discard_draw_requires_opening``: is the card taken from the pile in the
        pending melds (or in ``shape``)?"""
        card = s.table.drawn_discard
        if not self.config.discard_draw_requires_opening or card < 0:
            return True
        if card == JOKER:
            if shape >= 0 and A.SHAPE_LENGTH[shape] > A.SHAPE_MATRIX[shape] @ (
                s.hands[s.current][:JOKER] > 0
            ):
                return True
            return any(m.provisional and m.joker_count() for m in s.melds)
        if shape >= 0 and A.SHAPE_MATRIX[shape, card]:
            return True
        return any(m.provisional and card in m.naturals() for m in s.melds)

    # -- the look-ahead: no dead ends --------------------------------------------------------
    def _take_risky(self, s: RommeState) -> bool:
        """Would taking the discard leave a hand of nothing but barred copies of it?"""
        p, top = s.current, s.table.top
        return self._ban and s.sizes[p] == int(s.hands[p, top])

    def _risky(self, s: RommeState, mask: np.ndarray) -> list[int]:
        """The offered actions after which the turn might not be able to end: all of them while
        a joker is owed, every exchange when it must be used, and the lay-offs and melds that
        would leave only the barred card."""
        if self.owed_jokers(s):
            risky = (np.flatnonzero(mask[A.LAY_OFF :]) + A.LAY_OFF).tolist()
            return risky + ([A.ABANDON] if mask[A.ABANDON] else [])
        risky = []
        if self.config.exchanged_joker_must_be_used:  # (a few ids: a list beats numpy here)
            risky = [a for a in s.offers[2].tolist() if mask[a]]
        y = self.barred(s)
        hand = s.hands[s.current]
        if y < 0 or not hand[y]:
            return risky
        other = s.sizes[s.current] - int(hand[y])  # cards the mover may discard
        if other > _LONGEST:
            return risky
        if other <= 1:  # a lay-off leaves only barred cards (else a card to discard is left)
            lay_ids, lay_kinds = s.offers[0], s.offers[1]
            offered = mask[lay_ids] > 0
            lay, kinds = lay_ids[offered], lay_kinds[offered]
            risky += lay[np.where(kinds == y, other == 0, other == 1)].tolist()
        # a shape uses at most its length in cards, so only shapes that long can be risky
        shapes = self._long_shapes[other]
        shapes = shapes[mask[A.MELD + shapes] > 0]
        if shapes.size:
            if y == JOKER:  # the shape's natural cards are the ones not barred
                used = self.opening.naturals(hand)[shapes]
            else:
                used = self.opening.length[shapes] - A.SHAPE_MATRIX[shapes, y]
            risky += (shapes[used >= other] + A.MELD).tolist()
        return risky

    def _alive_after(self, s: RommeState, action: int) -> bool:
        trial = s.clone()
        trial.mask = None
        self._apply(trial, action)
        return self.alive(trial)

    def alive(self, s: RommeState) -> bool:
        """Can the mover still end the turn by the rules: discard (with no joker owed) or go
        out, after more melds, lay-offs and exchanges? While a joker is owed only the moves
        that place one are searched (see the module docstring); an unfinished opening can
        always be abandoned."""
        if s.over or s.phase == DRAW:
            return True
        owed = self.owed_jokers(s)
        pending = self.pending(s)
        if pending and not (owed and self._owed_after_abandon(s)):
            return True
        hand = s.hands[s.current]
        if not (owed or pending) and np.count_nonzero(self._discards(s, hand)):
            return True
        if owed == 1 and self._joker_off_then_discard(s, hand):
            return True
        mask = self._rules_mask(s)
        if np.count_nonzero(mask[A.DISCARD : A.LAY_OFF]):
            return True
        mask[A.ABANDON] = 0
        if owed:
            mask[A.EXCHANGE : A.MELD] = 0
            mask[A.LAY_OFF : A.EXCHANGE] &= _LAY_JOKER
            shapes = np.flatnonzero(mask[A.MELD :])
            natural = self.opening.naturals(hand)[shapes] == self.opening.length[shapes]
            mask[A.MELD + shapes[natural]] = 0
        return any(self._alive_after(s, int(a)) for a in np.flatnonzero(mask))

    def _joker_off_then_discard(self, s: RommeState, hand: np.ndarray) -> bool:
        """The common way to settle one owed joker, checked without the full mask: lay it off
        somewhere on the table and keep a card that may be discarded."""
        size = s.sizes[s.current]
        if size <= self.config.must_discard_to_go_out or not self.may_use_table(s):
            return False
        if not np.count_nonzero(s.offers[1] == JOKER):
            return False
        y = self.barred(s)
        barred = 0 if y < 0 else int(hand[y]) - (y == JOKER)
        return size == 1 or size - 1 - barred > 0  # out, or a card left to discard

    def _exchange_then_joker_off(self, s: RommeState, action: int) -> bool:
        """:meth:`_joker_off_then_discard` on the state after the exchange ``action``, read from
        this one (an exchange changes one meld and swaps a natural for the joker), so the common
        exchange needs no trial copy: the mover then owes one joker, another meld takes a
        joker, and a card that may be discarded is left."""
        if not (A.EXCHANGE <= action < A.MELD and self.config.exchanged_joker_must_be_used):
            return False
        if s.exchanged != s.jokers_placed:  # else not exactly one joker owed afterwards
            return False
        size = s.sizes[s.current]
        if size <= self.config.must_discard_to_go_out or not self.may_use_table(s):
            return False
        lay_ids, lay_kinds, swap_ids, swap_kinds = s.offers
        slot = (action - A.EXCHANGE) // A.SWAP_PER_SLOT
        joker_slots = (lay_ids[lay_kinds == JOKER] - A.LAY_OFF) // A.LAY_PER_SLOT
        if not np.count_nonzero(joker_slots != slot):
            return False
        y = self.barred(s)
        if y < 0:
            return True
        given = int(swap_kinds[swap_ids == action][0])  # the natural put on the table
        held = int(s.hands[s.current, y]) - (y == given)  # copies of y after the exchange
        return size == 1 or size - 1 - held > 0  # (a joker y: the one taken is owed, not barred)

    def _lay_off_then_end(self, s: RommeState, action: int) -> bool:
        """:meth:`alive` after the lay-off ``action`` while one joker is owed, read from this
        state (a lay-off changes one meld and takes one card), so the common lay-off needs no
        trial copy. True when the lay-off goes out; or lays the owed joker and leaves a card
        that may be discarded; or lays a natural card while another meld takes a joker and
        :meth:`_joker_off_then_discard` holds afterwards. False: undecided."""
        if not (A.LAY_OFF <= action < A.EXCHANGE) or self.owed_jokers(s) != 1:
            return False
        cfg, hand = self.config, s.hands[s.current]
        lay_ids, lay_kinds = s.offers[0], s.offers[1]
        k = int(lay_kinds[lay_ids == action][0])  # the card laid off
        size = s.sizes[s.current] - 1  # cards left afterwards
        if not size:
            return True
        if k == JOKER:  # nothing owed afterwards: a card that _discards allows is enough
            drawn, banned = s.table.drawn_discard, 0
            if cfg.forbid_rediscard_of_drawn_discard and drawn >= 0:
                banned += int(hand[drawn]) - (drawn == JOKER)
            if not cfg.may_discard_joker and drawn != JOKER:
                banned += int(hand[JOKER]) - 1
            return size - banned > 0
        slot = (action - A.LAY_OFF) // A.LAY_PER_SLOT
        joker_slots = (lay_ids[lay_kinds == JOKER] - A.LAY_OFF) // A.LAY_PER_SLOT
        if not np.count_nonzero(joker_slots != slot):  # the other melds keep their offers
            return False
        if size <= cfg.must_discard_to_go_out or not self.may_use_table(s):
            return False
        y = self.barred(s)
        barred = 0 if y < 0 else int(hand[y]) - (y == k) - (y == JOKER)
        return size == 1 or size - 1 - barred > 0

    def _owed_after_abandon(self, s: RommeState) -> bool:
        placed = sum(m.joker_count() for m in s.melds if m.provisional)
        return s.exchanged > s.jokers_placed - placed

    # -- transitions -------------------------------------------------------------------------
    def _apply(self, s: RommeState, a: int) -> None:
        p = s.current
        hand = s.hands[p]
        if a == A.DRAW_STOCK:
            hand[s.table.draw()] += 1
            self._resize(s, p, 1)
            s.phase = PLAY
        elif a == A.DRAW_DISCARD:
            hand[s.table.take(p)] += 1
            self._resize(s, p, 1)
            s.phase = PLAY
        elif a >= A.MELD:
            self._meld(s, a - A.MELD)
        elif a >= A.EXCHANGE:
            slot, i = divmod(a - A.EXCHANGE, A.SWAP_PER_SLOT)
            m = s.melds[slot]
            k = next(k for j, k in m.offers(self.config)[1] if j == i)
            s.melds[slot] = m.exchange(i)
            hand[k] -= 1
            hand[JOKER] += 1
            s.exchanged += 1
            self._table_changed(s)
        elif a >= A.LAY_OFF:
            slot, i = divmod(a - A.LAY_OFF, A.LAY_PER_SLOT)
            m = s.melds[slot]
            k = next(k for j, k in m.offers(self.config)[0] if j == i)
            s.melds[slot] = m.lay_off(i)
            s.jokers_placed += k == JOKER
            hand[k] -= 1
            self._resize(s, p, -1)
            self._table_changed(s)
            if not s.sizes[p]:
                self._end_round(s, p)
        elif a == A.ABANDON:
            while s.melds and s.melds[-1].provisional:
                m = s.melds.pop()
                np.add.at(hand, m.cards(), 1)
                s.jokers_placed -= m.joker_count()
                self._resize(s, p, len(m))
            s.pending_value = 0
            self._table_changed(s)
            s.abandons += 1
            if s.abandons > self.config.max_abandons_per_turn:
                s.over = s.truncated = True
        else:
            k = a - A.DISCARD
            hand[k] -= 1
            s.table.discard_card(p, k)
            self._resize(s, p, -1)
            if not s.sizes[p]:
                if self.pending(s):  # going out under hand_rummy_ignores_opening_min
                    self._commit(s)
                self._end_round(s, p)
            else:
                self._end_turn(s)

    @staticmethod
    def _resize(s: RommeState, p: int, change: int) -> None:
        """Hand ``p`` gained (lost) ``change`` cards: its size and the public record of it."""
        s.sizes[p] += change
        s.public[p, _SIZE] = s.sizes[p] / MAX_HAND

    def _meld(self, s: RommeState, shape: int) -> None:
        p = s.current
        hand = s.hands[p]
        opened = bool(s.opened[p])
        m = meld_from_shape(shape, hand, p, provisional=not opened)
        for c in m.naturals():
            hand[c] -= 1
        hand[JOKER] -= m.joker_count()
        self._resize(s, p, -len(m))
        s.jokers_placed += m.joker_count()
        s.melds.append(m)
        if opened:
            self._table_changed(s)
        else:
            s.pending_value += m.value()
            done = s.pending_value >= self.config.opening_min and self._drawn_card_used(s)
            if done or not s.sizes[p]:
                self._commit(s)
            s.version += 1
        if not s.sizes[p]:
            self._end_round(s, p)

    def _commit(self, s: RommeState) -> None:
        """The pending melds become the mover's opening."""
        s.melds = [m.committed() if m.provisional else m for m in s.melds]
        s.opened[s.current] = s.opened_now = True
        s.public[s.current, _OPENED] = 1
        s.pending_value = 0
        self._table_changed(s)

    def _table_changed(self, s: RommeState) -> None:
        """List what the committed melds take (each meld keeps its own offers)."""
        cfg = self.config
        lay_ids, lay_kinds, swap_ids, swap_kinds = [], [], [], []
        for slot, m in enumerate(s.melds):
            if m.provisional:
                continue
            lay, lay_k, swap, swap_k = m.offer_ids(cfg, slot)
            lay_ids += lay
            lay_kinds += lay_k
            swap_ids += swap
            swap_kinds += swap_k
        s.offers = (
            np.array(lay_ids, np.int64),
            np.array(lay_kinds, np.int64),
            np.array(swap_ids, np.int64),
            np.array(swap_kinds, np.int64),
        )
        s.version += 1

    def _end_turn(self, s: RommeState) -> None:
        cfg = self.config
        if not s.table.stock and cfg.on_stock_empty == "block":
            self._end_round(s, -1)
            return
        s.turns += 1
        if s.turns >= cfg.max_turns_per_round:
            s.over = s.truncated = True
            return
        s.current = (s.current + 1) % self.num_players
        s.phase = DRAW
        self._start_turn(s)

    # -- scoring ---------------------------------------------------------------------------------
    def _end_round(self, s: RommeState, went_out: int) -> None:
        """Score the round; ``went_out`` is -1 for a blocked round."""
        cfg, n = self.config, self.num_players
        values = [hand_value(s.hands[q]) for q in range(n)]
        hand_rummy = (
            went_out >= 0
            and s.opened_now
            and not any(s.opened[q] for q in range(n) if q != went_out)
        )
        if went_out >= 0:
            winners = [went_out]
        else:
            low = min(values)
            winners = [q for q in range(n) if values[q] == low]
            if len(winners) > 1 and cfg.blocked_tie == "none_win":
                winners = []
        charges = np.zeros(n, np.int64)
        players = []
        for q in range(n):
            entry = {
                "hand": cards_str(from_counts(s.hands[q])),
                "hand_value": values[q],
                "opened": bool(s.opened[q]),
            }
            if q in winners:
                entry["reason"] = "went out" if went_out >= 0 else "lowest hand, blocked round"
            elif hand_rummy and cfg.hand_rummy_scoring == "flat":
                charges[q] = cfg.hand_rummy_points
                entry["reason"] = f"Hand-Rommé: flat {cfg.hand_rummy_points}"
            else:
                charges[q], entry["reason"] = charge(values[q], bool(s.opened[q]), cfg)
                if hand_rummy:
                    charges[q] *= 2
                    entry["reason"] += ", doubled for Hand-Rommé"
                elif went_out < 0:
                    entry["reason"] += " (blocked round)"
            entry["charge"] = int(charges[q])
            players.append(entry)
        s.history.append(
            {
                "round": s.rounds_played + 1,
                "dealer": s.dealer,
                "went_out": went_out,
                "blocked": went_out < 0,
                "hand_rummy": hand_rummy,
                "winners": winners,
                "melds": [{"owner": m.owner, "cards": cards_str(m.cards())} for m in s.melds],
                "players": players,
            }
        )
        s.totals += charges
        s.public[:, _TOTAL] = np.tanh(s.totals / TOTAL_SCALE)
        s.rounds_played += 1
        if cfg.reward == "points":
            s.returns -= charges
        elif cfg.reward == "zero_sum":
            s.returns += charges.mean() - charges
        if cfg.episode == "round":
            self._finish(s, winners)
            return
        if s.totals.max() >= cfg.target:
            best = np.flatnonzero(s.totals == s.totals.min()).tolist()
            if len(best) == 1:
                self._finish(s, best)
                return
        s.dealer = (s.dealer + 1) % n
        self._deal(s)

    def _finish(self, s: RommeState, winners: list[int]) -> None:
        s.over, s.winners = True, winners
        n = self.num_players
        if self.config.reward == "win" and 0 < len(winners) < n:
            s.returns[:] = -1.0 / (n - len(winners))
            s.returns[winners] = 1.0 / len(winners)

    # -- reporting ---------------------------------------------------------------------------------
    def info(self, state: RommeState, player: int) -> dict:
        info = series_info(state)
        info["target"] = self.config.target
        if state.over:
            info["winners"] = state.winners
        return info

    def render(self, state: RommeState, symbols: bool = True) -> str:
        t = state.table
        top = cards_str(t.discard[-1:], symbols) or "-"
        lines = [
            f"Rommé  round {state.rounds_played + (not state.over)}  dealer player_"
            f"{state.dealer}  stock {len(t.stock)}  discard {top} ({len(t.discard)})"
            f"  {PHASES[state.phase]}"
        ]
        for p in range(self.num_players):
            mark = "*" if p == self.current_player(state) else " "
            flag = "opened" if state.opened[p] else "      "
            cards = cards_str(from_counts(state.hands[p]), symbols)
            lines.append(f"{mark}player_{p}  total {int(state.totals[p]):4d}  {flag}  {cards}")
        for i, m in enumerate(state.melds):
            tag = " (pending opening)" if m.provisional else ""
            lines.append(f"  meld {i:2d} by player_{m.owner}: {m}{tag}")
        if state.truncated:
            why = ("an opening taken back more than max_abandons_per_turn times"
                   if state.abandons > self.config.max_abandons_per_turn
                   else f"{state.turns} turns (max_turns_per_round)")
            lines.append(f"round truncated after {why}")
        if state.over:
            for entry in state.history:
                lines.append(
                    f"Round {entry['round']}: "
                    + ", ".join(
                        f"player_{q} {e['charge']} ({e['reason']})"
                        for q, e in enumerate(entry["players"])
                    )
                )
        return "\n".join(lines)


__all__ = [
    "DRAW",
    "MAX_HAND",
    "MAX_MELDS",
    "PHASES",
    "PLAY",
    "SEAT",
    "SEAT_SIZE",
    "RommeGame",
    "RommeState",
    "card_str",
    "charge",
    "hand_value",
]
