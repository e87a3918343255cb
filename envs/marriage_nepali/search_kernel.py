"""Compiled searches behind :mod:`.combos` (finishing) and the engine's show mask (spec 2N.4,
2N.6, 2N.7), in the numba subset of Python (:mod:`taas.envs.core.jit`; plain Python without
numba, same answers).

Why compiled: a seen player's discard mask asks the finishing search once per held kind, and an
unseen player's asks the show search once per pure combination held, on every turn; in Python
these two searches were most of a step's time. Both are depth-first searches written as loops
over an explicit stack: numba's disk cache crashes on recursive functions called from other
compiled functions (numba issues 6061, 6713).

Finishing (:func:`solve`): wild cards are interchangeable (see :mod:`.combos`), so a hand is its
natural counts plus a number of wilds. The lowest natural card must sit in some combination; the
search tries the options in a fixed order (sizes 3 up to ``max_size``; fewer natural partners
first; partners as ``itertools.combinations_with_replacement`` over the ascending kinds held
that could share a combination with it) and goes on with the rest. The first split found is a
function of the counts alone, so :meth:`.combos.Splitter.split` returns the same arrangement
whatever was asked before. A row of ``rec`` per depth: the combination taken (natural cards
padded with -1, naturals used, wilds used), the next option to try, and the kinds held that
may join the lowest card (how many, then the kinds).
"""

from __future__ import annotations

import itertools

import numpy as np

from taas.envs.core.cards import JOKER, NUM_KINDS, NUM_RANKS, kind
from taas.envs.core.jit import jit_norc
from taas.envs.marriage_nepali import actions as A

_MAX_CAND = 10  # kinds that may share a combination with the lowest card, itself included
_NEXT, _HELD = 6, 7  # rec columns: the next option to try, how many candidates are held
REC_WIDTH = _HELD + 1 + _MAX_CAND
FAILED_SLOTS = 1 << 12  # rows of a ``failed`` table (a power of two)
_PROBES = 4
_KINDS_WORD0 = 31  # kinds packed into a state's first word (62 bits); the second word holds
# the other 22 kinds (44 bits), then w (at most 3 * 53 wild cards: 8 bits)


def _candidates(first: int) -> list[int]:
    """Every kind that may share a combination of at most 4 cards with ``first`` when
    ``first`` is the lowest natural card: itself (tunnelas), its suit's next three ranks (and
    J, Q, K for an ace, ace high), its rank in the later suits; ascending."""
    if first == JOKER:
        return [JOKER]
    r, s = first % NUM_RANKS, first // NUM_RANKS
    ranks = [x for x in range(r + 1, r + 4) if x < NUM_RANKS]
    if r == 0:
        ranks += [NUM_RANKS - 3, NUM_RANKS - 2, NUM_RANKS - 1]
    return [first] + [kind(x, s) for x in ranks] + [kind(r, t) for t in range(s + 1, 4)]


_CAND = np.full((NUM_KINDS, _MAX_CAND), -1, np.int64)
_NCAND = np.zeros(NUM_KINDS, np.int64)
for _k in range(NUM_KINDS):
    _c = _candidates(_k)
    _CAND[_k, :len(_c)] = _c
    _NCAND[_k] = len(_c)


def _option_table(held: int) -> list[tuple[int, ...]]:
    """The options for a lowest card with ``held`` candidates held, in search order: (size,
    partners, indices of the partners among the held candidates, padded with -1)."""
    return [(size, p, *idx, *[-1] * (3 - p)) for size in (3, 4) for p in range(size)
            for idx in itertools.combinations_with_replacement(range(held), p)]


_OPTIONS = np.full((_MAX_CAND + 1, len(_option_table(_MAX_CAND)), 5), -1, np.int64)
_N_OPTIONS = np.zeros((_MAX_CAND + 1, 2), np.int64)  # rows for max_size 3 (first), for 4
for _n in range(_MAX_CAND + 1):
    _rows = _option_table(_n)
    _OPTIONS[_n, :len(_rows)] = _rows
    _N_OPTIONS[_n] = sum(r[0] == 3 for r in _rows), len(_rows)

_RUNS = np.array([A.run_cards(i) for i in range(4 * A.RUN_STARTS)], np.int64)
PURE_OPTIONS = NUM_KINDS + len(_RUNS)  # tunnela of each kind, then each run: action order


@jit_norc
def fit(a, b, c, d, n, size, ace_high):
    """Whether the ``n`` (at most 4) natural cards ``a, b, c, d`` can be completed by wilds
    into a (dirty) trial or sequence of ``size`` cards: a trial is one rank in different suits,
    a sequence one suit, distinct ranks inside one window of ``size`` ranks, ace low or (with
    ``ace_high``) high, never round the corner. A printed joker is never natural."""
    if n == 0:
        return True
    cards = (a, b, c, d)
    r0 = cards[0] % NUM_RANKS
    s0 = cards[0] // NUM_RANKS
    one_rank = one_suit = True
    for i in range(n):
        if cards[i] == JOKER:
            return False
        one_rank = one_rank and cards[i] % NUM_RANKS == r0
        one_suit = one_suit and cards[i] // NUM_RANKS == s0
        for j in range(i):
            if cards[i] % NUM_RANKS == cards[j] % NUM_RANKS and (
                not one_rank or cards[i] // NUM_RANKS == cards[j] // NUM_RANKS
            ):
                return False  # a rank twice in a sequence, or a card twice in a trial
    if one_rank:
        return True
    if not one_suit:
        return False
    for high in range(2 if ace_high else 1):
        lo, hi = 99, -1
        for i in range(n):
            r = cards[i] % NUM_RANKS
            if r == 0 and high:
                r = NUM_RANKS
            lo, hi = min(lo, r), max(hi, r)
        if hi - lo <= size - 1:
            return True
    return False


@jit_norc
def wilds_only(w, max_size):
    """Whether ``w`` wild cards alone split (groups of 3, or 3-4 with ``max_size=4``)."""
    if max_size == 3:
        return w % 3 == 0
    return w != 1 and w != 2 and w != 5


@jit_norc
def _lowest(nat, w):
    """The lowest natural kind held (-1 if none), the number of natural cards, and the state
    ``(nat, w)`` packed exactly into two non-negative words (counts 0..3: 2 bits a kind)."""
    first, total, k0, k1 = -1, 0, 0, np.int64(w) << 44
    for k in range(NUM_KINDS):
        if nat[k]:
            if first < 0:
                first = k
            total += nat[k]
            if k < _KINDS_WORD0:
                k0 |= np.int64(nat[k]) << (2 * k)
            else:
                k1 |= np.int64(nat[k]) << (2 * (k - _KINDS_WORD0))
    return first, total, k0, k1


@jit_norc
def _failed_slot(failed, k0, k1):
    """Where state ``(k0, k1)`` is or would go in the table of states known not to split:
    ``(slot, found)``. Open addressing over ``_PROBES`` slots; a full run of probes reuses its
    first slot (the table is a cache: forgetting a failure costs time, never an answer)."""
    h = (k0 ^ (k0 >> 29) ^ (k1 * 3) ^ (k1 >> 23)) & (failed.shape[0] - 1)
    for i in range(_PROBES):
        slot = (h + i) & (failed.shape[0] - 1)
        if failed[slot, 0] == k0 and failed[slot, 1] == k1:
            return slot, True
        if failed[slot, 0] < 0:
            return slot, False
    return h, False


@jit_norc
def _move(nat, row, sign):
    """Add ``sign`` to the counts of the natural cards of ``row`` (a ``rec`` row); whether
    every count stays >= 0 (the cards are held)."""
    held = True
    for x in range(row[4]):
        nat[row[x]] += sign
        held = held and nat[row[x]] >= 0
    return held


@jit_norc
def solve(nat, w, max_size, ace_high, rec, failed):
    """Whether natural counts ``nat`` (0..3 each) plus ``w`` wilds split into combinations of 3
    to ``max_size`` cards; the split found is in the first rows of ``rec`` (see the module
    docstring; at least ``cards // 3 + 2`` rows), a row with ``-1`` naturals after it.
    ``failed``: states known not to split under these rules (``FAILED_SLOTS`` rows of -1 to
    start; kept between calls, it spares the search every path to a dead end it has met).
    ``nat`` is changed during the search and restored."""
    depth = 0
    fresh = True  # first visit of this depth's state (else resuming after a dead end)
    while True:
        first, total, k0, k1 = _lowest(nat, w)
        row = rec[depth]
        held, o, end = 0, 0, 0
        if first < 0 or (max_size == 3 and (total + w) % 3):
            if first < 0 and wilds_only(w, max_size):
                row[4] = -1
                for k in range(depth):
                    _move(nat, rec[k], 1)
                return True
        elif not (fresh and _failed_slot(failed, k0, k1)[1]):
            if fresh:
                row[_NEXT] = 0
                for i in range(_NCAND[first]):
                    c = _CAND[first, i]
                    if nat[c] > (c == first):
                        row[_HELD + 1 + held] = c
                        held += 1
                row[_HELD] = held
            held, o = row[_HELD], row[_NEXT]
            end = _N_OPTIONS[held, max_size - 3]
        while o < end:
            size, partners = _OPTIONS[held, o, 0], _OPTIONS[held, o, 1]
            o += 1
            extra = size - 1 - partners
            if extra > w:
                continue
            row[0], row[4], row[5], row[_NEXT] = first, partners + 1, extra, o
            for x in range(3):
                i = _OPTIONS[held, o - 1, 2 + x]
                row[1 + x] = row[_HELD + 1 + i] if i >= 0 else -1
            if not _move(nat, row, -1):
                _move(nat, row, 1)
                continue
            tunnela = size == 3 and partners == 2 and first == row[1] and first == row[2]
            if tunnela or fit(row[0], row[1], row[2], row[3], partners + 1, size, ace_high):
                break
            _move(nat, row, 1)
        else:
            if end:  # searched, and nothing splits: remember the state
                slot, known = _failed_slot(failed, k0, k1)
                if not known:
                    failed[slot, 0], failed[slot, 1] = k0, k1
            if depth == 0:
                return False
            depth -= 1  # resume the previous combination's next option
            _move(nat, rec[depth], 1)
            w += rec[depth, 5]
            fresh = False
            continue
        w -= extra
        depth += 1
        fresh = True


@jit_norc
def naturals(counts, wild, nat):
    """Copy count vector ``counts`` into ``nat`` with the ``wild`` kinds (a flag per kind) left
    out; the number of wild cards, or -1 if a count is outside 0..3."""
    w = 0
    for k in range(NUM_KINDS):
        c = counts[k]
        if c < 0 or c > 3:
            return -1
        nat[k] = 0 if wild[k] else c
        w += c if wild[k] else 0
    return w


@jit_norc
def split(counts, wild, max_size, ace_high, nat, rec, failed):
    """:func:`solve` for count vector ``counts`` (see :func:`naturals`): 1 if it splits (the
    split in ``rec``), 0 if not, -1 if a count is outside 0..3."""
    w = naturals(counts, wild, nat)
    if w < 0:
        return -1
    return 1 if solve(nat, w, max_size, ace_high, rec, failed) else 0


@jit_norc
def closing(counts, wild, max_size, ace_high, nat, rec, failed, out):
    """The finishing discards of ``counts`` (see :func:`naturals`): ``out[k] = 1`` for each
    held kind ``k`` whose discard leaves a split, else 0; False if a count is outside 0..3.
    One search answers for every wild kind held: wilds are interchangeable."""
    w = naturals(counts, wild, nat)
    if w < 0:
        return False
    wild_ok = w > 0 and solve(nat, w - 1, max_size, ace_high, rec, failed)
    for k in range(NUM_KINDS):
        out[k] = 0
        if counts[k] and wild[k]:
            out[k] = wild_ok
        elif counts[k]:
            nat[k] -= 1
            out[k] = solve(nat, w, max_size, ace_high, rec, failed)
            nat[k] += 1
    return True


@jit_norc
def _pure_move(hand, o, sign, ace_high):
    """Take (``sign=-1``) or put back pure option ``o`` (a tunnela of kind ``o``, else run
    ``o - NUM_KINDS``); on taking, whether it was held (else nothing changes)."""
    if o < NUM_KINDS:
        if sign < 0 and hand[o] < 3:
            return False
        hand[o] += 3 * sign
        return True
    i = o - NUM_KINDS
    a, b, c = _RUNS[i, 0], _RUNS[i, 1], _RUNS[i, 2]
    if sign < 0 and not (hand[a] and hand[b] and hand[c]
                         and (ace_high or i % A.RUN_STARTS != A.RUN_STARTS - 1)):
        return False
    hand[a] += sign
    hand[b] += sign
    hand[c] += sign
    return True


@jit_norc
def _pure_has(o, card):
    """Whether pure option ``o`` holds kind ``card``."""
    if o < NUM_KINDS:
        return o == card
    i = o - NUM_KINDS
    return _RUNS[i, 0] == card or _RUNS[i, 1] == card or _RUNS[i, 2] == card


@jit_norc
def _held_pure(hand, ace_high, options):
    """Write the pure options held in ``hand`` into ``options``; how many. Taking cards out
    never makes another one held, so a search need look at no other."""
    n = 0
    for o in range(PURE_OPTIONS):
        if _pure_move(hand, o, -1, ace_high):
            _pure_move(hand, o, 1, ace_high)
            options[n] = o
            n += 1
    return n


@jit_norc
def _complete(hand, need, must, ace_high, options, n, stack):
    """:func:`can_complete` over the first ``n`` ``options`` (all the options held)."""
    if need == 0:
        return must < 0
    depth = 0
    stack[0] = 0  # next index into options to try at this depth; taken in ascending order
    while depth >= 0:
        i = stack[depth]
        while i < n and not _pure_move(hand, options[i], -1, ace_high):
            i += 1
        if i == n:
            depth -= 1
            if depth >= 0:
                _pure_move(hand, options[stack[depth] - 1], 1, ace_high)
            continue
        stack[depth] = i + 1
        if depth + 1 < need:
            depth += 1
            stack[depth] = i  # the same run may be laid twice (three decks)
            continue
        done = must < 0
        for x in range(need):
            done = done or _pure_has(options[stack[x] - 1], must)
        if done:
            for x in range(need):
                _pure_move(hand, options[stack[x] - 1], 1, ace_high)
            return True
        _pure_move(hand, options[i], 1, ace_high)
    return False


@jit_norc
def can_complete(hand, need, must, ace_high, options, stack):
    """Whether ``need`` disjoint pure combinations (tunnelas, natural 3-card sequences) can be
    laid from count vector ``hand``, one holding kind ``must`` when ``must >= 0``. Scratch:
    ``options`` (``PURE_OPTIONS`` ints), ``stack`` (``need`` ints). ``hand`` is changed during
    the search and restored."""
    return _complete(hand, need, must, ace_high, options, _held_pure(hand, ace_high, options),
                     stack)


@jit_norc
def show_steps(hand, need, must, ace_high, mask, options, stack):
    """Set ``mask`` (the legal-action mask) for every pure combination in ``hand`` whose laying
    keeps a show of ``need`` combinations, one holding ``must``, reachable (scratch as for
    :func:`can_complete`)."""
    n = _held_pure(hand, ace_high, options)
    for i in range(n):
        o = options[i]
        _pure_move(hand, o, -1, ace_high)
        left = -1 if _pure_has(o, must) else must
        if _complete(hand, need - 1, left, ace_high, options, n, stack):
            mask[A.SHOW_TUNNELA + o] = 1
        _pure_move(hand, o, 1, ace_high)
