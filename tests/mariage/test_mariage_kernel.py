"""The compiled PIMC world loop for Mariage (:mod:`taas.envs.mariage.playout_kernel`): the same
rule player and engine as the Python playout, worlds that keep what the seat knows and use
nothing it cannot see, and hand-checked deal values from the rules."""

from __future__ import annotations

import numpy as np
import pytest

from taas.agents.search.ismcts import Budget
from taas.agents.search.pimc import PIMC
from taas.envs.core.jit import HAVE_NUMBA
from taas.envs.mariage import playout_kernel as K
from taas.envs.mariage.actions import CLAIM, MARRY, NUM_CARDS, parse
from taas.envs.mariage.determinize import determinize, exact, playout, unseen
from taas.envs.mariage.inference import Inference, Posterior
from taas.envs.mariage.rollout_player import _choose
from taas.envs.mariage.rules import OVER, MariageGame
from tests.mariage.mariage_helpers import game, position

pytestmark = pytest.mark.skipif(not HAVE_NUMBA, reason="the kernel runs only compiled")

FLAGGED = {"must_head_trick": True, "marriages_in_closed_phase": True, "last_trick_bonus": True,
           "exchange_requires_trick": True, "exchange_min_facedown": 2, "closing_penalty": 3,
           "closing_penalty_no_trick": 1, "false_claim_points": 1}


def _positions(g: MariageGame, games: int, seed: int):
    """Positions of rule-player games with a random legal move now and then (never a false
    claim), so that the closed phase and odd lines come up too."""
    rng = np.random.default_rng(seed)
    for _ in range(games):
        s = g.new_state(rng)
        while s.phase != OVER:
            yield s
            a = _choose(g.config, s)
            if rng.random() < 0.3:
                legal = [x for x in np.flatnonzero(g.legal_mask(s))
                         if x != CLAIM or g.score(s, s.to_move) >= 66]
                a = int(rng.choice(legal))
            g.apply_action(s, a)


@pytest.mark.parametrize("rules", [{}, FLAGGED], ids=["default", "flagged"])
def test_the_kernel_plays_the_python_rules_and_scores_the_deal_as_the_engine(rules):
    g = game(**rules)
    cfg = K.config_array(g.config, 0)
    rng = np.array([1], np.uint64)
    decisions = 0
    for s in _positions(g, 60, seed=7):
        arr = K.state_array(s)
        assert K._choose(cfg, arr, rng) == _choose(g.config, s)
        w = s.clone()
        while w.phase != OVER:
            g._apply(w, _choose(g.config, w))
        assert K.playout_value(cfg, arr, s.to_move, rng) == g.returns(w)[s.to_move]
        decisions += 1
    assert decisions > 1000


def _values(g, s, moves, n=1, deal=determinize, seed=0):
    totals, worlds = K.worlds(g, s, s.to_move, moves, deal, Budget(n, None),
                              np.random.default_rng(seed))
    assert worlds == n
    return totals / n


def test_claim_values_follow_the_scoring_table():
    """66 claimed: 1 game point, 2 if the opponent has under 33, 3 if it took no trick; a false
    claim gives the opponent 2; a claim against the opponent's close makes the closer fail (2,
    3 if the claimer had no trick when it closed)."""
    g = game()
    s = position(g, "AS TS KS QS JS 9S", "AH TH KH QH JH 9H", indicator="7C")
    s.trick_points, s.tricks = [66, 40], [3, 2]
    assert _values(g, s, [CLAIM]) == [1.0]
    s.trick_points = [66, 32]
    assert _values(g, s, [CLAIM]) == [2.0]
    s.trick_points, s.tricks = [66, 0], [4, 0]
    assert _values(g, s, [CLAIM]) == [3.0]
    s.trick_points, s.tricks = [50, 20], [3, 1]
    assert _values(g, s, [CLAIM]) == [-2.0]
    s.trick_points, s.closed_by, s.no_trick_at_close = [66, 20], 1, False
    assert _values(g, s, [CLAIM]) == [2.0]
    s.no_trick_at_close = True
    assert _values(g, s, [CLAIM]) == [3.0]


def test_a_marriage_counts_once_the_declarer_has_a_trick():
    """The trump marriage is worth 40: with a trick and 30 points its declarer reaches 70 and
    claims at once (the opponent's 10 is under 33: 2 game points); without a trick the 40 do
    not count yet, and a claim is false."""
    g = game()
    s = position(g, "KS QS 7H 8H 9H JH", "AH TH KH QH JD 9D", indicator="7S")
    s.trick_points, s.tricks = [30, 10], [1, 1]
    assert _values(g, s, [MARRY]) == [2.0]  # marry spades, then the rule player claims
    s.trick_points, s.tricks = [0, 10], [0, 1]
    g.apply_action(s, MARRY)
    assert _values(g, s, [CLAIM]) == [-2.0]


def _conserved(world, state, me):
    o = 1 - me
    talon = sum(1 << c for c in world[K.TALON:K.TALON + world[K.TALON_LEN]])
    assert world[K.HAND + me] == state.hands[me]
    assert world[K.TALON] == state.talon[0]
    held = world[K.HAND + o]
    assert held.bit_count() == state.hands[o].bit_count()
    assert state.known[o] & ~held == 0
    everything = (world[K.HAND + me] | held | talon | state.played[0] | state.played[1])
    assert everything == (1 << NUM_CARDS) - 1 and held & talon == 0
    return held


@pytest.mark.parametrize("seed", range(4))
def test_uniform_worlds_keep_what_the_seat_knows(seed):
    g = game()
    for i, s in enumerate(_positions(g, 3, seed)):
        if not g.is_open(s) or i % 3:
            continue
        me, o = s.to_move, 1 - s.to_move
        s.voids[o] = 0 if i % 2 or s.known[o] & 0xFF else 0xFF  # an invented void in spades
        pool = unseen(s, me)
        pool_ok = pool & ~s.voids[o]
        need = s.hands[o].bit_count() - s.known[o].bit_count()
        if pool_ok.bit_count() < need:
            continue
        root = K.state_array(s)
        world = np.zeros(K.FIELDS, np.int64)
        rng = np.array([seed + 1], np.uint64)
        for _ in range(20):
            K.deal_world(root, world, me, pool, need, s.known[o], s.voids[o],
                         np.zeros(0, np.int64), np.zeros(0), rng)
            held = _conserved(world, s, me)
            assert held & s.voids[o] == 0


def test_uniform_worlds_are_uniform():
    """Every unseen card lands in the opponent's hand about as often as any other."""
    g = game()
    s = position(g, "AS TS KS QS JS 9S", "AH TH KH QH JH 9H", indicator="7C")
    pool = unseen(s, 0)
    root = K.state_array(s)
    world = np.zeros(K.FIELDS, np.int64)
    rng = np.array([3], np.uint64)
    counts = np.zeros(NUM_CARDS)
    n = 20000
    for _ in range(n):
        K.deal_world(root, world, 0, pool, 6, 0, 0, np.zeros(0, np.int64), np.zeros(0), rng)
        for c in range(NUM_CARDS):
            counts[c] += world[K.HAND + 1] >> c & 1
    cards = [c for c in range(NUM_CARDS) if pool >> c & 1]
    expected = n * 6 / len(cards)  # 25 unseen cards, 6 of them dealt to the opponent
    assert np.all(np.abs(counts[cards] - expected) < 5 * np.sqrt(expected))
    assert counts[[c for c in range(NUM_CARDS) if not pool >> c & 1]].sum() == 0


def test_inferred_worlds_deal_the_weighted_hands_and_refuted_ones_uniformly():
    g = game()
    s = position(g, "AS TS KS QS JS 9S", "AH TH KH QH JH 9H", indicator="7C")
    pool = unseen(s, 0)
    hand = sum(1 << c for c in parse("AD TD KD QD JD 9D"))
    refuted = sum(1 << c for c in parse("AS TD KD QD JD 9D"))  # holds the seat's own ace
    post = Posterior([refuted, hand], np.array([0.5, 1.0]))
    totals, n = K.worlds(g, s, 0, [parse("AS")[0]], post, Budget(50, None),
                         np.random.default_rng(0))
    assert n == 50 and totals.shape == (1,)
    root = K.state_array(s)
    world = np.zeros(K.FIELDS, np.int64)
    rng = np.array([5], np.uint64)
    hands = np.array([-1, hand], np.int64)
    seen = set()
    for _ in range(200):
        K.deal_world(root, world, 0, pool, 6, 0, 0, hands, np.array([0.5, 1.0]), rng)
        seen.add(int(world[K.HAND + 1]))
        _conserved(world, s, 0)
    assert hand in seen and len(seen) > 50  # the weighted hand, and uniform ones in its place


@pytest.mark.parametrize("seed", range(3))
def test_the_opponents_hidden_cards_never_reach_the_kernel(seed):
    """Swap the opponent's unknown cards with talon cards: the values are the same."""
    g = game()
    checked = 0
    for i, s in enumerate(_positions(g, 2, seed)):
        if not g.is_open(s) or len(s.talon) < 8 or i % 2:
            continue
        o = 1 - s.to_move
        moves = np.flatnonzero(g.legal_mask(s)).tolist()
        before = _values(g, s, moves, 40, seed=seed)
        t = s.clone()
        mine = [c for c in range(NUM_CARDS) if (t.hands[o] & ~t.known[o]) >> c & 1]
        for k, c in enumerate(mine[:3]):
            d = t.talon[1 + k]
            t.hands[o] ^= (1 << c) | (1 << d)
            t.talon[1 + k] = c
        assert np.array_equal(_values(g, t, moves, 40, seed=seed), before)
        checked += 1
    assert checked >= 2


def test_the_kernel_stands_aside_where_it_does_not_apply(monkeypatch):
    s = position(game(episode="match"), "AS TS KS QS JS 9S", "AH TH KH QH JH 9H", indicator="7C")
    g = game(episode="match")
    assert K.worlds(g, s, 0, [0, 1], determinize, Budget(5, None),
                    np.random.default_rng(0)) is None
    g = game()
    assert K.worlds(g, s, 0, [0, 1], lambda *a: None, Budget(5, None),
                    np.random.default_rng(0)) is None
    monkeypatch.setattr(K, "HAVE_NUMBA", False)
    assert K.worlds(g, s, 0, [0, 1], determinize, Budget(5, None),
                    np.random.default_rng(0)) is None


def test_compiled_and_python_searches_value_moves_alike():
    """The same worlds' distribution and playout player: mean move values agree within noise."""
    g = game()
    s = g.new_state(np.random.default_rng(11))
    me = s.to_move
    moves = np.flatnonzero(g.legal_mask(s)).tolist()
    n = 1500
    compiled = _values(g, s, moves, n)
    search = PIMC(determinize, playout=playout, exact=exact)
    rng = np.random.default_rng(1)
    python = np.zeros(len(moves))
    for _ in range(n):
        python += search.move_values(g, determinize(g, s, me, rng), me, moves, rng)
    python /= n
    assert np.all(np.abs(compiled - python) < 0.15), (compiled, python)


def test_pimc_takes_the_compiled_loop_for_uniform_and_inferred_worlds():
    g = game()
    s = g.new_state(np.random.default_rng(2))
    for deal in (None, Inference()):
        search = PIMC(determinize, playout=playout, exact=exact, inference=deal,
                      worlds=K.worlds)
        move = search.search(g, s, s.to_move, np.random.default_rng(0), simulations=2000)
        assert search.simulations == 2000 and g.legal_mask(s)[move]


def test_pimc_searches_every_phase_while_ismcts_still_solves():
    """Mariage's PIMC has no exact hook (its worlds play the closed phase and the end);
    ``ismcts`` keeps the solver. With the talon gone the compiled worlds still answer."""
    import taas.agents

    assert taas.agents.make("pimc:10", "mariage_v1", seed=0).search.exact is None
    assert taas.agents.make("ismcts:10", "mariage_v1", seed=0).search.exact is exact
    g = game()
    s = position(g, "AS TS KS", "AH TH KH", indicator="7C", full=False)
    s.talon = []
    s.played = [((1 << NUM_CARDS) - 1) & ~(s.hands[0] | s.hands[1]), 0]
    values = _values(g, s, [parse("AS")[0], parse("TS")[0], parse("KS")[0]], 20)
    assert values.shape == (3,)
