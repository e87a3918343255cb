"""Exact meld solver shared by the rummy games: minimum deadwood, complete partitions and the
show/go-out discard mask.

No game knowledge lives here: every rule is a field of :class:`MeldRules`. Hands are the count
vectors of :mod:`taas.envs.core.cards` (53 kinds, at most 3 copies of a kind). The partition
questions are answered by one rank-sweep dynamic programme (:mod:`taas.envs.rummy.melds_kernel`;
the algorithm is explained in the repository's ``docs/meld-solver.md``). The opening value (a
max-plus objective over few cards, with joker limits) is :mod:`taas.envs.rummy.opening`.

Positions: a run lies on positions 0..13 of one suit, 0 = ace low, 1..12 = 2..K, 13 = ace high.
With ``allow_wraparound`` a run may also go round the corner (K-A-2): it goes on past 13 with
the 2 at 14, the 3 at 15 and so on (at most 13 cards, so no rank twice). The sweep itself is
linear; runs through the corner are set aside first, one case per way the hand can make them
(:func:`_corner_cases`), and the rest of each case is swept.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache, lru_cache
from itertools import product
from typing import NamedTuple

import numpy as np

from taas.envs.core.cards import JOKER, NUM_KINDS, kind
from taas.envs.rummy import melds_kernel as K

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
    """Runs go round the corner: K-A-2 and Q-K-A-2-3 are runs (at most 13 cards, no rank
    twice). Exact in every solver here, but slower than linear runs (a sweep per way of
    making the corner runs)."""
    wild_in_natural_place_is_pure: bool = False
    """A wild-rank card standing for itself keeps a run pure (Indian-rummy convention)."""
    allow_all_wild_melds: bool = False
    """Melds made only of cards acting as wilds. False is the anchor rule: every meld needs one
    card that is not acting as a wild (a wild-rank card standing for itself counts)."""
    tunnela_counts_as_life: bool = False
    """Three identical cards (a tunnela) count as a life."""
    wild_limit: str = "none"
    """Wilds per meld beyond the anchor rule: "not_more_than_naturals" or "one_per_meld"
    (Rommé). Only :mod:`taas.envs.rummy.opening` supports limits; the partition solver raises."""
    wilds_may_touch: bool = True
    """False forbids two wilds side by side in a run (Rommé variant; :mod:`taas.envs.rummy.opening`
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

    def __hash__(self) -> int:
        """The fields' hash, computed once (every solver call looks its rules up by it)."""
        h = self.__dict__.get("_hash")
        if h is None:
            h = hash(tuple(self.__dict__.values()))  # the fields, in their order
            object.__setattr__(self, "_hash", h)
        return h

    def __getstate__(self) -> dict:
        """Pickled without the cached hash: string hashes differ between processes."""
        return {k: v for k, v in self.__dict__.items() if k != "_hash"}

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
    made only of wilds, when the rules allow one). A run round the corner (``allow_wraparound``)
    has ``first + len(cards) > 14``: its positions go on past 13 (14 = 2, 15 = 3, ...), card i
    being of rank ``(first + i) % 13``."""


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
    wrap: bool  # runs round the corner: corner cases (see _corner_cases)
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
    it saves fit into its extra room (docs/meld-solver.md, "Why the pruning is safe", rule 5)."""
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


@cache
def _rank_table(g: _Groups, values: tuple) -> tuple:
    """One rank's options as the kernel's arrays: (per-pool start offsets from 0 with the end
    appended, dead (n, 4), wilds, room, lives, cost, compositions). Cached, so a new wild rank
    builds one rank's arrays and reuses the twelve others."""
    options = _group_options(g, values)
    flat = [o for opts in options for o in opts]
    starts = np.cumsum([0] + [len(opts) for opts in options])
    return (
        starts,
        np.array([o[0] for o in flat], np.int64).reshape(-1, 4),
        *(np.array([o[i] for o in flat], np.int64) for i in range(1, 5)),
        tuple(o[5] for o in flat),
    )


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
    if rules.wild_limit != "none" or not rules.wilds_may_touch:
        raise NotImplementedError(
            "the partition solver supports neither wild_limit nor wilds_may_touch=False "
            "(taas.envs.rummy.opening supports both)"
        )
    tables = [_rank_table(_groups(rules, r), tuple(rules.values[kind(r, s)] for s in range(4)))
              for r in range(13)]
    offsets = np.cumsum([0] + [len(t[1]) for t in tables[:-1]])
    starts = np.concatenate([t[0][:-1] + o for t, o in zip(tables, offsets, strict=True)]
                            + [[offsets[-1] + len(tables[-1][1])]])
    cap = rules.group_cap()
    # A one-card run padded with two wilds can absorb 10 more; a group of that card and two
    # wilds does the same job only if it can absorb as many (no cap, or a cap of 13 or more).
    pad1 = not (rules.allow_groups and (cap is None or cap >= 13))
    prm = np.zeros(K.N_PRM, np.int64)
    prm[K.P_LIVES] = rules.lives_required
    prm[K.P_PURE_VARIANT] = rules.wild_in_natural_place_is_pure
    prm[K.P_RUNS] = rules.allow_runs
    prm[K.P_WILD_PEN] = rules.wild_penalty
    prm[K.P_JOKER_WILD] = rules.wild[JOKER]
    prm[K.P_PAD1] = pad1
    prm[K.P_GROUPS] = rules.allow_groups
    prm[K.P_TUNNELA_LIFE] = rules.tunnela_counts_as_life
    # A wild-rank card standing for itself need not start a run when a group of its rank can
    # take the run's place: groups allowed and as roomy as a run (no cap, or 13 or more).
    prm[K.P_TB_RUNS] = (rules.wild_in_natural_place_is_pure or not rules.allow_groups
                        or (cap is not None and cap < 13))
    one_group = rules.group_mode == "any" and cap is None  # one group holds any number of wilds
    tunnela_life = rules.tunnela_counts_as_life and rules.wild_in_natural_place_is_pure
    prm[K.P_TB_GROUP] = 1 if one_group and not tunnela_life else 12
    prm[K.P_WRAP] = rules.allow_runs and rules.allow_wraparound
    prm[K.P_GROUP_CAP] = cap or 0
    return _Compiled(
        wildk=np.array(rules.wild[:52], np.int64),
        wild53=np.array(rules.wild, bool),
        vals=np.array([rules.card_value(k) for k in range(NUM_KINDS)], np.int64),
        prm=prm,
        opt_start=starts.astype(np.int64),
        **{name: np.concatenate([t[i] for t in tables])
           for i, name in enumerate(("opt_dead", "opt_w", "opt_room", "opt_lives", "opt_cost"), 1)},
        allwild=_allwild_table(rules),
        wrap=bool(prm[K.P_WRAP]),
        compositions=tuple(c for t in tables for c in t[6]),
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
    _check_wilds(wilds)
    return c, int(loose), cp, int(wilds)


def _check_wilds(wilds: int) -> None:
    """The errors of :func:`_split`'s count check (``wilds`` -1: a count out of range)."""
    if wilds < 0:
        raise ValueError("counts must be 0..3 per card kind")
    if wilds > 31:
        raise ValueError(f"{wilds} wild cards: the solver handles at most 31")


_TABLES = [K.tables(14)]  # for hands _SMALL cannot hold: reused by every solve, grown on demand
_SMALL = K.tables(13)
"""Tables every solve tries first: most hands fit, and probes into a table grown for the
rare big hand miss the cache (heavy show checks ~10-25% slower at 2**15-2**16 slots)."""
_SCRATCH = K.workspace()
_STEPS = [(p, sub) for p in range(15) for sub in range(4 if p > 12 else 5)]
_NO_DISCARD = np.zeros(NUM_KINDS, np.int64)
_RECORD = [1 << 14]  # states a recorded sweep has room for, grown on demand


def _grow() -> None:
    log2 = int(_TABLES[0][0][1].shape[0]).bit_length() + 1
    if log2 > 24:
        raise MemoryError("meld sweep: more than 8 million states in one layer")
    _TABLES[0] = K.tables(log2)


def _solve(c: np.ndarray, cp: _Compiled, mode: int, allowed: np.ndarray = _NO_DISCARD,
           prm: np.ndarray | None = None) -> int:
    prm = cp.prm if prm is None else prm
    tables = _SMALL
    while True:
        answer, overflow = K.solve(c, cp.wildk, cp.vals, prm, *cp.tables(), cp.allwild,
                                   allowed, mode, tables, _SCRATCH,
                                   *K.NO_RECORD)
        if not overflow:
            return int(answer)
        if tables is not _SMALL:
            _grow()
        tables = _TABLES[0]


def _recorded_sweep(c: np.ndarray, cp: _Compiled, mode: int, prm: np.ndarray) -> tuple:
    """Every layer of a sweep (states, values, layer offsets), for the reconstruction. The
    record keeps the largest size any sweep needed, so a big hand re-sweeps once, not per call."""
    tables = _SMALL
    while True:
        size = _RECORD[0]
        keys, vals = np.empty((size, 3), np.int64), np.empty(size, np.int64)
        at = np.zeros(len(_STEPS) + 2, np.int64)
        _, overflow = K._sweep(c, cp.wildk, cp.vals, prm, *cp.tables(), _NO_DISCARD, mode,
                               tables, _SCRATCH, keys, vals, at)
        if not overflow:
            return keys, vals, at
        if any(tb[3][1] for tb in tables):
            if tables is not _SMALL:
                _grow()
            tables = _TABLES[0]
        else:  # the record ran out
            _RECORD[0] = size * 4


def deadwood(counts: np.ndarray, rules: MeldRules) -> int:
    """Minimum penalty left unmelded over arrangements with the required lives; the whole
    hand's value when no arrangement has them. The fast score (no arrangement built)."""
    c, loose, cp, wilds = _split(counts, rules)
    if not K.life_possible(c, cp.wildk, cp.prm):
        return hand_value(counts, rules)
    cost = _wrap_cheapest(c, rules, cp, wilds)[1] if cp.wrap else _solve(c, cp, K.COST)
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
    if cp.wrap:
        return _wrap_feasible(c, rules, cp, wilds) is not None
    return _solve(c, cp, K.FEAS) > 0


def show_discards(counts: np.ndarray, rules: MeldRules) -> np.ndarray:
    """For a hand one card over: which kinds can be discarded so that the rest can be melded
    completely with the required lives (53 bools, set only for kinds held), found in one sweep
    with a discard token (a state's future does not depend on which card was left out, so
    states merge). With ``allow_wraparound``, one such sweep per corner case, OR-ed: the
    discard is never in a corner run, so it is left out of the rest of some case."""
    cp = _compile(rules)
    c, loose, wilds, allowed, n_allowed = K.show_candidates(_as_counts(counts), cp.wildk,
                                                            cp.wild53, cp.prm)
    _check_wilds(wilds)
    mask = np.zeros(NUM_KINDS, bool)
    if loose:
        if loose == 1:
            mask[JOKER] = can_meld_all(_minus(counts, JOKER), rules)
        return mask
    if not n_allowed:
        return mask
    if not cp.wrap:
        return K.mask_of(_solve(c, cp, K.MASK, allowed))
    bits = 0
    for case in _corner_cases(c, rules, cp, wilds):
        here = allowed & K.discard_candidates(case.rest, cp.wildk, cp.wild53, case.prm,
                                              case.bal)
        here &= ~K.mask_of(bits)  # bits already found need no second proof
        if here.any():
            bits |= _solve(case.rest, cp, K.MASK, here, case.prm)
    return K.mask_of(bits)


def _minus(counts: np.ndarray, k: int) -> np.ndarray:
    c = np.array(counts, dtype=np.int64)
    c[k] -= 1
    return c


# --------------------------------------------------------------------------- runs round the corner
#
# With allow_wraparound, every arrangement can be rewritten, without changing which cards are
# melded, the lives or the room for spare wilds, so that each run through the corner (holding
# the K, A and 2 positions, 12..14) is "short": both its end cards stand for themselves (not
# wilds), with at most two positions left of the K and right of the 2 together (3 to 5 cards:
# K-A-2, Q-K-A-2, K-A-2-3, J-Q-K-A-2, Q-K-A-2-3, K-A-2-3-4). Each rewriting step:
# * a wild at an end beyond the K or the 2 becomes a spare wild absorbed by the same, shorter
#   run (its room grows by one, so the room left is unchanged);
# * three or more positions left of the K (or right of the 2), with a card standing for itself
#   at that end, split off as a linear run; if the corner part then holds only wilds, they are
#   absorbed by that linear run instead (the whole run was at most 13 cards);
# * a 6- or 7-card corner run with natural ends splits into two linear runs of 3+ cards, each
#   holding one of those ends (J-Q-K | A-2-3, Q-K-A | 2-3-4, J-Q-K | A-2-3-4);
# * a run whose cards standing for themselves all lie on one side of the corner (positions
#   <= 13, or >= 13) is a linear run with its wilds placed on that side.
# Pieces of a pure run are pure (so a life stays one or more lives), and pieces offer at least
# the run's room. A run made only of wilds is an all-wild meld, which the sweep covers. So a
# case is a multiset of short corner runs (per suit, each a life or not), its cards removed;
# the sweep of the rest starts with their wilds spent, their room available and the lives
# quota reduced by the lives among them.


class _Case(NamedTuple):
    rest: np.ndarray  # the counts left to the sweep
    prm: np.ndarray  # the sweep's parameters for the rest (linear, quota and wilds reduced)
    bal: int  # wild cards left to the rest as wilds
    melds: tuple  # the corner runs: (cards with None for a wild, first position, is_life)


_CORNER_SPANS = [(lo, hi) for lo in (10, 11, 12) for hi in (14, 15, 16) if hi - lo <= 4]


def _corner_types(c: np.ndarray, rules: MeldRules, s: int, wilds: int) -> list:
    """Every short corner run of suit ``s`` the hand can hold: (natural kinds, wilds, pure,
    cards in run order with None for a wild, first position)."""
    out = []
    for lo, hi in _CORNER_SPANS:
        inner = list(range(lo + 1, hi))
        for fill in product((False, True), repeat=len(inner)):
            if sum(fill) > wilds:
                continue
            wild_at = dict(zip(inner, fill, strict=True))
            cards = [None if wild_at.get(q, False) else kind(q % 13, s)
                     for q in range(lo, hi + 1)]
            naturals = [k for k in cards if k is not None]
            if any(c[k] < 1 for k in naturals):
                continue
            pure = all(k is not None and (not rules.wild[k] or rules.wild_in_natural_place_is_pure)
                       for k in cards)
            out.append((tuple(naturals), sum(fill), pure, tuple(cards), lo))
    return out


def _suit_corners(c: np.ndarray, rules: MeldRules, s: int, wilds: int) -> dict:
    """Every multiset of short corner runs of suit ``s`` the hand can hold, up to dominance:
    (natural kinds used, wild cards spent, lives) -> (room, runs)."""
    quota = rules.lives_required
    states: dict = {((), 0, 0): (0, ())}
    for naturals, w, pure, cards, lo in _corner_types(c, rules, s, wilds):
        room_each = 13 - len(cards)
        spend = w + sum(1 for k in naturals if rules.wild[k])
        frontier = states
        while frontier:  # one more copy of this run at each round
            grown: dict = {}
            for (used, spent, lives), (room, runs) in frontier.items():
                used2 = tuple(sorted(used + naturals))
                if spent + spend > wilds or any(used2.count(k) > c[k] for k in naturals):
                    continue
                options = [(lives, room + room_each, False)]
                if pure and lives < quota:
                    options.append((lives + 1, room, True))
                for lives2, room2, life in options:
                    key = (used2, spent + spend, lives2)
                    if key not in grown or grown[key][0] < room2:
                        grown[key] = (room2, (*runs, (cards, lo, life)))
            for key, value in grown.items():
                if key not in states or states[key][0] < value[0]:
                    states[key] = value
            frontier = grown
    return states


def _corner_cases(c: np.ndarray, rules: MeldRules, cp: _Compiled, wilds: int) -> list[_Case]:
    """Every way (up to dominance: same cards and wilds spent, same lives, no more room) to
    set aside short corner runs, the empty way first."""
    quota = rules.lives_required
    combos: dict = {((), 0, 0): (0, ())}
    for s in range(4):
        options = _suit_corners(c, rules, s, wilds)
        if len(options) == 1:
            continue
        merged: dict = {}
        for (used, spent, lives), (room, runs) in combos.items():
            for (used_s, spent_s, lives_s), (room_s, runs_s) in options.items():
                if spent + spent_s > wilds:
                    continue
                key = (used + used_s, spent + spent_s, min(quota, lives + lives_s))
                room2 = min(room + room_s, wilds - key[1])
                if key not in merged or merged[key][0] < room2:
                    merged[key] = (room2, runs + runs_s)
        combos = merged
    cases = []
    for (used, spent, lives), (room, runs) in combos.items():
        rest = c.copy()
        for k in used:
            rest[k] -= 1
        prm = cp.prm.copy()
        prm[K.P_WRAP] = 0  # the rest holds no corner run
        prm[K.P_LIVES] = quota - lives
        prm[K.P_BAL_USED] = spent - sum(1 for k in used if rules.wild[k])
        prm[K.P_ROOM0] = room
        cases.append(_Case(rest, prm, wilds - spent, runs))
    return cases


def _wrap_feasible(c: np.ndarray, rules: MeldRules, cp: _Compiled, wilds: int) -> _Case | None:
    """The first corner case whose rest melds completely, or None."""
    for case in _corner_cases(c, rules, cp, wilds):
        if not K.life_possible(case.rest, cp.wildk, case.prm):
            continue
        if K.wild_shares(case.rest, cp.wildk, case.prm, case.bal)[1] > case.bal * K.SHARE_UNIT:
            continue
        if _solve(case.rest, cp, K.FEAS, prm=case.prm) > 0:
            return case
    return None


def _wrap_cheapest(c: np.ndarray, rules: MeldRules, cp: _Compiled,
                   wilds: int) -> tuple[_Case | None, int]:
    """The corner case with the least deadwood in its rest, and that deadwood (-1: none has
    the lives)."""
    best, low = None, -1
    for case in _corner_cases(c, rules, cp, wilds):
        if not K.life_possible(case.rest, cp.wildk, case.prm):
            continue
        cost = _solve(case.rest, cp, K.COST, prm=case.prm)
        if cost >= 0 and (low < 0 or cost < low):
            best, low = case, cost
            if cost == 0:
                break
    return best, low


# --------------------------------------------------------------------------- reconstruction


def min_deadwood(counts: np.ndarray, rules: MeldRules, complete: bool = False) -> Arrangement:
    """The arrangement behind :func:`deadwood`: melds with the required lives that leave the
    least penalty, or no melds and the whole hand when no arrangement has the lives.

    Re-runs the sweep keeping every layer, then walks back from the best final state, so a
    person (or a test) can check the count meld by meld. ``complete=True`` is for a hand known
    to meld completely (a valid show): the sweep then leaves no card unmelded, several times
    faster; such a hand that does not meld raises ValueError. With ``allow_wraparound`` the
    best corner case is found first and only its rest is re-run."""
    c, loose, cp, wilds = _split(counts, rules)
    loose_cards = (JOKER,) * loose
    everything = Arrangement(hand_value(counts, rules), (), tuple(_cards_of(counts)))
    if not K.life_possible(c, cp.wildk, cp.prm) and not complete:
        return everything
    mode = K.FEAS if complete else K.COST
    case = _Case(c, cp.prm, wilds, ())
    if cp.wrap:
        if complete:
            found = _wrap_feasible(c, rules, cp, wilds)
        else:
            found = _wrap_cheapest(c, rules, cp, wilds)[0]
        if found is None and complete:
            raise ValueError("complete=True: this hand cannot be melded completely")
        if found is None:
            return everything
        case = found
    nxt, resok = K._prepare(case.rest, case.bal, cp.wildk, case.prm)
    best, final, moves = K.backtrack(*_recorded_sweep(case.rest, cp, mode, case.prm), case.rest,
                                     cp.wildk, cp.vals, nxt, resok, case.prm, *cp.tables(),
                                     cp.allwild, mode)
    if best < 0 and complete:
        raise ValueError("complete=True: this hand cannot be melded completely")
    if best < 0:
        return everything
    if moves[:, 0].min() < 0:
        raise AssertionError("meld reconstruction lost its path")
    steps = [(p, sub, m, misc) for (p, sub), (m, misc) in zip(_STEPS, moves.tolist(),
                                                              strict=True)]
    arrangement = _replay(c, rules, cp, steps, int(final), loose_cards, case)
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
            loose_cards: tuple, case: _Case) -> Arrangement:
    """Turn the sweep's moves over ``case.rest`` into melds, add the case's corner runs, then
    place spare wilds and name every wild card (``c``: the whole hand). Each move is decoded
    exactly as the kernel encoded it (see ``melds_kernel._suit_step``)."""
    runs: list[list[_Run]] = [[], [], [], []]
    melds: list[list] = [  # [cards, is_run, is_life, first, room]; the corner runs first
        [list(cards), True, life, first, 0 if life else 13 - len(cards)]
        for cards, first, life in case.melds
    ]
    dead: list[int] = []
    reserved = [0, 0, 0, 0]
    cap = rules.group_cap()
    lives = int(case.prm[K.P_LIVES])
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
                if rules.group_mode == "distinct" and 3 in used:
                    room = 0  # a tunnela takes no wild in "distinct" mode (_group_shapes)
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
        if meld[1]:  # a run round the corner (first + length > 14) grows on its right
            after = take if meld[3] + len(meld[0]) > 14 else min(take, 14 - meld[3] - len(meld[0]))
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

