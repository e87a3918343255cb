"""Exact meld solver shared by the rummy games: minimum deadwood, complete partitions and the
show/go-out discard mask.

No game knowledge lives here: every rule is a field of :class:`MeldRules`. Hands are the count
vectors of :mod:`envs.core.cards` (53 kinds, at most 3 copies of a kind). The partition
questions are answered by one rank-sweep dynamic programme (:mod:`envs.core.melds_kernel`,
algorithm in notes/meld-solver.md). The opening value (a max-plus objective over few cards,
with joker limits) is :mod:`envs.core.opening`.

Positions: a run lies on positions 0..13 of one suit, 0 = ace low, 1..12 = 2..K, 13 = ace high.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import NamedTuple

import numpy as np

from envs.core import melds_kernel as K
from envs.core.cards import JOKER, NUM_KINDS, kind

GROUP_MODES = ("any", "distinct")
WILD_LIMITS = ("none", "not_more_than_naturals", "one_per_meld")
ROMME_MELD_VALUES = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 11)
"""Value of a melded card by run position (0 = ace low .. 13 = ace high); groups of aces use
position 13. German Rommé's opening values."""


def wild_mask(ranks: Iterable[int] = (), kinds: Iterable[int] = (), joker: bool = True) -> tuple:
    """The 53 wild flags: every suit of ``ranks``, the listed ``kinds`` and the printed joker."""
    flags = [False] * NUM_KINDS
    for r in ranks:
        for s in range(4):
            flags[kind(r, s)] = True
    for k in kinds:
        flags[k] = True
    flags[JOKER] = joker
    return tuple(flags)


def card_values(ace: int = 10, court: int = 10, joker: int = 20) -> tuple:
    """The 53 values of unmelded cards: ace ``ace``, 2-10 face value, J/Q/K ``court``."""
    by_rank = [ace] + list(range(2, 11)) + [court] * 3
    return tuple(by_rank * 4 + [joker])


@dataclass(frozen=True)
class MeldRules:
    """Every meld rule the solver knows, so one solver serves every rummy game."""

    wild: tuple = field(default_factory=lambda: wild_mask())
    """53 flags: kinds that may act as a wild card (printed jokers, wild-rank cards). A wild
    kind other than the joker may also stand for itself in its natural place."""
    values: tuple = field(default_factory=card_values)
    """53 values of an unmelded non-wild card (Marriage: ace 10 or 1, 2-10 face, J/Q/K 10)."""
    wild_penalty: int = 20
    """Value of an unmelded wild card (a printed joker or a wild-rank card)."""
    lives_required: int = 0
    """Pure sequences ("lives") an arrangement must contain, 0..3. Without them the whole hand
    counts and nothing can be melded out."""
    allow_runs: bool = True
    allow_groups: bool = True
    group_mode: str = "any"
    """"any": 3+ cards of one rank, duplicates allowed (Marriage); "distinct": 3-4 cards of one
    rank in distinct suits (Rommé). Three identical cards (a tunnela) are a group in both."""
    max_group_size: int | None = None
    """Cap on a group's size including its wilds (None: no cap in "any", 4 in "distinct")."""
    allow_wraparound: bool = False
    """K-A-2 runs. Not supported yet: every solver raises NotImplementedError."""
    wild_in_natural_place_is_pure: bool = False
    """A wild-rank card standing for itself keeps a run pure (Indian-rummy convention)."""
    allow_all_wild_melds: bool = False
    """Melds made only of cards acting as wilds. False is the anchor rule: every meld needs one
    card that is not acting as a wild (a wild-rank card standing for itself counts)."""
    tunnela_counts_as_life: bool = False
    """Three identical cards (a tunnela) count as a life."""
    wild_limit: str = "none"
    """Wilds per meld beyond the anchor rule: "not_more_than_naturals" or "one_per_meld"
    (Rommé). Only :mod:`envs.core.opening` supports limits; the partition solver raises."""
    wilds_may_touch: bool = True
    """False forbids two wilds side by side in a run (Rommé variant; :mod:`envs.core.opening`
    only)."""

    def __post_init__(self) -> None:
        if len(self.wild) != NUM_KINDS or len(self.values) != NUM_KINDS:
            raise ValueError(f"wild and values need {NUM_KINDS} entries")
        if self.group_mode not in GROUP_MODES:
            raise ValueError(f"group_mode {self.group_mode!r}: expected one of {GROUP_MODES}")
        if self.wild_limit not in WILD_LIMITS:
            raise ValueError(f"wild_limit {self.wild_limit!r}: expected one of {WILD_LIMITS}")
        if not 0 <= self.lives_required <= 3:
            raise ValueError(f"lives_required {self.lives_required}: expected 0..3")
        if self.max_group_size is not None and self.max_group_size < 3:
            raise ValueError(f"max_group_size {self.max_group_size}: expected None or >= 3")

    def card_value(self, k: int) -> int:
        """Penalty of card kind ``k`` left unmelded."""
        return self.wild_penalty if self.wild[k] else self.values[k]

    def group_cap(self) -> int | None:
        """Largest group size, None for no cap."""
        if self.group_mode == "distinct":
            return 4 if self.max_group_size is None else min(4, self.max_group_size)
        return self.max_group_size


@dataclass(frozen=True)
class Meld:
    """One meld of an arrangement, in the order a person would lay it out."""

    cards: tuple[int, ...]
    """Card kinds; a run lists them from its first position to its last."""
    is_run: bool
    is_life: bool
    """Counted as one of the required lives (a pure run, or a tunnela when that rule is on)."""
    as_wild: tuple[bool, ...]
    """Per card: acting as a wild (False for a wild-rank card standing for itself)."""
    first: int
    """A run's first position (0 = ace low .. 13 = ace high); a group's rank (-1 for a group
    made only of wilds, when the rules allow one)."""


@dataclass(frozen=True)
class Arrangement:
    """The solver's answer with its evidence: the melds and the cards left over."""

    penalty: int
    melds: tuple[Meld, ...]
    deadwood: tuple[int, ...]


# --------------------------------------------------------------------------- compiled rules


@dataclass(frozen=True)
class _Compiled:
    wildk: np.ndarray
    wild53: np.ndarray  # bool, the printed joker included
    vals: np.ndarray
    prm: np.ndarray
    opt_start: np.ndarray
    opt_dead: np.ndarray
    opt_w: np.ndarray
    opt_room: np.ndarray
    opt_lives: np.ndarray
    opt_cost: np.ndarray
    allwild: np.ndarray
    compositions: tuple  # per option: ((suit counts, wilds, is_life), ...) for reconstruction

    def tables(self) -> tuple:
        return (self.opt_start, self.opt_dead, self.opt_w, self.opt_room, self.opt_lives,
                self.opt_cost)


class _Groups(NamedTuple):
    """Everything the group search at one rank depends on, so ranks and rule sets that agree
    share it (a new wild rank then costs one rank's table, not thirteen)."""

    allow: bool
    mode: str
    cap: int | None
    tunnela_life: bool
    pure_variant: bool
    wild: tuple  # per suit: is this rank's card wild


def _groups(rules: MeldRules, r: int) -> _Groups:
    return _Groups(rules.allow_groups, rules.group_mode, rules.group_cap(),
                   rules.tunnela_counts_as_life, rules.wild_in_natural_place_is_pure,
                   tuple(rules.wild[kind(r, s)] for s in range(4)))


def _group_shapes(g: _Groups, pool: tuple) -> list:
    """Every single group that can be formed from ``pool``: (used, wilds, room, life). Wilds
    are the minimum needed; extra wilds are the group's room."""
    cap = g.cap
    shapes = []
    for s in range(4):  # a tunnela: a group even in "distinct" mode, perhaps a life
        life = g.tunnela_life and (not g.wild[s] or g.pure_variant)
        if pool[s] >= 3 and (life or g.mode == "distinct"):
            shapes.append((tuple(3 if t == s else 0 for t in range(4)), 0, 0, int(life)))
    limit = 1 if g.mode == "distinct" else 3
    for u0 in range(min(pool[0], limit) + 1):
        for u1 in range(min(pool[1], limit) + 1):
            for u2 in range(min(pool[2], limit) + 1):
                for u3 in range(min(pool[3], limit) + 1):
                    n = u0 + u1 + u2 + u3
                    if n == 0:
                        continue
                    w = max(0, 3 - n)
                    if cap is not None and n + w > cap:
                        continue
                    room = K.INF_ROOM if cap is None else cap - n - w
                    shapes.append(((u0, u1, u2, u3), w, room, 0))
    return shapes


def _beats(q: tuple, o: tuple) -> bool:
    """Outcome q is at least as good as o in every future: no more lives lost, and the wilds
    it saves fit into its extra room (notes/meld-solver.md, pruning 6)."""
    return q[3] >= o[3] and q[1] <= o[1] and q[2] - (o[1] - q[1]) >= o[2]


def _prune(opts: dict) -> dict:
    """Drop dominated outcomes: those beaten by one with the same dead cards, and those with
    two or more dead cards (useless to the discard mask) beaten by one with a card fewer dead."""
    by_dead: dict = {}
    for o in opts:
        by_dead.setdefault(o[0], []).append(o)
    keep = {}
    for dead, group in by_dead.items():
        fewer = []
        if sum(dead) >= 2:
            for s in range(4):
                if dead[s]:
                    less = tuple(d - (t == s) for t, d in enumerate(dead))
                    fewer.extend(by_dead.get(less, ()))
        for o in group:
            if any(q != o and _beats(q, o) for q in group) or any(_beats(q, o) for q in fewer):
                continue
            keep[o] = opts[o]
    return keep


@cache
def _pool_outcomes(g: _Groups, pool: tuple) -> dict:
    """Non-dominated ways to form groups from ``pool``:
    (dead, wilds, room, lives) -> composition ((used per suit, wilds, is_life), ...).
    Without a size cap in "any" mode two ordinary groups never beat their union, so only one
    ordinary group (plus tunnelas counted as lives) is tried."""
    out = {(pool, 0, 0, 0): ()}
    single = g.mode == "any" and g.cap is None
    if g.allow:
        for used, w, room, life in _group_shapes(g, pool):
            rest = tuple(a - b for a, b in zip(pool, used, strict=True))
            if single and not life:
                out.setdefault((rest, w, room, 0), ((used, w, 0),))
                continue
            for (dead, w2, room2, l2), comp in _pool_outcomes(g, rest).items():
                key = (dead, w + w2, min(K.INF_ROOM, room + room2), life + l2)
                out.setdefault(key, ((used, w, life), *comp))
    return _prune(out)


@cache
def _group_options(g: _Groups, values: tuple) -> tuple:
    """For each of the 256 pools at a rank: (dead, wilds, room, lives, cost, composition);
    ``values`` are the rank's card values per suit."""
    table = []
    for pidx in range(256):
        pool = tuple((pidx >> (2 * s)) & 3 for s in range(4))
        kept = []
        for (dead, w, room, lives), comp in _pool_outcomes(g, pool).items():
            if any(dead[s] and g.wild[s] for s in range(4)):
                continue
            cost = sum(dead[s] * values[s] for s in range(4))
            kept.append((dead, w, room, lives, cost, comp))
        table.append(kept)
    return tuple(table)


def _allwild_table(rules: MeldRules) -> np.ndarray:
    """allwild[j]: j spare wilds can be laid out as melds made only of wilds."""
    ok = np.zeros(64, np.int64)
    if not rules.allow_all_wild_melds:
        return ok
    sizes = set()
    if rules.allow_runs:
        sizes.update(range(3, 14))
    if rules.allow_groups:
        cap = rules.group_cap()
        sizes.update(range(3, 64 if cap is None else cap + 1))
    ok[0] = 1
    for j in range(3, 64):
        ok[j] = any(ok[j - m] for m in sizes if m <= j)
    ok[0] = 0
    return ok


@lru_cache(maxsize=64)
def _compile(rules: MeldRules) -> _Compiled:
    if rules.allow_wraparound or rules.wild_limit != "none" or not rules.wilds_may_touch:
        raise NotImplementedError(
            "the partition solver supports neither allow_wraparound nor wild_limit or "
            "wilds_may_touch=False (best_opening supports the last two)"
        )
    starts = [0]
    dead, ws, rooms, lives, costs, comps = [], [], [], [], [], []
    for r in range(13):
        values = tuple(rules.values[kind(r, s)] for s in range(4))
        for opts in _group_options(_groups(rules, r), values):
            for o in opts:
                dead.append(o[0])
                ws.append(o[1])
                rooms.append(o[2])
                lives.append(o[3])
                costs.append(o[4])
                comps.append(o[5])
            starts.append(len(ws))
    cap = rules.group_cap()
    pad1 = not (rules.allow_groups and (cap is None or cap >= 3))
    prm = np.zeros(K.N_PRM, np.int64)
    prm[K.P_LIVES] = rules.lives_required
    prm[K.P_PURE_VARIANT] = rules.wild_in_natural_place_is_pure
    prm[K.P_RUNS] = rules.allow_runs
    prm[K.P_WILD_PEN] = rules.wild_penalty
    prm[K.P_JOKER_WILD] = rules.wild[JOKER]
    prm[K.P_PAD1] = pad1
    prm[K.P_GROUPS] = rules.allow_groups
    prm[K.P_TUNNELA_LIFE] = rules.tunnela_counts_as_life
    prm[K.P_TB_RUNS] = rules.wild_in_natural_place_is_pure or not rules.allow_groups
    one_group = rules.group_mode == "any" and cap is None  # one group holds any number of wilds
    tunnela_life = rules.tunnela_counts_as_life and rules.wild_in_natural_place_is_pure
    prm[K.P_TB_GROUP] = 1 if one_group and not tunnela_life else 12
    return _Compiled(
        wildk=np.array(rules.wild[:52], np.int64),
        wild53=np.array(rules.wild, bool),
        vals=np.array([rules.card_value(k) for k in range(NUM_KINDS)], np.int64),
        prm=prm,
        opt_start=np.array(starts, np.int64),
        opt_dead=np.array(dead, np.int64).reshape(-1, 4),
        opt_w=np.array(ws, np.int64),
        opt_room=np.array(rooms, np.int64),
        opt_lives=np.array(lives, np.int64),
        opt_cost=np.array(costs, np.int64),
        allwild=_allwild_table(rules),
        compositions=tuple(comps),
    )


# --------------------------------------------------------------------------- public API


def _as_counts(counts: np.ndarray | Iterable[int]) -> np.ndarray:
    c = np.asarray(counts)
    if c.shape != (NUM_KINDS,) or c.dtype.kind not in "iu":
        raise ValueError(f"expected {NUM_KINDS} integer counts, got shape {c.shape} of {c.dtype}")
    return c


def hand_value(counts: np.ndarray, rules: MeldRules) -> int:
    """Penalty of the whole hand: every card unmelded, wild cards at ``wild_penalty``."""
    return int(np.asarray(counts, dtype=np.int64) @ _compile(rules).vals)


def _split(counts: np.ndarray, rules: MeldRules) -> tuple[np.ndarray, int, _Compiled, int]:
    """The cards the sweep sees, the non-wild printed jokers (never meldable), the compiled
    rules and the number of wild cards."""
    cp = _compile(rules)  # also rejects rules the sweep does not support
    c, loose, wilds = K.split_hand(_as_counts(counts), cp.wildk, rules.wild[JOKER])
    if wilds < 0:
        raise ValueError("counts must be 0..3 per card kind")
    if wilds > 31:
        raise ValueError(f"{wilds} wild cards: the solver handles at most 31")
    return c, int(loose), cp, int(wilds)


_TABLES = [K.tables(11)]  # the sweep's state tables, reused by every solve and grown on demand
_SCRATCH = K.workspace()
_STEPS = [(p, sub) for p in range(15) for sub in range(4 if p > 12 else 5)]
_NO_DISCARD = np.zeros(NUM_KINDS, np.int64)


def _grow() -> None:
    log2 = int(_TABLES[0][0][1].shape[0]).bit_length() + 1
    if log2 > 24:
        raise MemoryError("meld sweep: more than 8 million states in one layer")
    _TABLES[0] = K.tables(log2)


def _solve(c: np.ndarray, cp: _Compiled, mode: int, allowed: np.ndarray = _NO_DISCARD) -> int:
    while True:
        answer, overflow = K.solve(c, cp.wildk, cp.vals, cp.prm, *cp.tables(), cp.allwild,
                                   allowed, mode, _TABLES[0], _SCRATCH,
                                   *K.NO_RECORD)
        if not overflow:
            return int(answer)
        _grow()


def _recorded_sweep(c: np.ndarray, cp: _Compiled, mode: int) -> tuple:
    """Every layer of a sweep (states, values, layer offsets), for the reconstruction."""
    size = 1 << 14
    while True:
        keys, vals = np.empty((size, 3), np.int64), np.empty(size, np.int64)
        at = np.zeros(len(_STEPS) + 2, np.int64)
        _, overflow = K._sweep(c, cp.wildk, cp.vals, cp.prm, *cp.tables(), _NO_DISCARD, mode,
                               _TABLES[0], _SCRATCH, keys, vals, at)
        if not overflow:
            return keys, vals, at
        if any(tb[3][1] for tb in _TABLES[0]):
            _grow()
        else:  # the record ran out
            size *= 4


def deadwood(counts: np.ndarray, rules: MeldRules) -> int:
    """Minimum penalty left unmelded over arrangements with the required lives; the whole
    hand's value when no arrangement has them. The fast score (no arrangement built)."""
    c, loose, cp, _ = _split(counts, rules)
    if not K.life_possible(c, cp.wildk, cp.prm):
        return hand_value(counts, rules)
    cost = _solve(c, cp, K.COST)
    if cost < 0:
        return hand_value(counts, rules)
    return cost + loose * rules.values[JOKER]


def can_meld_all(counts: np.ndarray, rules: MeldRules) -> bool:
    """Can every card be melded, with the required lives?"""
    c, loose, cp, wilds = _split(counts, rules)
    if loose or not K.life_possible(c, cp.wildk, cp.prm):
        return False
    if K.wild_shares(c, cp.wildk, cp.prm, wilds)[1] > wilds * K.SHARE_UNIT:
        return False
    return _solve(c, cp, K.FEAS) > 0


def show_discards(counts: np.ndarray, rules: MeldRules) -> np.ndarray:
    """For a hand one card over: which kinds can be discarded so that the rest can be melded
    completely with the required lives (53 bools, set only for kinds held), found in one sweep
    with a discard token (a state's future does not depend on which card was left out, so
    states merge)."""
    c, loose, cp, wilds = _split(counts, rules)
    mask = np.zeros(NUM_KINDS, bool)
    if loose:
        if loose == 1:
            mask[JOKER] = can_meld_all(_minus(counts, JOKER), rules)
        return mask
    allowed = K.discard_candidates(c, cp.wildk, cp.wild53, cp.prm, wilds)
    if not allowed.any():
        return mask
    return K.mask_of(_solve(c, cp, K.MASK, allowed))


def _minus(counts: np.ndarray, k: int) -> np.ndarray:
    c = np.array(counts, dtype=np.int64)
    c[k] -= 1
    return c


# --------------------------------------------------------------------------- reconstruction


def min_deadwood(counts: np.ndarray, rules: MeldRules, complete: bool = False) -> Arrangement:
    """The arrangement behind :func:`deadwood`: melds with the required lives that leave the
    least penalty, or no melds and the whole hand when no arrangement has the lives.

    Re-runs the sweep keeping every layer, then walks back from the best final state, so a
    person (or a test) can check the count meld by meld. ``complete=True`` is for a hand known
    to meld completely (a valid show): the sweep then leaves no card unmelded, several times
    faster; such a hand that does not meld raises ValueError."""
    c, loose, cp, wilds = _split(counts, rules)
    loose_cards = (JOKER,) * loose
    everything = Arrangement(hand_value(counts, rules), (), tuple(_cards_of(counts)))
    if not K.life_possible(c, cp.wildk, cp.prm) and not complete:
        return everything
    mode = K.FEAS if complete else K.COST
    nxt, resok = K._prepare(c, wilds, cp.wildk, cp.prm)
    best, final, moves = K.backtrack(*_recorded_sweep(c, cp, mode), c, cp.wildk, cp.vals, nxt,
                                     resok, cp.prm, *cp.tables(), cp.allwild, mode)
    if best < 0 and complete:
        raise ValueError("complete=True: this hand cannot be melded completely")
    if best < 0:
        return everything
    if moves[:, 0].min() < 0:
        raise AssertionError("meld reconstruction lost its path")
    steps = [(p, sub, int(m), int(misc)) for (p, sub), (m, misc) in zip(_STEPS, moves,
                                                                       strict=True)]
    arrangement = _replay(c, rules, cp, steps, int(final), loose_cards)
    if arrangement.penalty != best + loose * rules.values[JOKER]:
        raise AssertionError("meld reconstruction disagrees with the sweep")
    return arrangement


def _cards_of(counts: np.ndarray) -> list[int]:
    c = np.asarray(counts, dtype=np.int64)
    return np.repeat(np.arange(NUM_KINDS), c).tolist()


class _Run:
    """A run being built during the replay: its first position and cards (None: a wild)."""

    def __init__(self, pos: int, card: int, pure: bool) -> None:
        self.first = pos
        self.cards: list[int | None] = [card]
        self.pure = pure


def _replay(c: np.ndarray, rules: MeldRules, cp: _Compiled, moves: list, final_misc: int,
            loose_cards: tuple) -> Arrangement:
    """Turn the sweep's moves into melds, then place spare wilds and name every wild card.
    Each move is decoded exactly as the kernel encoded it (see ``melds_kernel._suit_step``)."""
    runs: list[list[_Run]] = [[], [], [], []]
    melds: list[list] = []  # [cards, is_run, is_life, first, room]
    dead: list[int] = []
    reserved = [0, 0, 0, 0]
    cap = rules.group_cap()
    lives = rules.lives_required
    scr = np.zeros((K.R_OPTS, K.MAX_RUNS), np.int64)

    def close(run: _Run, life: bool) -> None:
        pad = 3 - len(run.cards)
        if pad > 0:
            after = min(pad, 13 - (run.first + len(run.cards) - 1))
            run.cards = [None] * (pad - after) + run.cards + [None] * after
            run.first -= pad - after
        melds.append([run.cards, True, life, run.first, 0 if life else 13 - len(run.cards)])

    for p, sub, m, misc in moves:
        if sub == 4:
            for used, w, life in cp.compositions[m]:
                cards = [kind(p, s) for s in range(4) for _ in range(used[s])]
                room = K.INF_ROOM if cap is None else cap - len(cards) - w
                melds.append([cards + [None] * w, False, bool(life), p, 0 if life else room])
            dead += [kind(p, s) for s in range(4) for _ in range(int(cp.opt_dead[m][s]))]
            continue
        s = sub
        if not runs[s] and not m and p not in (0, 13):
            continue  # nothing of this suit here
        card = kind(p % 13, s) if p <= 13 else -1
        iswild = p <= 13 and bool(rules.wild[card])
        k, h = (m >> 20) & 15, (m >> 28) & 3
        survivors = []
        used = 0
        for i, run in enumerate(runs[s]):
            a = ((m & 0xFFFFF) // 5**i) % 5
            if a in (0, 1):
                close(run, a == 0)
                continue
            run.cards.append(None if a == 4 else card)
            run.pure = run.pure and (a == 2 or (a == 3 and rules.wild_in_natural_place_is_pure))
            used += a in (2, 3)
            survivors.append(run)
        if p == 0:
            reserved[s] = h
        if p <= 12:
            pure_new = not iswild or rules.wild_in_natural_place_is_pure
            survivors += [_Run(p, card, pure_new) for _ in range(k)]
        elif p == 13 and not iswild:
            dead += [card] * (reserved[s] - used)
        n = len(survivors)
        if n > 1:  # the kernel's canonical order of the runs, which later moves refer to
            bal, room, pc = misc & 31, (misc >> 5) & 31, (misc >> 10) & 3
            for i, run in enumerate(survivors):
                scr[K.R_NEW_LEN, i], scr[K.R_NEW_PURE, i] = len(run.cards), run.pure
            K._pack_runs(scr, n, p + 1, room == bal, pc < lives)
            survivors = [survivors[int(scr[K.R_ORDER, j])] for j in range(n)]
        runs[s] = survivors
    return _finish(c, rules, melds, dead, final_misc, loose_cards)


def _allwild_sizes(rules: MeldRules, j: int) -> list[tuple[int, bool]]:
    """Split j wilds into all-wild melds: (size, is_run) pieces."""
    sizes = []
    cap = rules.group_cap()
    if rules.allow_groups:
        sizes += [(m, False) for m in range(3, (j if cap is None else min(j, cap)) + 1)]
    if rules.allow_runs:
        sizes += [(m, True) for m in range(3, min(j, 13) + 1)]
    best: dict[int, list] = {0: []}
    for total in range(3, j + 1):
        for m, is_run in sizes:
            if total - m in best:
                best[total] = best[total - m] + [(m, is_run)]
                break
    return best[j]


def _finish(c: np.ndarray, rules: MeldRules, melds: list, dead: list, final_misc: int,
            loose_cards: tuple) -> Arrangement:
    """Put spare wilds where the kernel's accounting put them, then name each wild card."""
    spare, room = final_misc & 31, (final_misc >> 5) & 31
    cp = _compile(rules)
    best_j, best_left = 0, max(0, spare - room)
    for j in range(3, spare + 1):
        if cp.allwild[j] and max(0, spare - j - room) < best_left:
            best_j, best_left = j, max(0, spare - j - room)
    for size, is_run in _allwild_sizes(rules, best_j) if best_j else []:
        melds.append([[None] * size, is_run, False, 0 if is_run else -1, 0])
    absorb = spare - best_j - best_left
    for meld in melds:
        take = min(absorb, meld[4])
        if take <= 0:
            continue
        absorb -= take
        if meld[1]:
            after = min(take, 14 - meld[3] - len(meld[0]))
            meld[0] = [None] * (take - after) + meld[0] + [None] * after
            meld[3] -= take - after
        else:
            meld[0] = meld[0] + [None] * take
    # Name the wilds: wild-rank cards not standing for themselves, then printed jokers.
    left = {k: int(c[k]) for k in range(52) if rules.wild[k] and c[k]}
    for meld in melds:
        for card in meld[0]:
            if card is not None and card in left:
                left[card] -= 1
    names = [k for k, n in left.items() for _ in range(n)]
    names += [JOKER] * (int(c[JOKER]) if rules.wild[JOKER] else 0)
    out = []
    for cards, is_run, life, first, _ in melds:
        as_wild = tuple(x is None for x in cards)
        named = tuple(names.pop() if x is None else x for x in cards)
        out.append(Meld(named, is_run, life, as_wild, first))
    dead = dead + names + list(loose_cards)
    penalty = sum(rules.card_value(k) for k in dead)
    return Arrangement(penalty, tuple(out), tuple(sorted(dead)))

