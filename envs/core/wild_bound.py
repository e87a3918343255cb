"""The fewest wild cards a hand's natural cards need: an exact lower bound run before the sweep.

Why: in random play three show checks in four that reach the sweep (:mod:`melds_kernel`) find
no show, most of them because the hand holds too few wild cards. The sweep tracks the wilds
left, the room for spare wilds and much else, and costs hundreds of microseconds; the bound
below drops everything but the wilds used and costs a few.

**The relaxed problem.** The natural cards are the hand's cards of non-wild kinds. Partition
them into melds where wilds are free to appear anywhere and cost one each: a *run* of one suit
over consecutive positions 0..13 (0 = ace low, 13 = ace high), at least 3 long, holding at most
one natural per position and wilds elsewhere; a *group* of one rank holding n >= 1 naturals
(duplicates allowed) and ``max(0, 3 - n)`` wilds, at most ``cap`` cards (``P_GROUP_CAP``, 0: no
cap; at least 3). At least ``P_LIVES`` melds must be lives: runs with no wild, or (with
``P_TUNNELA_LIFE``) groups of three identical naturals. ``min_wilds`` is the least cost.

**Why it is a lower bound.** Take any complete arrangement of the real hand, with ``W`` wild
cards (wild-rank cards and wild printed jokers). Count every wild-rank card as a wild, also
where it stands for itself, and drop the melds holding no natural. A run stays a run (its
wild-rank cards fill their own positions), a group of n naturals needed at least ``3 - n``
other cards and fits the same cap, the runs round the corner do not exist (the caller applies
the bound only without ``allow_wraparound``, or to what is left once corner runs are set
aside), and a real life holds no wild-rank card at all (``wild_in_natural_place_is_pure`` off;
with it on, lives are not required here). So the arrangement is one of the relaxed problem, of
cost at most ``W``. Hence ``min_wilds(hand) > W`` means the hand cannot meld completely, and for
a hand one card over: no natural discard works when ``min_wilds`` over the natural discards
exceeds ``W``, and no wild discard works when ``min_wilds`` of the whole hand exceeds ``W - 1``.
The distinct-suits group rule is stricter than "any", so the bound holds for it too.

**The sweep of the relaxed problem.** Positions 0..13; at each, the four suits one by one, then
the rank's group. A state is two words: per suit the open runs as counts of five classes
(length 1; length 2 pure or not; length 3 or more pure or not; 3 bits each), and the aces each
suit keeps for ace-high, the lives made (capped at the quota), the discard token and per suit
the naturals waiting for this rank's group. Its value is the wilds used so far (merged by min).
A closing run of length 1 or 2 pays its padding at once. These prunings keep at least one
optimal arrangement, so the minimum is exact:

1. *A wild extends a run of length 1, 2, 3+ only when a natural of its suit lies within the
   next 3, 2, 1 positions.* An optimal arrangement has no gap of g wilds after a run prefix of
   length L with ``g >= max(0, 3 - L) + 2`` (cutting the run there saves g and costs at most
   the prefix's padding plus 2 for the rest), nor a wild at the end of a run longer than 3.
2. *An ace is kept for ace-high only when its suit has a natural at 10..K.* A run through
   ace-high holds another natural at most four positions below it (rule 1) or is the ace and
   its padding, which fits at ace-low as well.
3. *An ace kept for ace-high must extend a run there*: starting a run at 13 is the same as
   starting it at 0.
4. *A one-card run never closes padded when groups are allowed*: its card in its rank's group
   costs at most the same 2 wilds.
5. *Look-ahead* (:func:`~taas.envs.core.melds_kernel.wild_budgets`): a state is dropped once
   the wilds it used plus a lower bound on what the naturals still ahead need exceed the wilds
   held (only whether the minimum fits matters, so ``min_wilds`` answers ``NONE`` above its
   ``budget``). The exact sweep prunes its FEAS and MASK states by the same bound.

Lives matter only until the quota is met; then pure runs are merged into the others. A class
count over 7 or a table over half full gives up (``overflow``): the caller then runs the sweep
unfiltered, so the bound never changes an answer, only how fast it comes.
"""

from __future__ import annotations

import numpy as np

from taas.envs.core.jit import jit, jit_norc
from taas.envs.core.melds_kernel import (
    COST,
    P_GROUP_CAP,
    P_GROUPS,
    P_JOKER_WILD,
    P_LIVES,
    P_PURE_VARIANT,
    P_RUNS,
    P_TUNNELA_LIFE,
    P_WRAP,
    _clear,
    _put,
    _table,
    discard_candidates,
    split_hand,
    wild_budgets,
)

NONE = 1 << 20
"""``min_wilds`` of a hand no arrangement of the relaxed problem covers (e.g. too few lives)."""

_SUIT_BITS = 15  # five run classes, 3 bits each
_SUIT_MASK = (1 << _SUIT_BITS) - 1
_PURE_CLASSES = (7 << 3) | (7 << 9)  # the pure classes (length 2 and 3+) of one suit
_PC, _D, _POOL = 8, 10, 11  # bit offsets in the second word (aces kept: bits 0..7)


def _splits() -> tuple[np.ndarray, np.ndarray]:
    """Every way to share n runs of one class among the four moves (close as a life, close,
    extend by a natural, extend by a wild), for n = 0..7: rows of ``splits``, those of n at
    ``at[n]:at[n + 1]``."""
    rows, at = [], [0]
    for n in range(8):
        rows += [(a, b, c, n - a - b - c) for a in range(n + 1) for b in range(n + 1 - a)
                 for c in range(n + 1 - a - b)]
        at.append(len(rows))
    return np.array(rows, np.int64), np.array(at, np.int64)


_SPLITS, _SPLIT_AT = _splits()


def tables() -> tuple:
    """The two layers the bound's sweep uses (allocate once, reuse for every call)."""
    return _table(12), _table(12)


@jit_norc
def _group_cost(m, cap):
    """Wilds that m naturals of one rank need as groups of at most ``cap`` (0: no cap)."""
    if m == 0:
        return 0
    if cap == 0:
        return 3 - m if m < 3 else 0
    g = (m + cap - 1) // cap
    return 3 * g - m if 3 * g > m else 0


@jit_norc
def _pure_merged(w0):
    """``w0`` with every pure run counted as impure (the quota of lives is met)."""
    out = 0
    for s in range(4):
        rc = (w0 >> (_SUIT_BITS * s)) & _SUIT_MASK
        n1, n2, n3, n4 = (rc >> 3) & 7, (rc >> 6) & 7, (rc >> 9) & 7, (rc >> 12) & 7
        if n1 + n2 > 7 or n3 + n4 > 7:
            return -1
        rc = (rc & 7) | ((n1 + n2) << 6) | ((n3 + n4) << 12)
        out |= rc << (_SUIT_BITS * s)
    return out


@jit_norc
def _suit_step(cur, out, p, s, nat, ace, ace_high, disc, reach, lives, runs, groups, b0, b1):
    """Every state of ``cur`` through suit ``s`` at position ``p`` into ``out``: each open run
    closes (as a life, or padded to 3), takes this position's natural or a wild; the naturals
    left start runs or wait for the rank's group. ``nat``: naturals here (p = 1..12); ``ace``:
    the suit's natural aces (p = 0); ``disc``: one of them may be the discard. False on
    overflow."""
    keys, vals, slots, meta = cur
    sh = _SUIT_BITS * s
    for j in range(meta[0]):
        i = slots[j]
        w0 = keys[i, 0]
        w1 = keys[i, 2]
        v = vals[i]
        rc = (w0 >> sh) & _SUIT_MASK
        n0, n1, n2, n3, n4 = rc & 7, (rc >> 3) & 7, (rc >> 6) & 7, (rc >> 9) & 7, (rc >> 12) & 7
        pc = (w1 >> _PC) & 3
        d = (w1 >> _D) & 1
        kept = (w1 >> (2 * s)) & 3
        h_hi = ace if (p == 0 and ace_high) else 0
        for h in range(h_hi + 1):
            if p == 0:
                a0 = ace - h
            elif p == 13:
                a0 = kept
            else:
                a0 = nat
            dis_hi = 1 if (d == 0 and disc and a0 >= 1) else 0
            for dis in range(dis_hi + 1):
                a = a0 - dis
                budget = b1 if (d | dis) else b0
                for i0 in range(_SPLIT_AT[n0], _SPLIT_AT[n0 + 1]):
                    if (_SPLITS[i0, 0] or (_SPLITS[i0, 1] and groups)
                            or (_SPLITS[i0, 3] and reach > 3) or _SPLITS[i0, 2] > a):
                        continue
                    for i1 in range(_SPLIT_AT[n1], _SPLIT_AT[n1 + 1]):
                        if _SPLITS[i1, 0] or (_SPLITS[i1, 3] and reach > 2):
                            continue
                        u1 = _SPLITS[i0, 2] + _SPLITS[i1, 2]
                        if u1 > a:
                            continue
                        for i2 in range(_SPLIT_AT[n2], _SPLIT_AT[n2 + 1]):
                            if _SPLITS[i2, 0] or (_SPLITS[i2, 3] and reach > 2):
                                continue
                            u2 = u1 + _SPLITS[i2, 2]
                            if u2 > a:
                                continue
                            for i3 in range(_SPLIT_AT[n3], _SPLIT_AT[n3 + 1]):
                                life = _SPLITS[i3, 0]
                                if (_SPLITS[i3, 3] and reach > 1) or pc + life > lives:
                                    continue
                                u3 = u2 + _SPLITS[i3, 2]
                                if u3 > a:
                                    continue
                                for i4 in range(_SPLIT_AT[n4], _SPLIT_AT[n4 + 1]):
                                    if _SPLITS[i4, 0] or (_SPLITS[i4, 3] and reach > 1):
                                        continue
                                    used = u3 + _SPLITS[i4, 2]
                                    if used > a:
                                        continue
                                    cost = v + (2 * _SPLITS[i0, 1] + _SPLITS[i1, 1] + _SPLITS[i2, 1]
                                            + _SPLITS[i0, 3] + _SPLITS[i1, 3] + _SPLITS[i2, 3]
                                            + _SPLITS[i3, 3] + _SPLITS[i4, 3])
                                    if cost > budget:
                                        continue
                                    m1 = _SPLITS[i0, 2]
                                    m2 = _SPLITS[i0, 3]
                                    m3 = _SPLITS[i1, 2] + _SPLITS[i3, 2]
                                    m4 = (_SPLITS[i1, 3] + _SPLITS[i2, 2] + _SPLITS[i2, 3]
                                          + _SPLITS[i3, 3] + _SPLITS[i4, 2] + _SPLITS[i4, 3])
                                    pc2 = pc + life
                                    if pc2 >= lives:
                                        m2 += m1
                                        m1 = 0
                                        m4 += m3
                                        m3 = 0
                                    rest = a - used
                                    if p == 13 and rest > 0:
                                        continue  # rule 3
                                    k_hi = rest if (runs and p <= 12) else 0
                                    for k in range(k_hi + 1):
                                        pool = rest - k
                                        if pool and not groups:
                                            continue
                                        if k > 7 or m2 > 7 or m4 > 7 or m3 > 7:
                                            return False
                                        rc2 = k | (m1 << 3) | (m2 << 6) | (m3 << 9) | (m4 << 12)
                                        nw0 = (w0 & ~(_SUIT_MASK << sh)) | (rc2 << sh)
                                        if pc2 >= lives and pc < lives:
                                            nw0 = _pure_merged(nw0)
                                            if nw0 < 0:
                                                return False
                                        nw1 = w1 & ~((3 << (2 * s)) | (3 << _PC) | (1 << _D)
                                                     | (3 << (_POOL + 2 * s)))
                                        if p == 0:
                                            nw1 |= h << (2 * s)
                                        elif p != 13:
                                            nw1 |= kept << (2 * s)
                                        nw1 |= (pc2 << _PC) | ((d | dis) << _D)
                                        nw1 |= pool << (_POOL + 2 * s)
                                        _put(out, nw0, 0, nw1, cost, COST)
    return True


@jit_norc
def _group_step(cur, out, lives, cap, tunnela_life, b0, b1):
    """Every state through its rank's groups: the waiting naturals form groups (perhaps
    tunnelas counted as lives first); the pool is emptied."""
    keys, vals, slots, meta = cur
    for j in range(meta[0]):
        i = slots[j]
        w0 = keys[i, 0]
        w1 = keys[i, 2]
        v = vals[i]
        m = 0
        triples = 0
        for s in range(4):
            q = (w1 >> (_POOL + 2 * s)) & 3
            m += q
            triples += q == 3
        pc = (w1 >> _PC) & 3
        budget = b1 if (w1 >> _D) & 1 else b0
        base1 = w1 & ~(255 << _POOL)
        if v + _group_cost(m, cap) <= budget:
            _put(out, w0, 0, base1, v + _group_cost(m, cap), COST)
        if tunnela_life:
            for t in range(1, triples + 1):
                if pc + t > lives:
                    break
                nw0 = w0
                if pc + t == lives:
                    nw0 = _pure_merged(w0)
                    if nw0 < 0:
                        return False
                nw1 = (base1 & ~(3 << _PC)) | ((pc + t) << _PC)
                if v + _group_cost(m - 3 * t, cap) <= budget:
                    _put(out, nw0, 0, nw1, v + _group_cost(m - 3 * t, cap), COST)
    return True


@jit_norc
def _runs_open(cur, s):
    keys, _, slots, meta = cur
    for j in range(meta[0]):  # noqa: SIM110 (a loop numba compiles)
        if (keys[slots[j], 0] >> (_SUIT_BITS * s)) & _SUIT_MASK:
            return True
    return False


@jit
def min_wilds(cnt, wildk, prm, allowed, budget, tbs):
    """(fewest wilds for all the naturals of ``cnt``, fewest over the discard of one natural
    of a kind flagged in ``allowed``, overflow); ``NONE`` where nothing qualifies. ``tbs``:
    :func:`tables`. See the module docstring."""
    lives = prm[P_LIVES] if not prm[P_PURE_VARIANT] else 0
    runs = prm[P_RUNS]
    groups = prm[P_GROUPS]
    cap = prm[P_GROUP_CAP]
    tunnela_life = prm[P_TUNNELA_LIFE] and groups and lives > 0
    b0, b1 = wild_budgets(cnt, wildk, allowed, groups, runs, cap, budget)
    if b0[0] < 0:
        return NONE, NONE, False
    cur, out = tbs
    _clear(cur)
    _clear(out)
    cur[3][1] = 0
    out[3][1] = 0
    _put(cur, 0, 0, 0, 0, COST)
    for p in range(14):
        present = False
        for s in range(4):
            k = s * 13 + (p % 13)
            nat = 0 if wildk[k] else cnt[k]
            present = present or (p <= 12 and nat > 0)
            if nat == 0 and not _runs_open(cur, s):
                continue  # (at 13, nat is the suit's natural aces: some may be kept)
            ace_high = False
            if p == 0:
                for q in range(9, 13):
                    if cnt[s * 13 + q] and not wildk[s * 13 + q]:
                        ace_high = True
            reach = 99  # distance to the next natural of the suit (rule 1)
            if p <= 12:
                for q in range(min(p + 3, 13), p, -1):
                    kq = s * 13 + (q % 13)
                    if cnt[kq] and not wildk[kq]:
                        reach = q - p
            _clear(out)
            ok = _suit_step(cur, out, p, s, nat, nat, ace_high, p <= 12 and allowed[k] != 0,
                            reach, lives, runs, groups, b0[p + 1], b1[p + 1])
            if not ok or out[3][1]:
                return NONE, NONE, True
            cur, out = out, cur
        if present:
            _clear(out)
            ok = _group_step(cur, out, lives, cap, tunnela_life, b0[p + 1], b1[p + 1])
            if not ok or out[3][1]:
                return NONE, NONE, True
            cur, out = out, cur
    best_all = NONE
    best_nat = NONE
    keys, vals, slots, meta = cur
    for j in range(meta[0]):
        i = slots[j]
        w0 = keys[i, 0]
        w1 = keys[i, 2]
        cost = vals[i]
        made = (w1 >> _PC) & 3
        for s in range(4):
            rc = (w0 >> (_SUIT_BITS * s)) & _SUIT_MASK
            cost += 2 * (rc & 7) + ((rc >> 3) & 7) + ((rc >> 6) & 7)
            made += (rc >> 9) & 7
        if made < lives or cost > budget:
            continue
        if (w1 >> _D) & 1:
            best_nat = min(best_nat, cost)
        else:
            best_all = min(best_all, cost)
    return best_all, best_nat, False


@jit
def show_prefilter(counts, wildk, wild53, prm, tbs):
    """Which discards of a hand one card over can leave a show, by the cheap exact bounds:
    (cards as the sweep sees them, loose jokers, wilds, candidates, how many). Split the hand
    (:func:`~taas.envs.core.melds_kernel.split_hand`), keep the held kinds within the share
    bound (:func:`~taas.envs.core.melds_kernel.discard_candidates`), then apply
    :func:`min_wilds` (not with ``P_WRAP``: runs round the corner are outside its problem).
    Every Marriage discard step asks this, most stop at a count of 0, and one compiled call
    costs less than several. Candidates are left empty when there are loose jokers or the
    counts are out of range."""
    c, loose, wilds = split_hand(counts, wildk, prm[P_JOKER_WILD])
    if wilds < 0 or wilds > 31 or loose:
        return c, loose, wilds, np.zeros(53, np.int64), 0
    allowed = discard_candidates(c, wildk, wild53, prm, wilds)
    n = 0
    for k in range(53):
        n += allowed[k]
    if n and not prm[P_WRAP]:
        need_all, need_nat, overflow = min_wilds(c, wildk, prm, allowed, wilds, tbs)
        if not overflow:
            n = 0
            for k in range(53):
                if allowed[k]:
                    if wild53[k]:
                        allowed[k] = need_all <= wilds - 1
                    else:
                        allowed[k] = need_nat <= wilds
                    n += allowed[k]
    return c, loose, wilds, allowed, n
