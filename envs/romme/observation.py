"""Rommé observation: what a careful player at the table knows, ego-centric.

Seats are ordered from the observer (self first, then clockwise) and padded to 6 so one
network plays every table size; each seat's block is the engine's public record of it
(``rules.SEAT`` names its parts: the cards it discarded and took from the pile this round,
whether it has opened, its hand size, its match total, whether it dealt). Other hands and
the stock order never appear. The card turned up to start the pile, which no seat discarded,
has its own block, so the record stays complete after a reshuffle.

Every feature lies in [0, 1] (``low``/``high`` say so): card counts are divided by the most
copies of the kind in a shoe (2; jokers 6), hand sizes by 15 (``rules.MAX_HAND``), the stock
by 110 (the largest shoe), jokers owed by 6, the pending opening value by ``opening_min``
(capped at 1), a set's jokers by 3, and the unbounded match totals and target are squashed as
``tanh(points / 500)``. A seat's discarded/taken counts can exceed the
copies only after a reshuffle; they saturate at 1.

The table is encoded per meld slot (slot i = the i-th meld laid this round, the slots of the
lay-off and exchange actions; 36 slots: 110 cards make at most 36 melds): its cards by rank,
which of them are jokers, its suit(s), its first rank, whether it is part of an unfinished
opening, and who laid it (``ROW_LAYOUT``).
"""

from __future__ import annotations

import numpy as np

from taas.envs.core.cards import NUM_KINDS, NUM_RANKS, kind
from taas.envs.core.game import Observer, make_layout
from taas.envs.core.jit import jit_norc
from taas.envs.romme import actions as A
from taas.envs.romme.config import MAX_PLAYERS, Config
from taas.envs.romme.rules import (
    COPY_STEP,
    MAX_JOKERS,
    MAX_MELDS,
    PHASES,
    SEAT,
    SEAT_SIZE,
    TOTAL_SCALE,
    RommeState,
)
from taas.envs.romme.table import TableMeld
from taas.envs.rummy.table import OBS_HAND, OBS_PILE, OBS_SEATS, OBS_TOP, OBS_UP, encode_table

ROW_LAYOUT, ROW_SIZE = make_layout(
    [
        ("present", 1),
        ("provisional", 1),  # part of the mover's unfinished opening
        ("is_run", 1),
        ("suits", 4),  # run: its suit; set: the suits of its natural cards
        ("naturals", NUM_RANKS),  # 1 per rank held by a natural card
        ("jokers", NUM_RANKS),  # run: 1 per rank a joker stands for; set: its jokers / 3
        ("first", NUM_RANKS),  # one-hot: a run's first rank, a set's rank
        ("ace_high", 1),  # the run holds an ace (natural or joker) above the king
        ("owner", MAX_PLAYERS),  # one-hot: the seat that laid it, from the observer
    ]
)

LAYOUT, SIZE = make_layout(
    [
        ("hand", NUM_KINDS),  # my cards, count per kind / copies (2, jokers 6)
        ("top_discard", NUM_KINDS),  # one-hot of the card on the discard pile
        ("discard_pile", NUM_KINDS),  # counts of the cards in the pile / copies
        ("up_card", NUM_KINDS),  # one-hot: the card turned up to start this round's pile
        ("seats", MAX_PLAYERS * SEAT_SIZE),  # per seat, its public record (rules.SEAT)
        ("table", MAX_MELDS * ROW_SIZE),  # per meld slot, see ROW_LAYOUT
        ("taken_now", NUM_KINDS),  # one-hot: the card the mover took from the pile this turn
        ("phase", len(PHASES)),  # one-hot: draw, play
        ("stock_size", 1),  # / 110
        ("pending_value", 1),  # the mover's unfinished opening / opening_min, at most 1
        ("opened_now", 1),  # the mover completed the opening this turn
        ("owed_jokers", 1),  # exchanged jokers the mover still has to put on the table / 6
        ("target", 1),  # tanh(match target / 500)
    ]
)
_TABLE, _TAKEN_NOW = LAYOUT["table"].start, LAYOUT["taken_now"].start
assert [LAYOUT[k].start for k in ("hand", "top_discard", "discard_pile", "up_card", "seats")] == [
    OBS_HAND, OBS_TOP, OBS_PILE, OBS_UP, OBS_SEATS
], "the table blocks come first, in encode_table's order"
_STOCK_SCALE = 110.0
_PHASE, _STOCK, _PENDING, _OPENED_NOW, _OWED, _TARGET = (
    LAYOUT[k].start
    for k in ("phase", "stock_size", "pending_value", "opened_now", "owed_jokers", "target")
)
_OWNER = ROW_LAYOUT["owner"].start
_SEAT_SCALE = np.ones(SEAT_SIZE, np.float32)
_SEAT_SCALE[SEAT["discarded"]] = _SEAT_SCALE[SEAT["taken"]] = COPY_STEP
"""A seat row's scale: the raw discarded/taken counts per copy, the rest as the engine keeps it."""


@jit_norc
def _encode(obs, hand, pile, public, player, top, first_up, taken_now, scalars, rows, owners):
    """Fill ``obs``: the table blocks (:func:`encode_table`; seat rows scaled by
    ``_SEAT_SCALE``), the table's ``rows`` (flat, without owners) and
    each meld's owner seen from ``player``; ``scalars`` = phase, stock, pending value, opened
    now, owed jokers, target (already scaled)."""
    obs[:] = 0  # here, not a NumPy fill() call before the kernel
    encode_table(obs, hand, pile, public, COPY_STEP, _SEAT_SCALE, player, top, first_up)
    n = public.shape[0]
    for i in range(rows.shape[0]):
        obs[_TABLE + i] = rows[i]
    for i in range(owners.shape[0]):
        obs[_TABLE + i * ROW_SIZE + _OWNER + (owners[i] - player) % n] = 1.0
    if taken_now >= 0:
        obs[_TAKEN_NOW + taken_now] = 1.0
    obs[_PHASE + int(scalars[0])] = 1.0
    obs[_STOCK] = scalars[1]
    obs[_PENDING] = scalars[2]
    obs[_OPENED_NOW] = scalars[3]
    obs[_OWED] = scalars[4]
    obs[_TARGET] = scalars[5]


_NO_TABLE = (np.zeros(0, np.float32), np.zeros(0, np.int64))
_ROWS_KEPT = 10_000  # distinct meld rows an observer remembers (~2.6 MB)


def encode_meld(m: TableMeld) -> np.ndarray:
    """One table slot (see ``ROW_LAYOUT``) without its owner, which depends on the observer."""
    row = np.zeros(ROW_SIZE, np.float32)
    row[0] = 1.0
    row[1] = m.provisional
    base = {k: v.start for k, v in ROW_LAYOUT.items()}
    if m.is_run:
        row[2] = 1.0
        row[base["suits"] + m.suit] = 1.0
        for i, joker in enumerate(m.cells):
            pos = m.first + i
            row[(base["jokers"] if joker else base["naturals"]) + pos % NUM_RANKS] = 1.0
            if pos == 13:
                row[base["ace_high"]] = 1.0
        row[base["first"] + m.first] = 1.0
    else:
        for s in range(4):
            if m.suits >> s & 1:
                row[base["suits"] + s] = 1.0
        row[base["naturals"] + m.rank] = 1.0
        row[base["jokers"] + m.rank] = m.jokers / 3.0
        row[base["first"] + m.rank] = 1.0
    return row


class RommeObserver(Observer):
    """Encodes a :class:`RommeState` for one seat; see ``LAYOUT`` for the blocks."""

    layout = LAYOUT
    size = SIZE

    def __init__(self, config: Config):
        self.config = config
        self.low = np.zeros(SIZE, np.float32)
        self.high = np.ones(SIZE, np.float32)
        self._target = float(np.tanh(config.target / TOTAL_SCALE))
        self._pending_scale = 1.0 / max(config.opening_min, 1)
        self._rows: dict[tuple, np.ndarray] = {}  # meld contents -> encode_meld row

    def encode(self, state: RommeState, player: int) -> np.ndarray:
        obs = np.empty(SIZE, np.float32)
        self.encode_into(state, player, obs)
        return obs

    def encode_into(self, state: RommeState, player: int, out: np.ndarray) -> None:
        t = state.table
        owed = 0.0
        if state.exchanged > state.jokers_placed and self.config.exchanged_joker_must_be_used:
            owed = (state.exchanged - state.jokers_placed) / MAX_JOKERS
        scalars = (
            float(state.phase),
            len(t.stock) / _STOCK_SCALE,
            min(1.0, state.pending_value * self._pending_scale),
            float(state.opened_now),
            owed,
            self._target,
        )
        top = t.discard[-1] if t.discard else -1
        rows, owners = self._table(state) if state.melds else _NO_TABLE
        _encode(
            out,
            state.hands[player],
            t.pile,
            state.public,
            player,
            top,
            t.first_up,
            t.drawn_discard,
            scalars,
            rows,
            owners,
        )

    def _table(self, state: RommeState) -> tuple[np.ndarray, np.ndarray]:
        """The table's rows (flat, without owners) and each meld's owner, kept on the state
        until the table changes (``state.version``): it changes on a few steps of a turn."""
        cache = state.obs_cache
        if cache is None or cache[0] != state.version:
            melds = state.melds
            rows = np.concatenate([self._row(m) for m in melds])
            owners = np.array([m.owner for m in melds], np.int64)
            cache = state.obs_cache = (state.version, rows, owners)
        return cache[1], cache[2]

    def _row(self, m: TableMeld) -> np.ndarray:
        """``encode_meld(m)``, remembered by the meld's contents: a change of the table
        usually touches one meld, and the same melds recur from round to round."""
        key = (m.provisional, m.is_run, m.suit, m.first, tuple(m.cells), m.rank, m.suits, m.jokers)
        row = self._rows.get(key)
        if row is None:
            if len(self._rows) >= _ROWS_KEPT:
                self._rows.clear()
            row = self._rows[key] = encode_meld(m)
        return row


def lay_off_card(observation: np.ndarray, action: int) -> int:
    """The card kind a natural lay-off id (:data:`~taas.envs.romme.actions.LAY_OFF`) takes
    from the hand, read from the observation's table row of its slot, so rule-based agents
    can weigh lay-offs by card without the engine."""
    slot, i = divmod(action - A.LAY_OFF, A.LAY_PER_SLOT)
    if not 0 <= slot < MAX_MELDS or i >= A.LAY_JOKER_LOW:
        raise ValueError(f"action {action} ({A.action_to_str(action)}) is no natural lay-off")
    row = observation[_TABLE + slot * ROW_SIZE : _TABLE + (slot + 1) * ROW_SIZE]
    first = int(np.argmax(row[ROW_LAYOUT["first"]]))
    if i >= A.LAY_SUIT:
        return kind(first, i - A.LAY_SUIT)
    suit = int(np.argmax(row[ROW_LAYOUT["suits"]]))
    length = int(np.count_nonzero(row[ROW_LAYOUT["naturals"]] + row[ROW_LAYOUT["jokers"]]))
    pos = first + length if i == A.LAY_LOW + 1 else (first - 1 if first else 12)
    return kind(pos % NUM_RANKS, suit)
