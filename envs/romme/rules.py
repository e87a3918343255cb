"""Rommé rules engine (seed 002 scoring, game rebuilt in shared/rules/romme.md).

Hands are count vectors over card kinds; the table is a list of :class:`TableMeld`. A turn is
two phases: DRAW (stock or discard pile), then PLAY: any number of melds, lay-offs and joker
exchanges, ended by a discard (or by going out).

Decisions the spec leaves to the engine (documented in the env docstring too):
- ``lay_off(kind)`` goes to the oldest table meld that accepts the card, at a run's high end
  when both ends take it; a joker goes to the oldest meld whose joker limit allows one more, at
  the high end if it fits there. ``exchange(kind)`` takes the joker of the oldest meld where a
  joker stands for that card.
- Before opening, meld shapes are offered only while the hand and the melds pending this turn
  can still reach ``opening_min`` (exact search, :mod:`taas.envs.core.opening`); the pending melds
  lie on the table marked provisional and count once they reach the minimum. ``abandon`` takes
  them back. With ``discard_draw_requires_opening`` the opening also needs the card taken from
  the pile, and the pile may be taken only when such an opening exists.
- An exchanged joker must be melded or laid off before the discard; the exchange is offered
  only when that is possible right after it, and the duty lapses if play makes it impossible.
- If every card in hand is barred from the discard (the card just taken, a joker with
  ``may_discard_joker=False``), the bar lapses rather than leave the player stuck.
- ``lay_off_on_opening_turn=False`` also delays joker exchanges to later turns.
- With ``hand_rummy_ignores_opening_min`` a player whose going out this turn would be a
  Hand-Rommé may meld below the minimum; the discard still needs the minimum unless it is the
  last card.
- Reshuffle: when the stock runs out, the discard pile but its top card becomes the stock.
- The never-opened cap "half the target" is rounded down.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

import numpy as np
from taas.envs.core.cards import JOKER, NUM_KINDS, card_str, cards_str, from_counts, shoe, shuffled
from taas.envs.core.game import Game, State, make_layout
from taas.envs.core.opening import opening_search
from taas.envs.core.series import series_info
from taas.envs.romme import actions as A
from taas.envs.romme.config import Config
from taas.envs.romme.table import TableMeld, meld_from_shape

DRAW, PLAY = 0, 1
PHASES = ("draw", "play")
MAX_MELDS = 36  # 110 cards in melds of 3 at least
_LONGEST = int(A.SHAPE_LENGTH.max())

# A seat's public record: every card it discarded and every card it took from the pile this
# round, whether it has opened, its hand size, its match total / 100, whether it dealt. One
# float32 row per seat, kept as play goes, so an observation copies the rows in its seat order.
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
_DISCARDED, _TAKEN, _OPENED, _SIZE, _TOTAL, _DEALER = (
    SEAT[k].start for k in ("discarded", "taken", "opened", "hand_size", "total", "dealer")
)

# Value of each kind left in hand: Ace 11, 2-10 face value, J/Q/K 10, Joker 20.
HAND_VALUES = np.array([11] + list(range(2, 11)) + [10] * 3, np.int64)
HAND_VALUES = np.concatenate([np.tile(HAND_VALUES, 4), [20]])


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
    seats' records, and ``pile``); ``accept``/``exch`` are caches of the table rebuilt
    whenever it changes."""

    seed: int
    rng: np.random.Generator
    hands: np.ndarray  # (players, kinds)
    public: np.ndarray  # (players, SEAT_SIZE) float32: each seat's public record (see SEAT)
    pile: np.ndarray  # counts of the cards in the discard pile (the list keeps their order)
    opened: np.ndarray  # bool per player
    totals: np.ndarray
    returns: np.ndarray
    dealer: int
    melds: list[TableMeld] = field(default_factory=list)
    stock: list[int] = field(default_factory=list)
    discard: list[int] = field(default_factory=list)
    phase: int = DRAW
    current: int = 0
    drawn_discard: int = -1  # kind taken from the pile this turn
    opened_now: bool = False  # the mover's opening was completed this turn
    pending_value: int = 0  # value of the provisional (unfinished) opening melds
    exchanged: int = 0  # jokers taken by exchange this turn
    jokers_placed: int = 0  # jokers put on the table this turn
    turns: int = 0
    rounds_played: int = 0
    over: bool = False
    truncated: bool = False
    winners: list[int] = field(default_factory=list)
    history: list[dict] = field(default_factory=list)
    accept: np.ndarray = field(default_factory=lambda: np.zeros(NUM_KINDS, np.int16))
    exch: np.ndarray = field(default_factory=lambda: np.zeros(JOKER, np.int16))
    version: int = 0  # bumped whenever the table changes
    obs_cache: tuple | None = None  # the observer's table rows (see observation.py)


class RommeGame(Game):
    """The engine: :class:`~taas.envs.core.game.Game` over :class:`RommeState`."""

    env_id = "romme_v0"
    num_actions = A.NUM_ACTIONS

    def __init__(self, config: Config):
        super().__init__(config)
        self.num_players = config.num_players
        self._shoe = shoe(2, config.jokers)
        # the variant's meld shapes (the first ids of A.SHAPES) and the opening search over them
        self.opening = opening_search(config.meld_rules())
        self._no_shapes = np.zeros(len(self.opening.shapes), bool)

    # -- set-up -----------------------------------------------------------------------------
    def new_state(self, rng: np.random.Generator) -> RommeState:
        seed = int(rng.integers(2**63))
        own = np.random.default_rng(seed)
        n = self.num_players
        s = RommeState(
            seed=seed,
            rng=own,
            hands=np.zeros((n, NUM_KINDS), np.int8),
            public=np.zeros((n, SEAT_SIZE), np.float32),
            pile=np.zeros(NUM_KINDS, np.int8),
            opened=np.zeros(n, bool),
            totals=np.zeros(n, np.int64),
            returns=np.zeros(n),
            dealer=int(own.integers(n)),
        )
        self._deal(s)
        return s

    def _deal(self, s: RommeState) -> None:
        cfg = self.config
        n, size = self.num_players, cfg.hand_size
        deck = shuffled(self._shoe, s.rng)
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
            s.discard, s.phase = [], PLAY
        else:
            s.discard, s.phase = [rest.pop()], DRAW
        s.stock = rest
        s.current = first
        s.turns = 0
        self._start_turn(s)
        self._table_changed(s)
        self.refresh_public(s)

    @staticmethod
    def refresh_public(s: RommeState) -> None:
        """Rebuild the parts of the public records that summarise other fields (who opened,
        hand sizes, totals, the dealer, the pile counts): after a deal, a scoring, or a state
        built by hand. Play keeps them up to date step by step."""
        s.public[:, _OPENED] = s.opened
        s.public[:, _SIZE] = s.hands.sum(axis=1)
        s.public[:, _TOTAL] = s.totals / 100.0
        s.public[:, _DEALER] = 0
        s.public[s.dealer, _DEALER] = 1
        s.pile[:] = np.bincount(s.discard, minlength=NUM_KINDS)

    @staticmethod
    def _start_turn(s: RommeState) -> None:
        s.drawn_discard = -1
        s.opened_now = False
        s.pending_value = 0
        s.exchanged = s.jokers_placed = 0

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
        z["stock"] = np.bincount(state.stock, minlength=NUM_KINDS)
        z["discard"] = np.bincount(state.discard, minlength=NUM_KINDS)
        return z

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
        if not self.config.exchanged_joker_must_be_used:
            return 0
        return max(0, s.exchanged - s.jokers_placed)

    def opening_reachable(
        self, s: RommeState, hand: np.ndarray, layable: np.ndarray | None = None
    ) -> bool:
        """Can the mover still complete an opening from ``hand`` and the pending melds?
        (``layable``: ``self.opening.layable(hand)`` when the caller has it already.)"""
        need = self.config.opening_min - s.pending_value
        return need <= 0 or self.opening.best(hand, need, layable)[0] >= need

    # -- the mask ----------------------------------------------------------------------------
    def _legal_mask(self, s: RommeState) -> np.ndarray:
        mask = np.zeros(A.NUM_ACTIONS, np.int8)
        if s.over:
            return mask
        if s.phase == DRAW:
            mask[A.DRAW_STOCK] = bool(s.stock)
            mask[A.DRAW_DISCARD] = self._may_take(s)
            return mask
        cfg, p = self.config, s.current
        hand = s.hands[p]
        size = int(hand.sum())
        opened = bool(s.opened[p])
        pending = self.pending(s)
        self._placement_mask(s, mask, hand, size)
        if self.may_use_table(s) or (not opened and cfg.exchange_before_opening):
            for k in np.flatnonzero(s.exch).tolist():
                if hand[k]:
                    mask[A.EXCHANGE + k] = self._exchange_usable(s, k)
        mask[A.ABANDON] = pending
        # discard
        if pending and not (self.hand_rummy_exempt(s) and size == 1):
            return mask
        if self.owed_jokers(s) and self._joker_usable(s, mask):
            return mask
        discards = hand > 0
        if cfg.forbid_rediscard_of_drawn_discard and s.drawn_discard >= 0:
            discards[s.drawn_discard] = False
        if not cfg.may_discard_joker:
            discards[JOKER] = False
        mask[A.DISCARD : A.LAY_OFF] = discards if discards.any() else hand > 0
        return mask

    def _placement_mask(self, s: RommeState, mask: np.ndarray, hand: np.ndarray, size: int) -> None:
        """Write the legal melds and lay-offs of the mover, holding ``hand`` of ``size`` cards,
        into ``mask``."""
        mask[A.MELD : A.MELD + len(self._no_shapes)] = self._shape_mask(s, hand, size)
        if size > self.config.must_discard_to_go_out and self.may_use_table(s):
            mask[A.LAY_OFF : A.EXCHANGE] = (hand > 0) & (s.accept > 0)

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
        length = self.opening.length
        if room < _LONGEST:  # (most hands hold more cards than the longest meld)
            ok &= room >= length
        if not opened and size <= _LONGEST:
            for shape in np.flatnonzero(ok & (size == length)):
                ok[shape] = self._completes(s, int(shape))
        return ok

    def _may_take(self, s: RommeState) -> bool:
        cfg, p = self.config, s.current
        if not s.discard:
            return False
        if not cfg.discard_draw_requires_opening or s.opened[p] or not s.stock:
            return True
        hand = s.hands[p].copy()
        card = s.discard[-1]
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
        card = s.drawn_discard
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

    def _joker_usable(self, s: RommeState, mask: np.ndarray) -> bool:
        """Is some legal action putting a joker on the table (``mask`` holds the melds and
        lay-offs already)?"""
        if mask[A.LAY_OFF + JOKER]:
            return True
        shapes = np.flatnonzero(mask[A.MELD :])
        naturals = self.opening.naturals(s.hands[s.current])[shapes]
        return bool((self.opening.length[shapes] > naturals).any())

    def _exchange_usable(self, s: RommeState, k: int) -> bool:
        """The exchange is offered only if the freed joker can go back on the table at once:
        laid off (on the meld it came from or another) or melded from the new hand."""
        if not self.config.exchanged_joker_must_be_used:
            return True
        cfg = self.config
        hand = s.hands[s.current].copy()
        hand[k] -= 1
        hand[JOKER] += 1
        size = int(hand.sum())
        if size > cfg.must_discard_to_go_out and self.may_use_table(s):
            target = next(m for m in s.melds if not m.provisional and k in m.joker_kinds())
            after = copy.copy(target)
            after.cells = list(target.cells)
            after.exchange(k)
            others = s.accept[JOKER] - (target.joker_end(cfg) >= 0)
            if others > 0 or after.joker_end(cfg) >= 0:
                return True
        shapes = self._shape_mask(s, hand, size)
        return bool((shapes & (self.opening.naturals(hand) < self.opening.length)).any())

    # -- transitions -------------------------------------------------------------------------
    def _apply(self, s: RommeState, a: int) -> None:
        p = s.current
        hand = s.hands[p]
        if a == A.DRAW_STOCK:
            hand[s.stock.pop()] += 1
            s.public[p, _SIZE] += 1
            self._refill(s)
            s.phase = PLAY
        elif a == A.DRAW_DISCARD:
            card = s.drawn_discard = s.discard.pop()
            s.pile[card] -= 1
            s.public[p, _TAKEN + card] += 1
            s.public[p, _SIZE] += 1
            hand[card] += 1
            s.phase = PLAY
        elif a >= A.MELD:
            self._meld(s, a - A.MELD)
        elif a >= A.EXCHANGE:
            k = a - A.EXCHANGE
            target = next(m for m in s.melds if not m.provisional and k in m.joker_kinds())
            target.exchange(k)
            hand[k] -= 1
            hand[JOKER] += 1
            s.exchanged += 1
            self._table_changed(s)
        elif a >= A.LAY_OFF:
            k = a - A.LAY_OFF
            if k == JOKER:
                target = next(
                    m for m in s.melds if not m.provisional and m.joker_end(self.config) >= 0
                )
                s.jokers_placed += 1
            else:
                target = next(
                    m for m in s.melds if not m.provisional and k in m.accepts(self.config)
                )
            target.add(k, self.config)
            hand[k] -= 1
            s.public[p, _SIZE] -= 1
            self._table_changed(s)
            if not hand.any():
                self._end_round(s, p)
        elif a == A.ABANDON:
            while s.melds and s.melds[-1].provisional:
                m = s.melds.pop()
                np.add.at(hand, m.cards(), 1)
                s.public[p, _SIZE] += len(m)
                s.jokers_placed -= m.joker_count()
            s.pending_value = 0
            self._table_changed(s)
        else:
            k = a - A.DISCARD
            hand[k] -= 1
            s.discard.append(k)
            s.pile[k] += 1
            s.public[p, _DISCARDED + k] += 1
            s.public[p, _SIZE] -= 1
            if not hand.any():
                if self.pending(s):  # going out under hand_rummy_ignores_opening_min
                    self._commit(s)
                self._end_round(s, p)
            else:
                self._end_turn(s)

    def _meld(self, s: RommeState, shape: int) -> None:
        p = s.current
        hand = s.hands[p]
        opened = bool(s.opened[p])
        m = meld_from_shape(shape, hand, p, provisional=not opened)
        for c in m.naturals():
            hand[c] -= 1
        hand[JOKER] -= m.joker_count()
        s.public[p, _SIZE] -= len(m)
        s.jokers_placed += m.joker_count()
        s.melds.append(m)
        if not opened:
            s.pending_value += m.value()
            done = s.pending_value >= self.config.opening_min and self._drawn_card_used(s)
            if done or not hand.any():
                self._commit(s)
        self._table_changed(s)
        if not hand.any():
            self._end_round(s, p)

    @staticmethod
    def _commit(s: RommeState) -> None:
        """The pending melds become the mover's opening."""
        for m in s.melds:
            m.provisional = False
        s.opened[s.current] = s.opened_now = True
        s.public[s.current, _OPENED] = 1
        s.pending_value = 0

    def _table_changed(self, s: RommeState) -> None:
        """Rebuild the lay-off and exchange targets (committed melds only)."""
        cfg = self.config
        s.accept[:] = 0
        s.exch[:] = 0
        for m in s.melds:
            if m.provisional:
                continue
            for k in m.accepts(cfg):
                s.accept[k] += 1
            s.accept[JOKER] += m.joker_end(cfg) >= 0
            for k in m.joker_kinds():
                s.exch[k] += 1
        s.version += 1

    def _refill(self, s: RommeState) -> None:
        """With ``on_stock_empty="reshuffle"`` an empty stock is rebuilt from the discard pile
        but its top card."""
        if not s.stock and self.config.on_stock_empty == "reshuffle" and len(s.discard) > 1:
            s.stock = s.discard[:-1]
            s.rng.shuffle(s.stock)
            s.discard = s.discard[-1:]
            s.pile[:] = 0
            s.pile[s.discard[0]] = 1

    def _end_turn(self, s: RommeState) -> None:
        cfg = self.config
        if not s.stock and cfg.on_stock_empty == "block":
            self._end_round(s, -1)
            return
        s.turns += 1
        if s.turns >= cfg.max_turns_per_round:
            s.over = s.truncated = True
            return
        self._refill(s)
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
        s.public[:, _TOTAL] = s.totals / 100.0
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
        top = cards_str(state.discard[-1:], symbols) or "-"
        lines = [
            f"Rommé  round {state.rounds_played + (not state.over)}  dealer player_"
            f"{state.dealer}  stock {len(state.stock)}  discard {top} ({len(state.discard)})"
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
            lines.append(f"round truncated after {state.turns} turns (max_turns_per_round)")
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
