"""PIMC's world loop for Mariage, compiled: deal a world, play every candidate move out in it
with the rule-of-thumb player, add up the deal's game points (the numba subset of Python,
:mod:`taas.envs.core.jit`).

Why compiled: a world costs one playout per legal move, and in Python a playout (0.15 ms) is
almost all of a search's time, so at 0.2 s a decision the search saw some 230 worlds. Here the
engine's deal state is one int64 array (:data:`FIELDS`), the player is the rules of
:func:`taas.envs.mariage.rollout_player._choose` move for move (a test plays both on the same
positions), and random numbers come from a xorshift generator whose one word is saved and
restored, so every move meets the same random numbers in a world (common random numbers).

The kernel keeps only what the deal's outcome needs: no record of moves, no known cards or
voids (the player reads neither). It plays deal episodes (the default ``episode="deal"``);
:func:`worlds` answers None for match episodes, whose playouts go on into the next deal, and
the search then takes the Python path. Without numba, too: the kernel as plain Python would be
slower than the Python playout it replaces.
"""

from __future__ import annotations

import numpy as np

from taas.envs.core.jit import HAVE_NUMBA, jit_norc
from taas.envs.mariage.actions import (
    CLAIM,
    CLOSE,
    EXCHANGE,
    MARRY,
    NUM_CARDS,
    POINTS,
    STRENGTH,
    SUIT,
)
from taas.envs.mariage.rollout_player import NOISE as PLAYOUT_NOISE
from taas.envs.mariage.rules import _PAIR, _SEVEN, _SUIT_BITS, LAST_TRICK_BONUS, TRICKS, WIN_SCORE

# the deal state: one int64 array; per-player fields take two slots (player 0, then 1)
(HAND, PLAYED, TRICK_POINTS, BONUS, TRICKS_WON, MARRIAGE_POINTS) = range(0, 12, 2)
(TRUMP, PHASE, TO_MOVE, LEAD, MARRIAGE_SUIT, CLOSED_BY, NO_TRICK_AT_CLOSE, DEALER, TURNS,
 WINNER, GAME_POINTS, TALON_LEN, TALON) = range(12, 25)
FIELDS = TALON + NUM_CARDS - 12  # the talon is at most the 20 cards left after the deal
# the rules as an int64 array, in this order
(EXCHANGE_REQUIRES_TRICK, EXCHANGE_MIN_FACEDOWN, MARRIAGES_IN_CLOSED_PHASE, MUST_HEAD_TRICK,
 FALSE_CLAIM_POINTS, CLOSING_PENALTY, CLOSING_PENALTY_NO_TRICK, LAST_TRICK, REWARD_POINTS,
 MAX_TURNS, NOISE) = range(11)
_LEAD, _MARRIAGE, _FOLLOW, _OVER = 0, 1, 2, 3  # :class:`taas.envs.mariage.rules.Phase`

_ALL = np.int64((1 << NUM_CARDS) - 1)
_POINTS = np.array(POINTS, np.int64)
_STRENGTH = np.array(STRENGTH, np.int64)
_SUIT = np.array(SUIT, np.int64)
_ABOVE = np.array(TRICKS.above, np.int64)
_SUITS = np.array(_SUIT_BITS, np.int64)
_PAIRS = np.array(_PAIR, np.int64)
_SEVENS = np.array(_SEVEN, np.int64)
_PARTNER = np.array([c + 1 if c % 8 == 2 else c - 1 if c % 8 == 3 else -1
                     for c in range(NUM_CARDS)], np.int64)  # K <-> Q of a suit, else -1
CHUNK = 16  # worlds a kernel call deals between two looks at the clock


# ---- random numbers ------------------------------------------------------------------------
@jit_norc
def _next(rng):
    x = rng[0]
    x ^= x << np.uint64(13)
    x ^= x >> np.uint64(7)
    x ^= x << np.uint64(17)
    rng[0] = x
    return x


@jit_norc
def _below(rng, n):
    """A random int in ``0 .. n - 1``."""
    return np.int64(_next(rng) >> np.uint64(33)) % n


@jit_norc
def _uniform(rng):
    return np.float64(_next(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@jit_norc
def _random_card(cards, rng):
    """A card of the mask ``cards`` (not empty), uniformly."""
    k = 0
    m = cards
    while m:
        m &= m - 1
        k += 1
    pick = _below(rng, k)
    for c in range(NUM_CARDS):
        if cards >> c & 1:
            if pick == 0:
                return c
            pick -= 1
    return -1


# ---- the engine --------------------------------------------------------------------------
@jit_norc
def _score(s, p):
    pts = s[TRICK_POINTS + p] + s[BONUS + p]
    return pts + s[MARRIAGE_POINTS + p] if s[TRICKS_WON + p] else pts


@jit_norc
def _end(s, winner, points):
    s[WINNER] = winner
    s[GAME_POINTS] = points
    s[PHASE] = _OVER


@jit_norc
def _table(s, loser):
    """Game points for beating ``loser``: 3 if it took no trick, 2 below 33, else 1."""
    if not s[TRICKS_WON + loser]:
        return 3
    return 2 if _score(s, loser) < 33 else 1


@jit_norc
def _closer_fails(cfg, s):
    c = s[CLOSED_BY]
    pts = cfg[CLOSING_PENALTY_NO_TRICK] if s[NO_TRICK_AT_CLOSE] else cfg[CLOSING_PENALTY]
    _end(s, 1 - c, pts)


@jit_norc
def _claim(cfg, s, p):
    if _score(s, p) < WIN_SCORE:
        _end(s, 1 - p, cfg[FALSE_CLAIM_POINTS])
    elif s[CLOSED_BY] == 1 - p:
        _closer_fails(cfg, s)
    else:
        _end(s, p, _table(s, 1 - p))


@jit_norc
def _played_out(cfg, s):
    c = s[CLOSED_BY]
    if c >= 0:
        if _score(s, c) < WIN_SCORE:
            _closer_fails(cfg, s)
        else:
            _end(s, c, _table(s, 1 - c))
        return
    s0, s1 = _score(s, 0), _score(s, 1)
    w = 0 if s0 > s1 else 1 if s1 > s0 else 1 - s[DEALER]
    _end(s, w, _table(s, 1 - w))


@jit_norc
def _finish_trick(cfg, s, follow):
    lead = s[LEAD]
    f = s[TO_MOVE]
    if _SUIT[follow] == _SUIT[lead]:
        w = f if _STRENGTH[follow] > _STRENGTH[lead] else 1 - f
    else:
        w = f if _SUIT[follow] == s[TRUMP] else 1 - f
    s[TRICK_POINTS + w] += _POINTS[lead] + _POINTS[follow]
    s[TRICKS_WON + w] += 1
    s[LEAD] = -1
    s[MARRIAGE_SUIT] = -1
    n = s[TALON_LEN]
    if s[CLOSED_BY] < 0 and n:
        s[HAND + w] |= np.int64(1) << s[TALON + n - 1]
        s[HAND + 1 - w] |= np.int64(1) << s[TALON + n - 2]
        s[TALON_LEN] = n - 2
    if s[HAND + w]:
        s[PHASE] = _LEAD
        s[TO_MOVE] = w
        return
    if cfg[LAST_TRICK] and s[CLOSED_BY] < 0:
        s[BONUS + w] += LAST_TRICK_BONUS
    _played_out(cfg, s)


@jit_norc
def _apply(cfg, s, action):
    """:meth:`taas.envs.mariage.rules.MariageGame._apply` on the array, for a legal move."""
    p = s[TO_MOVE]
    if action < MARRY:
        bit = np.int64(1) << action
        s[HAND + p] ^= bit
        s[PLAYED + p] |= bit
        if s[PHASE] == _FOLLOW:
            _finish_trick(cfg, s, action)
        else:
            s[LEAD] = action
            s[PHASE] = _FOLLOW
            s[TO_MOVE] = 1 - p
    elif action < EXCHANGE:
        suit = action - MARRY
        s[MARRIAGE_POINTS + p] += 40 if suit == s[TRUMP] else 20
        s[MARRIAGE_SUIT] = suit
        s[PHASE] = _MARRIAGE
    elif action == EXCHANGE:
        seven = _SEVENS[s[TRUMP]]
        indicator = s[TALON]
        s[TALON] = seven
        s[HAND + p] ^= (np.int64(1) << seven) | (np.int64(1) << indicator)
    elif action == CLOSE:
        s[CLOSED_BY] = p
        s[NO_TRICK_AT_CLOSE] = 1 if s[TRICKS_WON + 1 - p] == 0 else 0
    else:
        _claim(cfg, s, p)
    s[TURNS] += 1
    if s[TURNS] >= cfg[MAX_TURNS] and s[PHASE] != _OVER:
        _end(s, -1, 0)  # truncated: nobody scores


# ---- the rule-of-thumb player ------------------------------------------------------------
@jit_norc
def _in_pair(c, held):
    return _PARTNER[c] >= 0 and (held >> _PARTNER[c]) & 1 == 1


@jit_norc
def _keep(c, trump, held):
    v = _POINTS[c] + _STRENGTH[c] * 0.1
    if _SUIT[c] == trump:
        v += 12
    if _in_pair(c, held):
        v += 8
    return v


@jit_norc
def _min_keep(cards, trump, held):
    """The card of ``cards`` (a mask) with the least keeping value, the lowest id on ties."""
    best, low = -1, 0.0
    for c in range(NUM_CARDS):
        if cards >> c & 1:
            v = _keep(c, trump, held)
            if best < 0 or v < low:
                best, low = c, v
    return best


@jit_norc
def _max_points(cards):
    best = -1
    for c in range(NUM_CARDS):
        if cards >> c & 1 and (best < 0 or _POINTS[c] > _POINTS[best]):
            best = c
    return best


@jit_norc
def _low_key(c, trump):
    """The order of the Python rules' ``(POINTS, is trump, STRENGTH)`` as one int."""
    return _POINTS[c] * 100 + (10 if _SUIT[c] == trump else 0) + _STRENGTH[c]


@jit_norc
def _sure_points(hand, out, trump):
    """:func:`taas.envs.mariage.rollout_player._sure_points`."""
    pts = wins = 0
    both = _SUITS[trump] & (hand | out)
    for c in range(NUM_CARDS):
        if both >> c & 1:
            if not hand >> c & 1:
                break
            pts += _POINTS[c] + 2
            wins += 1
    trumps_out = out & _SUITS[trump]
    n = 0
    while trumps_out:
        trumps_out &= trumps_out - 1
        n += 1
    if wins >= n:
        side = hand & ~_SUITS[trump]
        for c in range(NUM_CARDS):
            if side >> c & 1 and not out & _ABOVE[c]:
                pts += _POINTS[c] + 2
    return pts


@jit_norc
def _choose(cfg, s, rng):
    """:func:`taas.envs.mariage.rollout_player._choose`, rule for rule (one card move in
    ``cfg[NOISE]`` random; none when it is 0)."""
    p = s[TO_MOVE]
    if _score(s, p) >= WIN_SCORE:
        return CLAIM
    hand = s[HAND + p]
    n_talon = s[TALON_LEN]
    open_ = s[CLOSED_BY] < 0 and n_talon > 0
    trump = s[TRUMP]
    phase = s[PHASE]
    lead = s[LEAD]
    if phase == _FOLLOW:
        cards = hand
        if not open_:
            same = hand & _SUITS[_SUIT[lead]]
            if same:
                cards = same & _ABOVE[lead] if cfg[MUST_HEAD_TRICK] and same & _ABOVE[lead] \
                    else same
            elif hand & _SUITS[trump]:
                cards = hand & _SUITS[trump]
    elif phase == _MARRIAGE:
        cards = hand & _PAIRS[s[MARRIAGE_SUIT]]
    else:
        cards = hand
    if cfg[NOISE] and _uniform(rng) * cfg[NOISE] < 1:
        return _random_card(cards, rng)
    out = _ALL & ~(hand | s[PLAYED] | s[PLAYED + 1])
    if n_talon:
        out &= ~(np.int64(1) << s[TALON])
    held = hand | out
    if phase == _MARRIAGE:
        best = -1
        for c in range(NUM_CARDS):
            if cards >> c & 1 and (best < 0 or _STRENGTH[c] < _STRENGTH[best]):
                best = c
        return best
    if phase == _FOLLOW:
        value = _POINTS[lead]
        same = 0
        ruff = 0
        for c in range(NUM_CARDS):
            if cards >> c & 1:
                if _SUIT[c] == _SUIT[lead] and _STRENGTH[c] > _STRENGTH[lead]:
                    same |= np.int64(1) << c
                elif _SUIT[c] == trump and trump != _SUIT[lead]:
                    ruff |= np.int64(1) << c
        score = _score(s, p)
        if same | ruff:
            top = 0
            for c in range(NUM_CARDS):
                if (same | ruff) >> c & 1 and _POINTS[c] > top:
                    top = _POINTS[c]
            if score + value + top >= WIN_SCORE:
                need = WIN_SCORE - score - value  # take the trick that reaches 66, cheaply
                best, best_ok, best_keep = -1, 0, 0.0
                for group in (same, ruff):  # in the Python rules' order: heads, then ruffs
                    for c in range(NUM_CARDS):
                        if group >> c & 1:
                            ok = 1 if _POINTS[c] >= need else 0
                            kv = -_keep(c, trump, held)
                            if best < 0 or ok > best_ok or (ok == best_ok and kv > best_keep):
                                best, best_ok, best_keep = c, ok, kv
                return best
        if open_:
            free = 0
            for c in range(NUM_CARDS):
                if same >> c & 1 and not _in_pair(c, held):
                    free |= np.int64(1) << c
            if free:
                return _max_points(free)
            if value >= 10:
                cheap = 0
                for c in range(NUM_CARDS):
                    if ruff >> c & 1 and _POINTS[c] < 10 and not _in_pair(c, held):
                        cheap |= np.int64(1) << c
                if cheap:
                    return _min_keep(cheap, trump, held)
            return _min_keep(cards, trump, held)
        if same:
            return _max_points(same)
        if ruff:
            best = -1
            for c in range(NUM_CARDS):
                if ruff >> c & 1 and (best < 0 or _STRENGTH[c] < _STRENGTH[best]):
                    best = c
            return best
        best = -1
        for c in range(NUM_CARDS):
            if cards >> c & 1:
                if best < 0:
                    best = c
                    continue
                if _low_key(c, trump) < _low_key(best, trump):
                    best = c
        return best
    if open_:
        seven = _SEVENS[trump]
        if (hand >> seven & 1 and n_talon - 1 >= cfg[EXCHANGE_MIN_FACEDOWN]
                and (s[TRICKS_WON + p] or not cfg[EXCHANGE_REQUIRES_TRICK])):
            return EXCHANGE
    if open_ or cfg[MARRIAGES_IN_CLOSED_PHASE]:
        if hand & _PAIRS[trump] == _PAIRS[trump]:
            return MARRY + trump
        for u in range(4):
            if hand & _PAIRS[u] == _PAIRS[u]:
                return MARRY + u
    if open_:
        if _score(s, p) + _sure_points(hand, out, trump) >= WIN_SCORE:
            return CLOSE
        return _min_keep(cards, trump, held)
    trumps_out = out & _SUITS[trump]
    master_trumps = 0
    side = 0
    for c in range(NUM_CARDS):
        if cards >> c & 1 and not out & _ABOVE[c]:
            if _SUIT[c] == trump:
                master_trumps |= np.int64(1) << c
            else:
                side |= np.int64(1) << c
    if master_trumps and (trumps_out or not side):
        for c in range(NUM_CARDS):  # the strongest: the lowest id of the suit
            if master_trumps >> c & 1:
                return c
    if side and not trumps_out:
        best = -1
        for c in range(NUM_CARDS):
            if side >> c & 1 and (best < 0 or _POINTS[c] > _POINTS[best]
                                  or (_POINTS[c] == _POINTS[best]
                                      and _STRENGTH[c] > _STRENGTH[best])):
                best = c
        return best
    return _min_keep(cards, trump, held)


@jit_norc
def playout_value(cfg, s, player, rng):
    """Play the deal in ``s`` out in place; ``player``'s game points from it (lost: negative)."""
    while s[PHASE] != _OVER:
        _apply(cfg, s, _choose(cfg, s, rng))
    if s[WINNER] < 0:
        return 0.0
    pts = s[GAME_POINTS] if cfg[REWARD_POINTS] else 1
    return np.float64(pts if s[WINNER] == player else -pts)


# ---- worlds ----------------------------------------------------------------------------------
@jit_norc
def deal_world(root, world, player, pool, need, known, voids, hands, cum, rng):
    """``world`` := ``root`` with the opponent's unknown cards and the talon under its indicator
    dealt from ``pool``: uniformly (``need`` cards, none of a suit in ``voids``, added to
    ``known``) when ``hands`` is empty, else the opponent holding ``hands[i]`` drawn with the
    cumulative weights ``cum`` (``hands[i] < 0``: a guess the table refutes, dealt uniformly)."""
    for i in range(FIELDS):
        world[i] = root[i]
    opp = 1 - player
    hand = -1
    if hands.shape[0]:
        u = _uniform(rng)
        i = 0
        while i < hands.shape[0] - 1 and cum[i] <= u:
            i += 1
        hand = hands[i]
    if hand < 0:
        allowed = pool & ~voids
        hand = known
        for _ in range(need):  # ``need`` distinct cards of ``allowed``, uniformly
            bit = np.int64(1) << _random_card(allowed, rng)
            hand |= bit
            allowed &= ~bit
    world[HAND + opp] = hand
    n = world[TALON_LEN]
    if n:
        rest = pool & ~hand
        k = 1
        for c in range(NUM_CARDS):
            if rest >> c & 1:
                world[TALON + k] = c
                k += 1
        for i in range(n - 1, 1, -1):  # Fisher-Yates over talon[1:]
            j = 1 + _below(rng, i)
            world[TALON + i], world[TALON + j] = world[TALON + j], world[TALON + i]


@jit_norc
def pimc_chunk(cfg, root, player, moves, pool, need, known, voids, hands, cum, worlds, rng,
               totals, world, scratch):
    """Add ``player``'s value after each of ``moves`` in ``worlds`` fresh worlds to ``totals``,
    every move of a world with the same random numbers."""
    for _ in range(worlds):
        deal_world(root, world, player, pool, need, known, voids, hands, cum, rng)
        start = rng[0]
        for j in range(moves.shape[0]):
            rng[0] = start
            for i in range(FIELDS):
                scratch[i] = world[i]
            _apply(cfg, scratch, moves[j])
            totals[j] += playout_value(cfg, scratch, player, rng)


# ---- the search's hook ---------------------------------------------------------------------
def config_array(cfg, noise: int) -> np.ndarray:
    """The rules (a :class:`taas.envs.mariage.config.Config`) as the kernel reads them, and
    the playout's noise (one card move in ``noise`` random, none at 0)."""
    return np.array([cfg.exchange_requires_trick, cfg.exchange_min_facedown,
                     cfg.marriages_in_closed_phase, cfg.must_head_trick, cfg.false_claim_points,
                     cfg.closing_penalty, cfg.closing_penalty_no_trick, cfg.last_trick_bonus,
                     cfg.reward == "points", cfg.max_turns, noise], np.int64)


def state_array(state) -> np.ndarray:
    """A :class:`taas.envs.mariage.rules.MariageState`'s deal as the kernel's array."""
    s = np.zeros(FIELDS, np.int64)
    for base, pair in ((HAND, state.hands), (PLAYED, state.played),
                       (TRICK_POINTS, state.trick_points), (BONUS, state.bonus),
                       (TRICKS_WON, state.tricks), (MARRIAGE_POINTS, state.marriage_points)):
        s[base], s[base + 1] = pair
    s[TRUMP:TURNS + 1] = (state.trump, int(state.phase), state.to_move, state.lead,
                          state.marriage_suit, state.closed_by, state.no_trick_at_close,
                          state.dealer, state.turns)
    s[WINNER] = -1
    s[TALON_LEN] = len(state.talon)
    s[TALON:TALON + len(state.talon)] = state.talon
    return s


def worlds(game, state, player: int, moves: list[int], deal, within, rng: np.random.Generator):
    """PIMC's world loop for ``deal`` compiled: ``(totals, worlds)``, the summed value of each
    of ``moves`` over as many worlds as ``within`` allows; None where the kernel does not
    apply (no numba, a match episode, a determinizer it does not know, a hand-built position
    whose unseen cards do not fill the opponent's hand and the talon), and the search then
    runs its Python loop. ``deal`` is :func:`.determinize.determinize` or the
    :class:`.inference.Inference` sampler, whose weighted opponent hands it reads."""
    from taas.envs.mariage.determinize import determinize, unseen  # both build on this module
    from taas.envs.mariage.inference import fits

    cfg = game.config
    hands = getattr(deal, "hands", None)
    if not HAVE_NUMBA or cfg.episode != "deal" or (deal is not determinize and hands is None):
        return None
    opp = 1 - player
    pool = unseen(state, player)
    known, voids = state.known[opp], state.voids[opp]
    need = state.hands[opp].bit_count() - known.bit_count()
    if pool.bit_count() != need + max(len(state.talon) - 1, 0):
        return None  # a hand-built position whose cards do not add up to the pack
    if hands is None:
        hands, cum = np.zeros(0, np.int64), np.zeros(0)
    else:  # a guess the table refutes is dealt uniformly, as :func:`.inference._world` does
        hands = np.array([h if fits(state, player, h, pool) else -1 for h in hands], np.int64)
        cum = np.asarray(deal.cum, np.float64)
    root = state_array(state)
    root[HAND + opp] = 0  # what the seat cannot see never enters the kernel
    root[TALON + 1:TALON + len(state.talon)] = -1
    args = (config_array(cfg, PLAYOUT_NOISE), root, player, np.array(moves, np.int64), pool,
            need, known, voids, hands, cum)
    rng_word = np.array([rng.integers(1, 2**63)], np.uint64)
    totals = np.zeros(len(moves))
    world, scratch = np.zeros(FIELDS, np.int64), np.zeros(FIELDS, np.int64)
    n = 0
    while within(n):
        step = CHUNK if within.simulations is None else min(CHUNK, within.simulations - n)
        pimc_chunk(*args, step, rng_word, totals, world, scratch)
        n += step
    return totals, n

