"""Slow, obviously-correct meld reference for cross-checking taas.envs.rummy.melds.

Method: first decide, for every wild-rank card, whether it stands for itself or acts as a wild
(all combinations). Then the cards acting as wilds are interchangeable, and a memoised search
takes the lowest remaining natural card and tries every way to use it: left unmelded, or in
any group of its rank, or any run through it, each listing every card explicitly (extra wilds
included, so spare wilds are simply melded somewhere). Lives are counted as melds are made.
With ``allow_wraparound`` a run is any arc of the 13 ranks taken as a circle (K-A-2 included).
It shares no code with the solver.
"""

from __future__ import annotations

from functools import cache
from itertools import product

import numpy as np

from taas.envs.core.cards import JOKER, NUM_KINDS, kind, shoe
from taas.envs.rummy.melds import Arrangement, MeldRules

INF = 10**9


def _value(rules: MeldRules, k: int) -> int:
    return rules.wild_penalty if rules.wild[k] else rules.values[k]


def _pure_card(rules: MeldRules, k: int) -> bool:
    return not rules.wild[k] or rules.wild_in_natural_place_is_pure


def _allwild_ok(rules: MeldRules, n: int) -> bool:
    """n cards acting as wilds form melds on their own."""
    if n == 0:
        return True
    if not rules.allow_all_wild_melds or n < 3:
        return False
    cap = rules.max_group_size
    if rules.group_mode == "distinct":
        cap = 4 if cap is None else min(cap, 4)
    sizes = []
    if rules.allow_groups:
        sizes += list(range(3, n + 1 if cap is None else min(n, cap) + 1))
    if rules.allow_runs:
        sizes += list(range(3, min(n, 13) + 1))
    return any(_allwild_ok(rules, n - m) for m in sizes if m <= n)


def _group_cap(rules: MeldRules) -> int | None:
    if rules.group_mode == "distinct":
        return 4 if rules.max_group_size is None else min(4, rules.max_group_size)
    return rules.max_group_size


def _groups(rules: MeldRules, nat: tuple, x: int) -> list:
    """Groups containing natural x (the lowest remaining), with the fewest wilds:
    (cards used, wilds used, room for more wilds, pure tunnela)."""
    r = x % 13
    return _groups_of(rules, x, tuple(nat[kind(r, s)] for s in range(4)))


@cache
def _groups_of(rules: MeldRules, x: int, rank_counts: tuple) -> list:
    return list(_gen_groups(rules, rank_counts, x))


def _gen_groups(rules: MeldRules, rank_counts: tuple, x: int):
    if not rules.allow_groups:
        return
    r = x % 13
    nat = {kind(r, s): rank_counts[s] for s in range(4)}
    same = [kind(r, s) for s in range(4) if kind(r, s) >= x]
    cap = _group_cap(rules)
    ranges = [range(nat[k] - (k == x) + 1) for k in same]
    for extra in product(*ranges):
        used = {x: 1}
        for k, n in zip(same, extra, strict=True):
            if n:
                used[k] = used.get(k, 0) + n
        n_nat = sum(used.values())
        tunnela = len(used) == 1 and n_nat == 3
        if rules.group_mode == "distinct" and not tunnela and n_nat > len(used):
            continue
        size = max(3, n_nat)
        if cap is not None and size > cap and not tunnela:
            continue
        room = INF if cap is None else max(0, cap - size)
        if tunnela and rules.group_mode == "distinct":
            room = 0
        yield used, size - n_nat, room, tunnela and _pure_card(rules, x)


def _runs(rules: MeldRules, nat: tuple, x: int) -> list:
    """Runs through natural x with the fewest wilds (gaps, then padding up to 3 cards):
    (cards used, wilds used, room for more wilds, pure)."""
    s = x // 13
    return _runs_of(rules, x, tuple(nat[s * 13: s * 13 + 13]))


@cache
def _runs_of(rules: MeldRules, x: int, suit_counts: tuple) -> list:
    return list(_gen_runs(rules, suit_counts, x))


def _gen_runs(rules: MeldRules, suit_counts: tuple, x: int):
    if not rules.allow_runs:
        return
    if rules.allow_wraparound:
        yield from arc_runs(rules, suit_counts, x, wrap=True)
        return
    s, r = divmod(x, 13)
    nat = {kind(q, s): suit_counts[q] for q in range(13)}
    for px in ((0, 13) if r == 0 else (r,)):
        spots = [q for q in range(14) if q != px and nat[kind(q % 13, s)] > (kind(q % 13, s) == x)]
        for pick in product((False, True), repeat=len(spots)):
            qs = [q for q, take in zip(spots, pick, strict=True) if take] + [px]
            span = max(qs) - min(qs) + 1
            if span > 13:
                continue
            used: dict[int, int] = {}
            for q in qs:
                used[kind(q % 13, s)] = used.get(kind(q % 13, s), 0) + 1
            if any(n > nat[k] for k, n in used.items()):
                continue
            length = max(3, span)
            wilds = length - len(qs)
            pure = wilds == 0 and all(_pure_card(rules, k) for k in used)
            yield used, wilds, 13 - length, pure


def arc_runs(rules: MeldRules, suit_counts: tuple, x: int, wrap: bool):
    """Runs through natural x as arcs of the rank circle: positions lo..hi (lo 0..12, at most
    13 positions, position q holding rank q % 13, so no rank twice), both ends held, each
    inside position held or a wild. Without ``wrap`` only arcs ending by the ace high (hi <=
    13), which are the linear runs (tests compare this with ``_gen_runs``)."""
    s, r = divmod(x, 13)
    seen = set()
    for lo in range(13):
        for hi in range(lo, lo + 13):
            if not wrap and hi > 13:
                break
            at_x = [q for q in range(lo, hi + 1) if q % 13 == r]
            if not at_x or suit_counts[lo % 13] == 0 or suit_counts[hi % 13] == 0:
                continue
            inside = [q for q in range(lo + 1, hi) if q != at_x[0] and suit_counts[q % 13] > 0]
            for pick in product((False, True), repeat=len(inside)):
                qs = {lo, hi, at_x[0]} | {q for q, take in zip(inside, pick, strict=True) if take}
                used = {kind(q % 13, s): 1 for q in qs}
                length = max(3, hi - lo + 1)
                key = (tuple(sorted(used)), length)
                if key in seen:
                    continue
                seen.add(key)
                wilds = length - len(used)
                pure = wilds == 0 and all(_pure_card(rules, k) for k in used)
                yield used, wilds, 13 - length, pure


def _solver(rules: MeldRules, need_all: bool):
    """go(naturals, wilds, lives needed, room): min penalty (or 0/INF when need_all).

    Melds are made with the fewest wilds; ``room`` counts how many more wilds the melds made
    so far could take (capped at the wilds left, which only go down). A pure meld either counts
    as a life or offers its room, never both, since a wild added to it spoils it."""

    @cache
    def go(nat: bytes, wilds: int, need: int, room: int) -> int:
        room = min(room, wilds)
        x = 52 - len(nat.lstrip(b"\0"))
        if x == 52:
            if need > 0:
                return INF
            best = INF
            for j in range(0, wilds + 1):
                if _allwild_ok(rules, j):
                    left = max(0, wilds - j - room)
                    if not (need_all and left):
                        best = min(best, left * rules.wild_penalty)
            return best
        best = INF
        lst = bytearray(nat)
        if not need_all:
            lst[x] -= 1
            best = _value(rules, x) + go(bytes(lst), wilds, need, room)
            lst[x] += 1
        for gen in (_groups, _runs):
            for used, w, meld_room, pure in gen(rules, nat, x):
                if best == 0:
                    return 0
                if w > wilds:
                    continue
                for k, n in used.items():
                    lst[k] -= n
                rest = bytes(lst)
                for k, n in used.items():
                    lst[k] += n
                best = min(best, go(rest, wilds - w, need, min(INF, room + meld_room)))
                life = pure and (gen is _runs or rules.tunnela_counts_as_life)
                if life and need > 0:
                    best = min(best, go(rest, wilds - w, need - 1, room))
        return best

    return go


def _roles(counts: np.ndarray, rules: MeldRules):
    """Every split of the wild-rank cards into 'stands for itself' and 'acts as a wild'."""
    c = [int(v) for v in counts]
    wild_kinds = [k for k in range(52) if rules.wild[k] and c[k]]
    jokers = c[JOKER] if rules.wild[JOKER] else 0
    base = [0 if rules.wild[k] else c[k] for k in range(52)]
    for selfs in product(*(range(c[k] + 1) for k in wild_kinds)):
        nat = list(base)
        wilds = jokers
        for k, n in zip(wild_kinds, selfs, strict=True):
            nat[k] = n
            wilds += c[k] - n
        yield bytes(nat), wilds


def ref_hand_value(counts: np.ndarray, rules: MeldRules) -> int:
    return sum(int(counts[k]) * _value(rules, k) for k in range(NUM_KINDS))


def ref_deadwood(counts: np.ndarray, rules: MeldRules) -> int:
    loose = 0 if rules.wild[JOKER] else int(counts[JOKER])
    go = _solver(rules, False)
    best = min(go(nat, w, rules.lives_required, 0) for nat, w in _roles(counts, rules))
    if best >= INF:
        return ref_hand_value(counts, rules)
    return best + loose * rules.values[JOKER]


def ref_can_meld_all(counts: np.ndarray, rules: MeldRules, go=None) -> bool:
    if not rules.wild[JOKER] and counts[JOKER]:
        return False
    go = go or _solver(rules, True)
    return any(go(nat, w, rules.lives_required, 0) == 0 for nat, w in _roles(counts, rules))


def ref_show_discards(counts: np.ndarray, rules: MeldRules) -> np.ndarray:
    """Each discard tried separately (one shared memo)."""
    go = _solver(rules, True)
    mask = np.zeros(NUM_KINDS, bool)
    for k in np.flatnonzero(counts):
        c = np.array(counts, dtype=np.int64)
        c[k] -= 1
        mask[k] = ref_can_meld_all(c, rules, go)
    return mask


def check_arrangement(counts: np.ndarray, rules: MeldRules, arr: Arrangement) -> None:
    """Assert that an arrangement is legal under ``rules`` and that its penalty adds up."""
    used = np.zeros(NUM_KINDS, np.int64)
    lives = 0
    for m in arr.melds:
        assert len(m.cards) == len(m.as_wild) >= 3, m
        for k, w in zip(m.cards, m.as_wild, strict=True):
            used[k] += 1
            assert not w or rules.wild[k], f"{k} acts as a wild in {m}"
        naturals = [k for k, w in zip(m.cards, m.as_wild, strict=True) if not w]
        assert naturals or rules.allow_all_wild_melds, f"no anchor in {m}"
        pure = not any(m.as_wild) and all(_pure_card(rules, k) for k in m.cards)
        if m.is_run:
            assert rules.allow_runs and len(m.cards) <= 13 and 0 <= m.first <= 13
            assert m.first + len(m.cards) - 1 <= 13 or rules.allow_wraparound, m
            suits = {k // 13 for k in naturals}
            assert len(suits) <= 1, m
            for i, (k, w) in enumerate(zip(m.cards, m.as_wild, strict=True)):
                if not w:
                    assert k % 13 == (m.first + i) % 13, f"{k} out of place in {m}"
            if m.is_life:
                assert pure, m
        else:
            assert rules.allow_groups
            assert all(k % 13 == m.first for k in naturals), m
            tunnela = len(m.cards) == 3 and not any(m.as_wild) and len(set(m.cards)) == 1
            cap = rules.max_group_size
            if rules.group_mode == "distinct":
                assert tunnela or (len(set(naturals)) == len(naturals) and len(m.cards) <= 4), m
            if cap is not None:
                assert len(m.cards) <= cap, m
            if m.is_life:
                assert rules.tunnela_counts_as_life and tunnela and pure, m
        lives += m.is_life
    for k in arr.deadwood:
        used[k] += 1
    assert (used == np.asarray(counts)).all(), "cards not conserved"
    assert arr.penalty == sum(_value(rules, k) for k in arr.deadwood)
    if arr.melds:
        assert lives >= rules.lives_required


def random_hand(rng: np.random.Generator, size: int, wild_rank: int, near: bool,
                extra_wilds: int) -> np.ndarray:
    """A Marriage-like hand from a 3-deck + 3-joker shoe; ``near`` builds it from runs and
    groups (with some wilds mixed in) so many hands are complete or nearly so."""
    avail = shoe(3, 3).astype(np.int64)
    c = np.zeros(NUM_KINDS, np.int64)

    def take(k: int) -> bool:
        if avail[k] > 0:
            avail[k] -= 1
            c[k] += 1
            return True
        return False

    def take_wild() -> None:
        take(JOKER) or take(kind(wild_rank, int(rng.integers(4))))

    if near:
        while c.sum() < size - 1:
            if rng.random() < 0.5:
                s, length = int(rng.integers(4)), int(rng.integers(3, 6))
                a = int(rng.integers(0, 15 - length))
                for q in range(a, a + length):
                    take_wild() if rng.random() < 0.15 else take(kind(q % 13, s))
            else:
                r = int(rng.integers(13))
                for _ in range(int(rng.integers(3, 5))):
                    take_wild() if rng.random() < 0.15 else take(kind(r, int(rng.integers(4))))
        for _ in range(extra_wilds):
            take_wild()
    while c.sum() > size:
        c[rng.choice(np.flatnonzero(c))] -= 1
    while c.sum() < size:
        take(int(rng.integers(NUM_KINDS)))
    return c
