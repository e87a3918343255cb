"""The rank-sweep dynamic programme behind :mod:`taas.envs.rummy.melds`.

Why a sweep: listing melds and searching over disjoint sets of them (gin-rummy style) explodes
with 21 cards, three copies of each card and up to 15 wilds. Instead the hand is read rank by
rank, and a state keeps only what the rest of the sweep can depend on (open runs, wilds left,
lives made), in the style of van Rijn, Takes and Vis's polynomial Rummikub algorithm. One sweep
serves three objectives: FEAS (can every card be melded), COST (least penalty left unmelded,
merged by min) and MASK (a discard token lets one card be left out; a state's value is the
bitmask of discards reaching it, merged by or, which is exact because a state's future does not
depend on which card was dropped: all 22 discards in one pass). The repository's
``docs/meld-solver.md`` explains the algorithm, its exactness arguments and its tests at length.

Written once in the numba-compatible subset of Python (:mod:`taas.envs.core.jit`): compiled when
numba is there, plain Python otherwise.

The sweep visits positions 0..13 (0 = ace low, 13 = ace high) and, at each position, the four
suits one at a time and then the rank's groups. A state is three int64 words:

* ``w0``/``w1``: the open runs of suits 0,1 / 2,3, 30 bits a suit: up to 6 runs, 5 bits each,
  ``length << 1 | pure``, sorted descending, 0 = no run.
* ``w2``: ``bal`` (wild cards not yet used, 5 bits), ``room`` (how many spare wilds finished
  melds can still absorb, capped at ``bal``, 5 bits), ``pc`` (lives closed, capped at the quota,
  2 bits), ``d`` (discard token used, 1 bit), ``res`` (aces of each suit kept for ace-high,
  2 bits each) and ``pool`` (cards of each suit waiting for this rank's groups, 2 bits each).

Every wild card starts in ``bal``. A wild-rank card standing for itself is "taken back" at its
position (``bal`` - 1); any assignment with at most ``count(kind)`` take-backs per kind is
realisable because wild cards are otherwise interchangeable. Runs start at a card standing for
itself; wilds fill gaps, pad a run to 3 cards when it closes, or are absorbed as spares into the
room of finished melds (a run of length L has room 13 - L, a group its size cap). Run lengths
are exact until the room saturates (``room == bal``: no spare wild can ever be left over), after
which only 1, 2, "3+" and "started at position 0" (length == position, so it cannot reach 14)
matter.

Exact prunings (each argued in ``docs/meld-solver.md``): a wild extends a run only towards a
card of its suit within reach; aces are kept for ace-high only when a card of their suit is
within reach below; a saturated state with more wilds beats one with fewer; a state short of
lives with no pure run open and no pure window ahead is dropped; wild-rank cards stand for
themselves only where that can matter (see ``P_TB_RUNS``/``P_TB_GROUP``); in FEAS and MASK, a
state that used more wilds than the cards still ahead leave room for is dropped
(:func:`wild_budgets`).
"""

from __future__ import annotations

import numpy as np

from taas.envs.core.jit import jit, jit_norc

COST = 0  # min deadwood: value = cost so far, merged by min
MASK = 1  # discard mask: value = bitmask of the discards that reach a state, merged by or
FEAS = 2  # complete partition: value 1, merged by or

INF_ROOM = 99  # a group with no size cap: room never runs out (the kernel caps room at bal)
MAX_RUNS = 6

# Parameter vector layout (ints), built by melds._Compiled.
P_LIVES = 0
P_PURE_VARIANT = 1
P_RUNS = 2
P_WILD_PEN = 3
P_JOKER_WILD = 4
P_PAD1 = 5  # closing a one-card run with two wilds is a distinct option (else a group does it)
P_GROUPS = 6
P_TUNNELA_LIFE = 7
P_TB_RUNS = 8  # a wild-rank card standing for itself may start a run (else it never needs to)
P_TB_GROUP = 9  # most wild-rank cards standing for themselves in one rank's groups
P_WRAP = 10  # K-A-2 runs allowed: the prefilters' run windows go round the corner (the sweep
# itself never builds a run through the corner; taas.envs.rummy.melds sets corner runs aside first)
P_BAL_USED = 11  # wild cards already used by melds set aside before the sweep
P_ROOM0 = 12  # room for spare wilds in melds set aside before the sweep
P_GROUP_CAP = 13  # largest group, 0: no cap (only wild_budgets reads it)
N_PRM = 14


# --------------------------------------------------------------------------- state tables
# A layer of the sweep is an open-addressing hash table over int64 arrays, a tuple
# ``(keys, vals, slots, meta)``: ``keys[i]`` the three words of slot i (``keys[i, 2] == -1``:
# empty; state words are never negative), ``vals[i]`` its value (``DEAD``: pruned),
# ``slots[:meta[0]]`` the filled slots in insertion order (iteration order, so results never
# depend on the hash), ``meta[1]`` set once the table is over half full: the solve then stops and
# the caller retries with bigger tables (:func:`tables`). Numba's typed dict costs several times
# more per operation, and the sweep is little else.

DEAD = -1


def tables(log2: int) -> tuple:
    """Four empty tables of ``2**log2`` slots: two layers, the signature index and scratch."""
    return tuple(_table(log2) for _ in range(4))


@jit
def _table(log2):
    cap = 1 << log2
    return (np.full((cap, 3), -1, np.int64), np.zeros(cap, np.int64), np.zeros(cap, np.int64),
            np.zeros(2, np.int64))


@jit_norc
def _clear(tb):
    keys, _, slots, meta = tb
    for j in range(meta[0]):
        keys[slots[j], 2] = -1
    meta[0] = 0


@jit_norc
def _slot(tb, k0, k1, k2):
    """The slot holding (k0, k1, k2), or the empty slot where it belongs."""
    keys = tb[0]
    mask = len(keys) - 1
    h = (int(k0) * 0x9E3779B97F4A7C1 + int(k1) * 0x7FEB352D + int(k2) * 0x846CA68B)
    h &= 0x7FFFFFFFFFFFFFFF
    i = (h ^ (h >> 29) ^ (h >> 43)) & mask
    while True:
        e = keys[i, 2]
        if e == -1 or (e == k2 and keys[i, 0] == k0 and keys[i, 1] == k1):
            return i
        i = (i + 1) & mask


@jit_norc
def _get(tb, k0, k1, k2):
    """The value stored under (k0, k1, k2), or DEAD when there is none."""
    i = _slot(tb, k0, k1, k2)
    return DEAD if tb[0][i, 2] == -1 else tb[1][i]


@jit_norc
def _put(tb, k0, k1, k2, v, mode):
    """Insert a state or merge its value into the stored one (min for COST, or otherwise)."""
    keys, vals, slots, meta = tb
    if 2 * meta[0] >= len(vals):
        meta[1] = 1  # over half full: the solve is abandoned and retried with bigger tables
        return
    i = _slot(tb, k0, k1, k2)
    if keys[i, 2] == -1:
        keys[i, 0] = k0
        keys[i, 1] = k1
        keys[i, 2] = k2
        vals[i] = v
        slots[meta[0]] = i
        meta[0] += 1
    elif mode == COST:
        if v < vals[i]:
            vals[i] = v
    else:
        vals[i] |= v


@jit_norc
def _emit(table, k0, k1, k2, v, mode, recon, t0, t1, t2, tv):
    """Insert a successor, or in reconstruction mode report whether it is the target."""
    if recon:
        return k0 == t0 and k1 == t1 and k2 == t2 and v == tv
    _put(table, k0, k1, k2, v, mode)
    return False


@jit_norc
def _misc(bal, room, pc, d, res, pool):
    w = bal | (room << 5) | (pc << 10) | (d << 12)
    for s in range(4):
        w |= res[s] << (13 + 2 * s)
        w |= pool[s] << (21 + 2 * s)
    return w


# Rows of the scratch array ``scr`` (:func:`workspace`) used by a suit step; the rows are read
# in place, since an array view per row costs reference counting on every state.
R_LEN, R_PURE, R_ACT, R_NEW_LEN, R_NEW_PURE, R_CODE, R_ORDER, R_NOPT, R_OPTS = range(9)


@jit_norc
def _pack_runs(scr, n, p_end, saturated, keep_pure):
    """Canonical 30-bit code of one suit's open runs (lengths and pure bits in the rows
    R_NEW_LEN/R_NEW_PURE); row R_ORDER receives the sort order (used by the reconstruction)."""
    for i in range(n):
        length = scr[R_NEW_LEN, i]
        if saturated and length >= 3 and length != p_end:
            length = 3
        c = (length << 1) | (scr[R_NEW_PURE, i] if keep_pure else 0)
        j = i
        while j > 0 and scr[R_CODE, j - 1] < c:
            scr[R_CODE, j] = scr[R_CODE, j - 1]
            scr[R_ORDER, j] = scr[R_ORDER, j - 1]
            j -= 1
        scr[R_CODE, j] = c
        scr[R_ORDER, j] = i
    w = 0
    for i in range(n):
        w |= scr[R_CODE, i] << (5 * i)
    return w


@jit_norc
def _leftover(spare, room, allwild):
    """Spare wilds that neither fit into finished melds nor form all-wild melds."""
    best = spare - room if spare > room else 0
    for j in range(3, spare + 1):
        if allwild[j]:
            x = spare - j - room
            if x < 0:
                x = 0
            if x < best:
                best = x
    return best


@jit_norc
def _suit_step(table, k0, k1, k2, v, p, s, cnt, wildk, vals, nxt, resok, prm, allowed, mode, recon,
               t0, t1, t2, tv, scr):
    """Expand one state through suit ``s`` at position ``p`` (p == 14: close every run).

    Each open run is closed (as a life or as a meld that can absorb wilds), extended by a
    natural, by a taken-back wild-rank card or by a wild; the remaining cards of this kind start
    runs or wait in the rank's pool. In MASK mode an unused discard token may drop one copy of a
    wild-rank card here. ``scr`` is scratch space. Returns the move code of the target in
    reconstruction mode, else -1.
    """
    lives = prm[P_LIVES]
    pure_variant = prm[P_PURE_VARIANT]
    word = k0 if s < 2 else k1
    sh = 30 * (s & 1)
    rc = (word >> sh) & ((1 << 30) - 1)
    nr = 0
    while nr < MAX_RUNS and (rc >> (5 * nr)) & 31:
        c = (rc >> (5 * nr)) & 31
        scr[R_LEN, nr] = c >> 1
        scr[R_PURE, nr] = c & 1
        nr += 1
    bal = k2 & 31
    room = (k2 >> 5) & 31
    pc = (k2 >> 10) & 3
    d = (k2 >> 12) & 1
    res_s = (k2 >> (13 + 2 * s)) & 3
    base2 = k2 & ~((1 << 13) - 1) & ~(3 << (13 + 2 * s)) & ~(3 << (21 + 2 * s))
    saturated_before = room == bal
    kind = s * 13 + (p % 13) if p <= 13 else 0
    iswild = wildk[kind] if p <= 13 else 0
    reach = nxt[s, p] - p if p <= 13 else 99
    h_hi = cnt[kind] if (p == 0 and resok[s] and (not iswild or pure_variant)) else 0
    dis_hi = 1 if (mode == MASK and iswild and d == 0 and p <= 12 and allowed[kind]) else 0
    new_pure = 1 if (not iswild or pure_variant) else 0
    # With no group size cap, one wild-rank card standing for itself anchors a group as well as
    # several do (the others act as wilds instead), unless three identical ones make a life.
    tb_room = prm[P_TB_GROUP]
    if p <= 12:
        for t in range(s):
            if wildk[t * 13 + p]:
                tb_room -= (k2 >> (21 + 2 * t)) & 3
    for hd in range((h_hi + 1) * (dis_hi + 1)):
        h = hd // (dis_hi + 1)
        dis = hd % (dis_hi + 1)
        if p == 0:
            avail = cnt[kind] - h
        elif p == 13:
            avail = res_s
        elif p == 14:
            avail = 0
        else:
            avail = cnt[kind]
        res2 = h if p == 0 else (0 if p == 13 else res_s)
        if dis:
            if avail < 1 or bal < 1:
                continue
            avail -= 1
        bal_d = bal - dis
        d2 = d | dis
        v_d = (np.int64(1) << kind) if dis else v
        # The actions each run may take on its own; combinations are checked below.
        nact = 1
        for i in range(nr):
            length = scr[R_LEN, i]
            n = 0
            if length >= 3 and scr[R_PURE, i] and pc < lives:
                scr[R_OPTS + i, n] = 0  # close as a life
                n += 1
            if length >= 3 or length == 2 or prm[P_PAD1]:
                scr[R_OPTS + i, n] = 1  # close (padded with wilds below 3), able to absorb
                n += 1
            if p <= 13 and length < 13:
                if avail > 0 and not iswild:
                    scr[R_OPTS + i, n] = 2  # extend by a natural
                    n += 1
                if avail > 0 and iswild and pure_variant:
                    scr[R_OPTS + i, n] = 3  # extend by a wild-rank card standing for itself
                    n += 1
                if length + reach < 13 and reach <= bal_d:
                    scr[R_OPTS + i, n] = 4  # extend by a wild, towards a card within reach
                    n += 1
            scr[R_NOPT, i] = n
            nact *= n
        for code in range(nact):
            x = code
            used = 0
            wilds = 0
            room_add = 0
            lives_add = 0
            ok = True
            ne = 0
            for i in range(nr):
                a = scr[R_OPTS + i, x % scr[R_NOPT, i]]
                x //= scr[R_NOPT, i]
                scr[R_ACT, i] = a
                if (i > 0 and scr[R_LEN, i] == scr[R_LEN, i - 1]
                        and scr[R_PURE, i] == scr[R_PURE, i - 1] and a < scr[R_ACT, i - 1]):
                    ok = False  # identical runs: one order of their actions is enough
                    break
                length = scr[R_LEN, i]
                if a == 0:
                    if pc + lives_add >= lives:
                        ok = False
                        break
                    lives_add += 1
                elif a == 1:
                    if length >= 3:
                        if scr[R_PURE, i] and pc + lives_add < lives and saturated_before:
                            ok = False  # closing it as a life is at least as good
                            break
                        room_add += 13 - length
                    else:
                        wilds += 3 - length
                        room_add += 10
                else:
                    if a != 4:
                        used += 1
                    if a != 2:
                        wilds += 1
                    if used > avail or (a == 4 and reach > bal_d - wilds + 1):
                        ok = False
                        break
                    scr[R_NEW_LEN, ne] = length + 1
                    scr[R_NEW_PURE, ne] = scr[R_PURE, i] if a == 2 or a == 3 else 0
                    ne += 1
            if not ok or wilds > bal_d:
                continue
            rest = avail - used
            k_hi = rest if (p <= 12 and prm[P_RUNS] and (prm[P_TB_RUNS] or not iswild)) else 0
            for k in range(k_hi + 1):
                g_hi = rest - k if p <= 12 else 0
                g_lo = g_hi
                if iswild:
                    g_lo = 0
                    if g_hi > tb_room:
                        g_hi = tb_room
                for g in range(g_lo, g_hi + 1):
                    w_all = wilds + ((k + g) if iswild else 0)
                    if w_all > bal_d or ne + k > MAX_RUNS:
                        continue
                    v2 = v_d
                    if p == 13 and not iswild and rest > 0:
                        if mode != COST:
                            continue
                        v2 = v_d + rest * vals[kind]
                    n2 = ne
                    for _ in range(k):
                        scr[R_NEW_LEN, n2] = 1
                        scr[R_NEW_PURE, n2] = new_pure
                        n2 += 1
                    bal2 = bal_d - w_all
                    pc2 = pc + lives_add
                    room2 = room + room_add
                    if room2 > bal2:
                        room2 = bal2
                    rw = _pack_runs(scr, n2, p + 1, room2 == bal2, pc2 < lives)
                    if s < 2:
                        nk0 = (k0 & ~(((1 << 30) - 1) << sh)) | (rw << sh)
                        nk1 = k1
                    else:
                        nk0 = k0
                        nk1 = (k1 & ~(((1 << 30) - 1) << sh)) | (rw << sh)
                    nk2 = (base2 | bal2 | (room2 << 5) | (pc2 << 10) | (d2 << 12)
                           | (res2 << (13 + 2 * s)) | (g << (21 + 2 * s)))
                    if _emit(table, nk0, nk1, nk2, v2, mode, recon, t0, t1, t2, tv):
                        return _move(scr, nr, k, g, h, dis)
    return -1


@jit_norc
def _move(scr, nr, k, g, h, dis):
    """Pack a suit step's choices: one base-5 digit per run, then k, g, h and dis."""
    code = 0
    for i in range(nr - 1, -1, -1):
        code = code * 5 + scr[R_ACT, i]
    return code | (k << 20) | (g << 24) | (h << 28) | (dis << 30)


@jit_norc
def _group_step(table, k0, k1, k2, v, r, prm, opt_start, opt_dead, opt_w, opt_room, opt_lives,
                opt_cost, allowed, mode, recon, t0, t1, t2, tv, resok):
    """Expand one state through the groups of rank ``r`` (options precomputed per pool).
    A successor still short of lives, with no pure run open and no life left to start after
    this rank, is dropped."""
    lives = prm[P_LIVES]
    hopeless = not resok[4 + r + 1] and ((k0 | k1) & PURE_BITS) == 0
    bal = k2 & 31
    room = (k2 >> 5) & 31
    pc = (k2 >> 10) & 3
    d = (k2 >> 12) & 1
    pidx = (k2 >> 21) & 255
    base2 = k2 & (255 << 13)  # keep res, clear the pool
    base = r * 256 + pidx
    for j in range(opt_start[base], opt_start[base + 1]):
        w = opt_w[j]
        if w > bal:
            continue
        d2 = d
        v2 = v
        if mode == COST:
            v2 = v + opt_cost[j]
        else:
            nd = 0
            ds = 0
            for t in range(4):
                nd += opt_dead[j, t]
                if opt_dead[j, t]:
                    ds = t
            if nd > 1 or (nd == 1 and (d == 1 or not allowed[ds * 13 + r])):
                continue
            if nd == 1:
                d2 = 1
                v2 = np.int64(1) << (ds * 13 + r)
        bal2 = bal - w
        pc2 = pc + opt_lives[j]
        if pc2 > lives:
            pc2 = lives
        if pc2 < lives and hopeless:
            continue
        room2 = room + opt_room[j]
        if room2 > bal2:
            room2 = bal2
        nk2 = base2 | bal2 | (room2 << 5) | (pc2 << 10) | (d2 << 12)
        if _emit(table, k0, k1, nk2, v2, mode, recon, t0, t1, t2, tv):
            return j
    return -1


@jit_norc
def _final(k2, v, prm, allwild, joker_ok, mode):
    """Value of a finished state: cost with spare wilds charged, or its discard bits (0 = none)."""
    bal = k2 & 31
    room = (k2 >> 5) & 31
    pc = (k2 >> 10) & 3
    d = (k2 >> 12) & 1
    if pc < prm[P_LIVES]:
        return -1
    left = _leftover(bal, room, allwild)
    if mode == COST:
        return v + left * prm[P_WILD_PEN]
    if d == 1:
        return v if left == 0 else 0
    # MASK with the token unused: discard a spare printed joker.
    if joker_ok and bal >= 1:
        r2 = room if room < bal - 1 else bal - 1
        if _leftover(bal - 1, r2, allwild) == 0:
            return np.int64(1) << 52
    return 0


@jit_norc
def _prune_spare(cur, best, mode):
    """Drop states beaten by one with more wilds in hand (pruning 4 of the note): once the room
    is saturated (room == bal) every spare wild is absorbed, so a state with more wilds and
    otherwise the same key can do everything it can. Per discard bit in MASK mode. ``best`` is
    scratch. States are visited from the most wilds down, in insertion order within a count."""
    keys, vals, slots, meta = cur
    top = 0
    for j in range(meta[0]):
        k2 = keys[slots[j], 2]
        bal = k2 & 31
        if bal > top and bal == (k2 >> 5) & 31:
            top = bal
    if top == 0:
        return
    _clear(best)
    for want in range(top, 0, -1):
        for j in range(meta[0]):
            i = slots[j]
            k2 = keys[i, 2]
            if k2 & 31 != want or (k2 >> 5) & 31 != want:
                continue
            g2 = k2 & ~1023
            v = vals[i]
            b = _get(best, keys[i, 0], keys[i, 1], g2)
            if b == DEAD:
                _put(best, keys[i, 0], keys[i, 1], g2, v, mode)
            elif mode == COST:
                if b <= v:
                    vals[i] = DEAD
                else:
                    _put(best, keys[i, 0], keys[i, 1], g2, v, mode)
            else:
                rest = v & ~b
                vals[i] = DEAD if rest == 0 else rest
                _put(best, keys[i, 0], keys[i, 1], g2, v, mode)


PURE_BITS = sum(1 << (5 * i) for i in range(2 * MAX_RUNS))  # the pure bit of every run slot
SENTINEL = np.int64(1) << 62  # MASK value of a cached transition that sets no discard bit


@jit_norc
def _layer(cur, out, idx, tmp, p, sub, cnt, wildk, vals, nxt, resok, prm, opt_start, opt_dead,
           opt_w, opt_room, opt_lives, opt_cost, allowed, mode, scr, sig_ws, res_ws):
    """One sub-step (``sub`` 0..3 = suit, 4 = groups) from table ``cur`` into table ``out``.

    A suit step depends only on that suit's runs and on bal/room/pc/d and the suit's reserved
    aces, so its successors are computed once per such signature (indexed in ``idx``, built in
    ``tmp``, kept in the workspaces ``sig_ws``/``res_ws``) and replayed onto every state sharing
    it: states differ mostly in the other suits' runs."""
    _clear(out)
    keys, values, slots, meta = cur
    if sub == 4:
        for j in range(meta[0]):
            i = slots[j]
            if values[i] != DEAD:
                _group_step(out, keys[i, 0], keys[i, 1], keys[i, 2], values[i], p, prm,
                            opt_start, opt_dead, opt_w, opt_room, opt_lives, opt_cost, allowed,
                            mode, False, 0, 0, 0, 0, resok)
        _prune_spare(out, idx, mode)
        return
    s = sub
    sh = 30 * (s & 1)
    run_mask = ((1 << 30) - 1) << sh
    own = ((1 << 13) - 1) | (3 << (13 + 2 * s)) | (3 << (21 + 2 * s))
    _clear(idx)
    n_sig = 0
    n_res = 0
    v0 = 0 if mode == COST else SENTINEL
    tk, tv, tslots, tmeta = tmp
    for jj in range(meta[0]):
        i = slots[jj]
        v = values[i]
        if v == DEAD:
            continue
        key0 = keys[i, 0]
        key1 = keys[i, 1]
        key2 = keys[i, 2]
        word = (key0 if s < 2 else key1) & run_mask
        sig2 = key2 & own
        j = _get(idx, word, sig2, 0)
        if j == DEAD:
            _clear(tmp)
            _suit_step(tmp, word if s < 2 else 0, word if s >= 2 else 0, sig2, v0, p, s, cnt,
                       wildk, vals, nxt, resok, prm, allowed, mode, False, 0, 0, 0, 0, scr)
            if n_sig == sig_ws.shape[1] or n_res + tmeta[0] > res_ws.shape[1]:
                _suit_step(out, key0, key1, key2, v, p, s, cnt, wildk, vals, nxt, resok, prm,
                           allowed, mode, False, 0, 0, 0, 0, scr)  # workspace full
                continue
            sig_ws[0, n_sig] = n_res
            sig_ws[1, n_sig] = tmeta[0]
            for t in range(tmeta[0]):
                q = tslots[t]
                res_ws[0, n_res] = tk[q, 0] if s < 2 else tk[q, 1]
                res_ws[1, n_res] = tk[q, 2]
                res_ws[2, n_res] = tv[q]
                n_res += 1
            _put(idx, word, sig2, 0, n_sig, COST)
            j = n_sig
            n_sig += 1
        for r in range(sig_ws[0, j], sig_ws[0, j] + sig_ws[1, j]):
            k0 = key0
            k1 = key1
            if s < 2:
                k0 = (k0 & ~run_mask) | res_ws[0, r]
            else:
                k1 = (k1 & ~run_mask) | res_ws[0, r]
            k2 = (key2 & ~own) | res_ws[1, r]
            rv = res_ws[2, r]
            if mode == COST:
                nv = v + rv
            elif rv == SENTINEL:
                nv = v
            else:
                nv = rv
            _put(out, k0, k1, k2, nv, mode)


@jit
def workspace():
    """Scratch arrays for :func:`_layer`, allocated once by the caller and reused."""
    scr = np.zeros((R_OPTS + MAX_RUNS, MAX_RUNS), np.int64)
    return scr, np.empty((2, 4096), np.int64), np.empty((3, 1 << 16), np.int64)


@jit
def _prepare(cnt, bal, wildk, prm):
    """Per hand: the next position holding a card of each suit that can extend a run (wild-rank
    cards extend runs as themselves only in the pure variant); ``resok[s]`` (s < 4): suit s may
    keep aces for ace-high; ``resok[4 + p]``: a new life can still start at position >= p."""
    nxt = np.full((4, 15), 99, np.int64)
    resok = np.zeros(4 + 16, np.int64)
    pure_variant = prm[P_PURE_VARIANT]
    for s in range(4):
        q_next = 99
        for p in range(13, -1, -1):
            nxt[s, p] = q_next
            k = s * 13 + (p % 13)
            if cnt[k] > 0 and (not wildk[k] or pure_variant):  # a card that can extend a run
                q_next = p
        if cnt[s * 13] > 0:
            for q in range(max(1, 12 - bal), 13):
                if cnt[s * 13 + q] > 0:
                    resok[s] = 1
        for p in range(12):
            ok = prm[P_RUNS] == 1
            for q in range(p, p + 3):
                k = s * 13 + (q % 13)
                if cnt[k] == 0 or (wildk[k] and not pure_variant):
                    ok = False
            if ok:
                for t in range(p + 1):
                    resok[4 + t] = 1
    if prm[P_TUNNELA_LIFE] and prm[P_GROUPS]:
        for k in range(52):
            if cnt[k] >= 3 and (not wildk[k] or pure_variant):
                for t in range(k % 13 + 1):
                    resok[4 + t] = 1
    return nxt, resok


@jit
def _sweep(cnt, wildk, vals, prm, opt_start, opt_dead, opt_w, opt_room, opt_lives, opt_cost,
           allowed, mode, tbs, ws, rec_keys, rec_vals, rec_at):
    """Run every sub-step over ``cnt``; returns the table holding the last layer and whether a
    table overflowed (the answer is then void). With ``rec_at`` non-empty, every layer is also
    copied into ``rec_keys``/``rec_vals``, layer i at ``rec_at[i]:rec_at[i + 1]`` (for the
    reconstruction; too small arrays count as an overflow)."""
    bal = _wilds(cnt, wildk, prm) - prm[P_BAL_USED]
    room0 = min(prm[P_ROOM0], bal)
    nxt, resok = _prepare(cnt, bal, wildk, prm)
    # Every card melded (FEAS, MASK): drop states that used too many wilds for what is left.
    prune = mode != COST and not prm[P_WRAP]
    if prune:
        b0, b1 = wild_budgets(cnt, wildk, allowed, prm[P_GROUPS], prm[P_RUNS], prm[P_GROUP_CAP],
                              bal)
    else:
        b0 = b1 = np.zeros(0, np.int64)
    cur, out, idx, tmp = tbs
    for tb in tbs:
        _clear(tb)
        tb[3][1] = 0
    z = np.zeros(4, np.int64)
    d0 = 0 if mode == MASK else 1
    _put(cur, 0, 0, _misc(bal, room0, 0, d0, z, z), 0 if mode == COST else 1, mode)
    live = 1
    if prune:
        live = _prune_budget(cur, bal, b0[0], b1[0])  # (0: too few wilds for the whole hand)
    scr, sig_ws, res_ws = ws
    layer = 0
    record = len(rec_at) > 0
    for p in range(15):
        for sub in range(4 if p > 12 else 5):
            if live == 0 and not record:
                return cur, False  # every state pruned: no answer (a record keeps every layer)
            if record and not _record(cur, rec_keys, rec_vals, rec_at, layer):
                return cur, True
            layer += 1
            if sub < 4 and _idle(cur, p, sub, cnt):
                continue
            _layer(cur, out, idx, tmp, p, sub, cnt, wildk, vals, nxt, resok, prm, opt_start,
                   opt_dead, opt_w, opt_room, opt_lives, opt_cost, allowed, mode, scr, sig_ws,
                   res_ws)
            if out[3][1] or idx[3][1] or tmp[3][1]:
                return out, True
            if prune and p <= 12:
                live = _prune_budget(out, bal, b0[p + 1], b1[p + 1])
            cur, out = out, cur
    if record and not _record(cur, rec_keys, rec_vals, rec_at, layer):
        return cur, True
    return cur, False


@jit_norc
def _prune_budget(tb, bal0, b0, b1):
    """Mark DEAD the states of ``tb`` that used more wilds than :func:`wild_budgets` allows
    (``b0`` before the discard, ``b1`` after): they cannot meld what is left. ``tb`` is the first
    layer (budgets of p = -1) or one after a sub-step at position p <= 12 (budgets of p: the
    cards at p of suits not yet swept are then left out of the need, which only loosens it).
    Only states without any completion go, and every parent of a state with one has one too,
    so the states that remain, their values and their order are those of the unpruned sweep
    (the reconstruction is unchanged). Returns how many states are left."""
    keys, values, slots, meta = tb
    live = 0
    for j in range(meta[0]):
        i = slots[j]
        if values[i] == DEAD:
            continue
        k2 = keys[i, 2]
        limit = b1 if (k2 >> 12) & 1 else b0
        if bal0 - (k2 & 31) > limit:
            values[i] = DEAD
        else:
            live += 1
    return live


@jit_norc
def _idle(cur, p, s, cnt):
    """Suit ``s`` at position ``p`` changes no state: no card of it here, no run of it open and
    (at ace-high) no ace kept back. Such sub-steps, a quarter of the work, are skipped."""
    if p <= 12 and cnt[s * 13 + p] > 0:
        return False
    keys, _, slots, meta = cur
    sh = 30 * (s & 1)
    col = 0 if s < 2 else 1
    for j in range(meta[0]):
        i = slots[j]
        if (keys[i, col] >> sh) & ((1 << 30) - 1):
            return False
        if p == 13 and (keys[i, 2] >> (13 + 2 * s)) & 3:
            return False
    return True


@jit_norc
def _record(tb, rec_keys, rec_vals, rec_at, layer):
    """Append the live states of ``tb`` as layer ``layer``; False when the arrays are full."""
    keys, values, slots, meta = tb
    at = rec_at[layer]
    for j in range(meta[0]):
        i = slots[j]
        if values[i] == DEAD:
            continue
        if at == len(rec_vals):
            return False
        rec_keys[at, 0] = keys[i, 0]
        rec_keys[at, 1] = keys[i, 1]
        rec_keys[at, 2] = keys[i, 2]
        rec_vals[at] = values[i]
        at += 1
    rec_at[layer + 1] = at
    return True


@jit
def _wilds(cnt, wildk, prm):
    """Cards the sweep treats as wild: wild-rank cards, and printed jokers when they are wild."""
    bal = 0
    for k in range(52):
        if wildk[k]:
            bal += cnt[k]
    if prm[P_JOKER_WILD]:
        bal += cnt[52]
    return bal


NO_RECORD = (np.zeros((0, 3), np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64))


@jit
def solve(cnt, wildk, vals, prm, opt_start, opt_dead, opt_w, opt_room, opt_lives, opt_cost,
          allwild, allowed, mode, tbs, ws, rec_keys, rec_vals, rec_at):
    """Run the sweep over ``cnt`` (53 counts) in tables ``tbs`` (:func:`tables`) with scratch
    ``ws`` (:func:`workspace`). COST: min
    deadwood of the wild and natural cards the sweep sees (-1 if no arrangement has the lives);
    MASK: discard bitmask; FEAS: 0/1. Returns (answer, overflow); see :func:`_sweep`."""
    last, overflow = _sweep(cnt, wildk, vals, prm, opt_start, opt_dead, opt_w, opt_room,
                            opt_lives, opt_cost, allowed, mode, tbs, ws, rec_keys, rec_vals,
                            rec_at)
    best = -1 if mode == COST else 0
    if overflow:
        return best, True
    joker_ok = prm[P_JOKER_WILD] and cnt[52] > 0
    keys, values, slots, meta = last
    for j in range(meta[0]):
        i = slots[j]
        if values[i] == DEAD:
            continue
        f = _final(keys[i, 2], values[i], prm, allwild, joker_ok, mode)
        if mode == COST:
            if f >= 0 and (best < 0 or f < best):
                best = f
        elif f > 0:
            best |= f
    return best, False


@jit
def backtrack(rec_keys, rec_vals, rec_at, cnt, wildk, vals, nxt, resok, prm, opt_start,
              opt_dead, opt_w, opt_room, opt_lives, opt_cost, allwild, mode):
    """Walk a recorded COST or FEAS sweep (:func:`_sweep`) back from its best final state.
    Returns the best cost (0 for FEAS; -1: no arrangement), that state's misc word, and per
    sub-step the move taken and the misc word it led to (-1 moves: the path was lost, a bug)."""
    n_steps = len(rec_at) - 2
    moves = np.full((n_steps, 2), -1, np.int64)
    best = -1
    t0 = t1 = t2 = tv = np.int64(0)
    for j in range(rec_at[n_steps], rec_at[n_steps + 1]):
        f = _final(rec_keys[j, 2], rec_vals[j], prm, allwild, False, mode)
        if mode == FEAS:
            f = 0 if f > 0 else -1
        if f >= 0 and (best < 0 or f < best):
            best = f
            t0, t1, t2, tv = rec_keys[j, 0], rec_keys[j, 1], rec_keys[j, 2], rec_vals[j]
    if best < 0:
        return best, np.int64(0), moves
    final = t2
    dummy = _table(1)
    scr = np.zeros((R_OPTS + MAX_RUNS, MAX_RUNS), np.int64)
    no_discard = np.zeros(53, np.int64)
    for i in range(n_steps - 1, -1, -1):
        p, sub = (i // 5, i % 5) if i < 65 else (13 + (i - 65) // 4, (i - 65) % 4)
        # The bits this sub-step never changes (as _layer composes its successors): a state
        # that differs from the target in them cannot lead to it, so it is not expanded.
        if sub < 4:
            run_mask = ((1 << 30) - 1) << (30 * (sub & 1))
            keep0 = ~run_mask if sub < 2 else -1
            keep1 = -1 if sub < 2 else ~run_mask
            keep2 = ~(((1 << 13) - 1) | (3 << (13 + 2 * sub)) | (3 << (21 + 2 * sub)))
        else:
            keep0 = keep1 = -1
            keep2 = 255 << 13  # the aces kept back
        found = False
        for j in range(rec_at[i], rec_at[i + 1]):
            k0, k1, k2, v = rec_keys[j, 0], rec_keys[j, 1], rec_keys[j, 2], rec_vals[j]
            if ((k0 ^ t0) & keep0) or ((k1 ^ t1) & keep1) or ((k2 ^ t2) & keep2):
                continue
            if sub < 4:
                m = _suit_step(dummy, k0, k1, k2, v, p, sub, cnt, wildk, vals, nxt, resok, prm,
                               no_discard, mode, True, t0, t1, t2, tv, scr)
            else:
                m = _group_step(dummy, k0, k1, k2, v, p, prm, opt_start, opt_dead, opt_w,
                                opt_room, opt_lives, opt_cost, no_discard, mode, True, t0, t1,
                                t2, tv, resok)
            if m >= 0:
                moves[i, 0] = m
                moves[i, 1] = t2
                t0, t1, t2, tv = k0, k1, k2, v
                found = True
                break
        if not found:
            break
    return best, final, moves


@jit
def life_possible(cnt, wildk, prm):
    """Cheap exact filter: a life needs three consecutive pure cards of one suit (K-A-2
    included under ``P_WRAP``), or a tunnela when tunnelas count as lives."""
    if prm[P_LIVES] == 0:
        return True
    pure_variant = prm[P_PURE_VARIANT]
    if prm[P_TUNNELA_LIFE] and prm[P_GROUPS]:
        for k in range(52):
            if cnt[k] >= 3 and (not wildk[k] or pure_variant):
                return True
    if not prm[P_RUNS]:
        return False
    end = 15 if prm[P_WRAP] else 14  # position 14: the 2 after the ace, round the corner
    for s in range(4):
        run = 0
        for p in range(end):
            k = s * 13 + (p % 13)
            if cnt[k] > 0 and (not wildk[k] or pure_variant):
                run += 1
                if run >= 3:
                    return True
            else:
                run = 0
    return False


SHARE_UNIT = 360360  # lcm(1..13): a meld's wild count shared among its natural cards, exactly


@jit
def wild_shares(cnt, wildk, prm, wilds):
    """A lower bound on the wilds each natural card needs, and their sum (in SHARE_UNIT).

    Share a meld's wild cards equally among its natural cards: the wilds of an arrangement are
    at least the sum of its cards' shares, and a card's share is at least the least share of
    any meld that could hold it given the hand (a group of the card's rank using every natural
    of that rank; a run window of its suit between two natural positions, padded to 3 cards,
    needing at most ``wilds`` wilds). Wild-rank cards count as wilds here, which only loosens
    the bound. Removing cards only raises shares, so the hand less card k needs at least
    ``total - share[k]``. Runs are capped at 13 cards, as in the sweep; under ``P_WRAP`` the
    windows run over two laps of the suit (positions 0..25), so every run round the corner is
    one of them."""
    share = np.zeros(53, np.int64)
    for k in range(52):
        if cnt[k] == 0 or wildk[k]:
            continue
        r = k % 13
        same = 0
        for t in range(4):
            if not wildk[t * 13 + r]:
                same += cnt[t * 13 + r]
        share[k] = 2 * SHARE_UNIT
        if prm[P_GROUPS]:
            share[k] = SHARE_UNIT * max(0, 3 - same) // same
    if prm[P_RUNS]:
        end = 26 if prm[P_WRAP] else 14
        pos = np.zeros(26, np.int64)
        for s in range(4):
            n_pos = 0
            for q in range(end):
                k = s * 13 + (q % 13)
                if cnt[k] > 0 and not wildk[k]:
                    pos[n_pos] = q
                    n_pos += 1
            for i in range(n_pos):
                for j in range(i, n_pos):
                    span = pos[j] - pos[i] + 1
                    if span > 13:
                        break
                    n = j - i + 1
                    need = max(span, 3) - n
                    if need > wilds:
                        continue
                    v = SHARE_UNIT * need // n
                    for t in range(i, j + 1):
                        k = s * 13 + (pos[t] % 13)
                        if v < share[k]:
                            share[k] = v
    total = 0
    for k in range(52):
        if not wildk[k]:
            total += cnt[k] * share[k]
    return share, total


_FAR = 99 * SHARE_UNIT


@jit
def wild_budgets(cnt, wildk, allowed, groups, runs, cap, budget):
    """Per position p (index p + 1, p = -1..13): the most wilds a state may have used once
    positions up to p are swept, for states without (``b0``) and with (``b1``) the discard
    made, so that ``budget`` can still suffice for the naturals beyond p. :func:`_sweep` drops
    FEAS and MASK states over it (every card but the discard must be melded there): in random
    Marriage play most show checks that pass :func:`discard_candidates` die this way within a
    few ranks, and the sweeps that do find a show keep fewer states.

    *Naturals* are the cards of non-wild kinds; every wild card (a wild-rank card also where it
    stands for itself, as the sweep takes it back from ``bal``) costs one, and a closing run
    pays its padding when it closes, as in the sweep. Runs round the corner are outside the
    windows below, so the sweep applies this only without ``P_WRAP`` (or to the rest of a
    corner case). The distinct-suits group rule and group caps only raise what a natural needs.

    The naturals beyond p need at least the sum of their shares: each meld's wilds beyond p
    shared among its naturals beyond p. Every run splits, at no cost, into pieces of 3 to 5
    positions (a longer run has a cut with at least 3 positions on each side), so a natural's
    share is at least the least over: its rank's group (``3 - m`` wilds among at most ``m``
    naturals of the rank), a window of 3 to 5 positions of its suit beyond p (wilds to fill it),
    and a window from p + 1 of at most 4 positions (the end of a piece begun at or before p,
    whose earlier wilds are already counted). A state that has not discarded yet may drop one
    allowed natural beyond p (its share comes off) or one wild (the budget shrinks by one)."""
    nat = np.zeros((4, 15), np.int64)
    for s in range(4):
        for q in range(14):
            k = s * 13 + (q % 13)
            if not wildk[k]:
                nat[s, q] = cnt[k]
    group = np.full(13, _FAR, np.int64)
    if groups:
        for r in range(13):
            m = 0
            for s in range(4):
                m += nat[s, r]
            if cap and m > cap:
                m = cap
            if m:
                group[r] = SHARE_UNIT * (3 - m) // m if m < 3 else 0
    b0 = np.empty(15, np.int64)
    b1 = np.empty(15, np.int64)
    for p in range(-1, 14):
        need = 0
        top = 0
        for s in range(4):
            for q in range(p + 1, 13):
                if nat[s, q] == 0:
                    continue
                best = group[q]
                if runs:
                    best = min(best, _window_share(nat, s, q, p))
                    if q == 0:  # an ace may sit at ace-high
                        best = min(best, _window_share(nat, s, 13, p))
                need += nat[s, q] * best
                if allowed[s * 13 + q] and best > top:
                    top = best
        room = budget * SHARE_UNIT - need
        b1[p + 1] = room // SHARE_UNIT if room >= 0 else -1
        lim = room + top  # (a wild discard, or one at p, leaves less room)
        b0[p + 1] = lim // SHARE_UNIT if lim >= 0 else -1
    return b0, b1


@jit_norc
def _window_share(nat, s, q, p):
    """The least share of the natural at position ``q`` of suit ``s`` over the run windows of
    :func:`wild_budgets` lying beyond ``p``."""
    best = _FAR
    for i in range(max(p + 1, q - 4), q + 1):
        fresh = i > p + 1 or p < 0  # else the window may end a piece begun at or before p
        if fresh and nat[s, i] == 0:
            continue  # (a window widened to a position with no natural is never better)
        n = 0
        for j in range(i, min(i + 5, 14)):
            n += nat[s, j] > 0
            if j < q or nat[s, j] == 0:
                continue
            span = j - i + 1
            w = (span if span > 3 or not fresh else 3) - n
            if SHARE_UNIT * w // n < best:
                best = SHARE_UNIT * w // n
    return best


@jit
def split_hand(counts, wildk, joker_wild):
    """The sweep's copy of a 53-count hand: (counts as int64 with non-wild printed jokers
    removed, those jokers, wild cards); wild cards -1 when a count is out of 0..3."""
    c = np.zeros(53, np.int64)
    wilds = 0
    for k in range(53):
        n = counts[k]
        if n < 0 or (n > 3 and k < 52):
            return c, 0, -1
        c[k] = n
        if k < 52 and wildk[k]:
            wilds += n
    loose = 0
    if joker_wild:
        wilds += c[52]
    else:
        loose = c[52]
        c[52] = 0
    return c, loose, wilds


@jit
def discard_candidates(c, wildk, wild53, prm, wilds):
    """The kinds :func:`solve` in MASK mode need try as the discard (53 flags, none when no
    discard can work): held, a life possible, and within the :func:`wild_shares` bound."""
    allowed = np.zeros(53, np.int64)
    if not life_possible(c, wildk, prm):
        return allowed
    share, total = wild_shares(c, wildk, prm, wilds)
    budget = wilds * SHARE_UNIT
    for k in range(53):
        if c[k] > 0:
            if wild53[k]:
                allowed[k] = total <= budget - SHARE_UNIT
            else:
                allowed[k] = total - share[k] <= budget
    return allowed


@jit
def show_candidates(counts, wildk, wild53, prm):
    """The first stage of every show check, in one compiled call (most stop here): (cards as
    the sweep sees them, loose jokers, wilds, :func:`discard_candidates`, how many). The
    candidates are left empty when there are loose jokers or the counts are out of range."""
    c, loose, wilds = split_hand(counts, wildk, prm[P_JOKER_WILD])
    if wilds < 0 or wilds > 31 or loose:
        return c, loose, wilds, np.zeros(53, np.int64), 0
    allowed = discard_candidates(c, wildk, wild53, prm, wilds)
    n = 0
    for k in range(53):
        n += allowed[k]
    return c, loose, wilds, allowed, n


@jit
def mask_of(bits):
    """The 53 flags of a discard bitmask."""
    out = np.zeros(53, np.bool_)
    for k in range(53):
        out[k] = (bits >> k) & 1
    return out
