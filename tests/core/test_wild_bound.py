"""The fewest-wilds bound in front of the show sweep (taas.envs.core.wild_bound): its minimum
against a brute-force search of the same relaxed problem, and its use as a filter against the
exact solver (it may only drop discards that cannot show)."""

from __future__ import annotations

from functools import cache
from itertools import product

import numpy as np
import pytest
from meld_reference import random_hand

from taas.envs.core import melds, melds_kernel, wild_bound
from taas.envs.core.cards import JOKER, NUM_KINDS, kind
from taas.envs.core.melds import MeldRules, can_meld_all, card_values, wild_mask

INF = 10**9


def rules_for(wild_rank: int | None, lives: int = 1, **kw) -> MeldRules:
    ranks = () if wild_rank is None else (wild_rank,)
    return MeldRules(wild=wild_mask(ranks=ranks), values=card_values(), lives_required=lives,
                     **kw)


def ref_min_wilds(naturals: tuple, rules: MeldRules) -> int:
    """The relaxed problem of the module docstring, searched plainly: the lowest natural left
    goes into every group of its rank and every run of its suit through it (ace low or high,
    each other position a natural or a wild), memoised on what is left and the lives owed."""
    cap = rules.group_cap()
    lives = 0 if rules.wild_in_natural_place_is_pure else rules.lives_required

    @cache
    def best(rest: tuple, owed: int) -> int:
        if not any(rest):
            return 0 if owed == 0 else INF
        x = next(k for k, n in enumerate(rest) if n)
        r, s = x % 13, x // 13
        out = INF
        if rules.allow_groups:
            same = [kind(r, t) for t in range(4)]
            for use in np.ndindex(*(rest[k] + 1 for k in same)):
                n = sum(use)
                if use[s] == 0 or (cap is not None and n > cap):
                    continue
                left = list(rest)
                for k, u in zip(same, use, strict=True):
                    left[k] -= u
                left = tuple(left)
                out = min(out, max(0, 3 - n) + best(left, owed))
                tunnela = n == 3 and use[s] == 3
                if tunnela and rules.tunnela_counts_as_life and owed:
                    out = min(out, best(left, owed - 1))
        if rules.allow_runs:
            for q in (0, 13) if r == 0 else (r,):
                for a in range(q + 1):
                    for b in range(max(q, a + 2), 14):
                        # each other position: a natural (where one is left) or a wild
                        held = [p for p in range(a, b + 1) if p != q and rest[kind(p % 13, s)]]
                        for pick in product((0, 1), repeat=len(held)):
                            left = list(rest)
                            left[x] -= 1
                            for p, take in zip(held, pick, strict=True):
                                left[kind(p % 13, s)] -= take
                            if min(left) < 0:
                                continue
                            wilds = b - a - sum(pick)
                            out = min(out, wilds + best(tuple(left), owed))
                            if wilds == 0 and owed:
                                out = min(out, best(tuple(left), owed - 1))
        return out

    return best(naturals, lives)


def naturals_of(counts: np.ndarray, rules: MeldRules) -> tuple:
    return tuple(0 if rules.wild[k] else int(counts[k]) for k in range(JOKER))


RULE_SETS = [
    {},
    {"lives": 0},
    {"lives": 2},
    {"tunnela_counts_as_life": True},
    {"max_group_size": 3},
    {"max_group_size": 4, "lives": 2},
    {"allow_groups": False},
    {"allow_runs": False, "lives": 0},
    {"wild_in_natural_place_is_pure": True},
    {"group_mode": "distinct"},
]


@pytest.mark.parametrize("variant", range(len(RULE_SETS)))
def test_min_wilds_is_the_relaxed_minimum(variant: int) -> None:
    """Exact on small hands (dense in a few ranks, so runs, duplicates and aces at both ends
    meet), also over the discard of each allowed natural; and a budget below the minimum
    answers NONE while the minimum itself is still found (the look-ahead prunes nothing
    needed)."""
    rng = np.random.default_rng([99, variant])
    kw = dict(RULE_SETS[variant])
    tables = wild_bound.tables()
    found = 0
    for _ in range(25):
        wild_rank = int(rng.integers(13))
        rules = rules_for(wild_rank, **kw)
        cp = melds._compile(rules)
        counts = np.zeros(NUM_KINDS, np.int64)
        for _ in range(max(1, rules.lives_required)):  # a life, unless a wild breaks it
            start, suit = int(rng.integers(11)), int(rng.integers(2))
            counts[[kind(start + i, suit) for i in range(3)]] += 1
        ranks = [*rng.choice(13, 2, replace=False).tolist(), 0, 12]
        for _ in range(int(rng.integers(1, 5))):
            counts[kind(int(rng.choice(ranks)), int(rng.integers(2)))] += 1
        counts = np.minimum(counts, 3)
        allowed = (counts > 0).astype(np.int64)
        allowed[rng.choice(np.flatnonzero(counts))] = 0  # not every kind is a candidate
        nat = naturals_of(counts, rules)
        want_all = ref_min_wilds(nat, rules)
        want_nat = min((ref_min_wilds(tuple(n - (j == k) for j, n in enumerate(nat)), rules)
                        for k in range(JOKER) if nat[k] and allowed[k]), default=INF)
        got = wild_bound.min_wilds(counts, cp.wildk, cp.prm, allowed, 31, tables)
        where = f"{np.flatnonzero(counts).tolist()} {counts[counts > 0].tolist()} {rules}"
        assert not got[2], where
        assert got[:2] == tuple(w if w < INF else wild_bound.NONE
                                for w in (want_all, want_nat)), where
        for budget in {want_all, want_nat} - {INF}:
            low = wild_bound.min_wilds(counts, cp.wildk, cp.prm, allowed, budget - 1, tables)
            at = wild_bound.min_wilds(counts, cp.wildk, cp.prm, allowed, budget, tables)
            for want, lo, hit in zip((want_all, want_nat), low[:2], at[:2], strict=True):
                assert lo == (want if want <= budget - 1 else wild_bound.NONE), where
                assert hit == (want if want <= budget else wild_bound.NONE), where
        found += want_all < INF
    assert found  # some hands have an arrangement (else the comparison says little)


FILTER_RULE_SETS = [{}, {"lives": 2}, {"tunnela_counts_as_life": True}, {"max_group_size": 4},
                    {"allow_all_wild_melds": True}, {"wild_in_natural_place_is_pure": True}]


@pytest.mark.parametrize("variant", range(len(FILTER_RULE_SETS)))
def test_the_filter_only_drops_discards_that_cannot_show(variant: int) -> None:
    """On 22-card Marriage hands, mostly built from melds: every held kind the prefilter drops
    leaves a hand the exact solver cannot meld; the bound drops some kinds the share bound
    keeps."""
    rng = np.random.default_rng([5, variant])
    tables = wild_bound.tables()
    dropped = kept_shows = 0
    for i in range(150):
        wild_rank = int(rng.integers(13))
        rules = rules_for(wild_rank, **FILTER_RULE_SETS[variant])
        cp = melds._compile(rules)
        h22 = random_hand(rng, 22, wild_rank, rng.random() < 0.7, int(rng.integers(0, 4)))
        c, _, wilds, allowed, n = wild_bound.show_prefilter(h22, cp.wildk, cp.wild53, cp.prm,
                                                            tables)
        share = melds_kernel.discard_candidates(c, cp.wildk, cp.wild53, cp.prm, wilds)
        assert not (allowed & ~share).any() and n == allowed.sum()
        for k in np.flatnonzero(h22):
            h21 = h22.copy()
            h21[k] -= 1
            shows = can_meld_all(h21, rules)
            assert allowed[k] or not shows, f"hand {i}: dropped {k}, which shows; {rules}"
            dropped += share[k] and not allowed[k]
            kept_shows += shows
    assert dropped and kept_shows


def test_show_prefilter_splits_then_bounds() -> None:
    """The fused first step of show_discards: split_hand's answer, then discard_candidates,
    then the bound's verdict per kind (naturals against the least over natural discards,
    wilds against the whole hand with one wild fewer); nothing with loose jokers."""
    rng = np.random.default_rng(7)
    deck = np.repeat(np.arange(NUM_KINDS), [3] * 52 + [3])
    tables = wild_bound.tables()
    seen = 0
    for i in range(300):
        rules = rules_for(int(rng.integers(13)) if i % 3 else None)
        if i % 5 == 0:
            rules = MeldRules(**{**rules.__dict__, "wild": (*rules.wild[:JOKER], False)})
        cp = melds._compile(rules)
        counts = np.bincount(rng.choice(deck, 22, replace=False), minlength=NUM_KINDS)
        c, loose, wilds, allowed, n = wild_bound.show_prefilter(counts, cp.wildk, cp.wild53,
                                                                cp.prm, tables)
        c2, loose2, wilds2 = melds_kernel.split_hand(counts, cp.wildk, rules.wild[JOKER])
        assert (c.tolist(), loose, wilds) == (c2.tolist(), loose2, wilds2)
        if loose:
            assert n == 0
            continue
        want = melds_kernel.discard_candidates(c2, cp.wildk, cp.wild53, cp.prm, wilds2)
        if want.any():
            need_all, need_nat, overflow = wild_bound.min_wilds(c2, cp.wildk, cp.prm, want,
                                                                wilds2, tables)
            assert not overflow
            for k in np.flatnonzero(want):
                want[k] = (need_all <= wilds2 - 1) if cp.wild53[k] else (need_nat <= wilds2)
        assert allowed.tolist() == want.tolist() and n == want.sum()
        seen += n > 0
    assert seen
