"""Search for the three rummies: every determinizer deals only what the seat cannot see, keeps
what is public (hand and stock sizes, pile cards a seat surely holds), conserves the cards,
redraws the reshuffle seed; the search cannot peek; search agents play only legal moves."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

import taas
import taas.agents
import taas.arena
from taas.agents.search.ismcts import ISMCTS, PairedSearch
from taas.envs.core.cards import NUM_KINDS

ENVS = ["continental_v1", "romme_v1", "marriage_v1"]


def module(env_id: str):
    return importlib.import_module(f"taas.envs.{env_id.split('_')[0]}.determinize")


def positions(env_id: str, count: int, seed: int, **rules):
    """Mid-round states reached by play mixing the rollout player (which takes from the pile,
    melds and lays off) with random moves, so the pile records are not empty."""
    game = taas.make(env_id, wrapped=False, num_players=3, **rules).game
    det = module(env_id)
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        s = game.new_state(rng)
        for _ in range(int(rng.integers(0, 80))):
            if game.is_terminal(s):
                break
            game.apply_action(s, det.rollout(game, s, rng))
        if not game.is_terminal(s):
            out.append((game, s))
    return out


def hidden(game, s, player: int) -> np.ndarray:
    """The cards in the other seats' hands and the stock (counts)."""
    others = sum(s.hands[q].astype(np.int64) for q in range(game.num_players) if q != player)
    return others + np.bincount(s.table.stock, minlength=NUM_KINDS)


def pile_held(s) -> np.ndarray:
    """Copies per seat and kind taken from the pile beyond those the seat discarded (an upper
    bound on what a determinizer may pin to a seat: melds and set-aside cards lower it)."""
    t = s.table
    return np.maximum(t.taken_by.astype(np.int64) - t.discarded_by.astype(np.int64), 0)


@pytest.mark.parametrize("env_id", ENVS)
def test_determinizer_deals_only_unseen_cards(env_id):
    det = module(env_id)
    rng = np.random.default_rng(1)
    moved = 0
    for game, s in positions(env_id, 25, seed=2):
        p = game.current_player(s)
        true = (s.hands.copy(), list(s.table.stock), s.table.seed)
        d = det.determinize(game, s, p, rng)
        assert (s.hands == true[0]).all() and s.table.stock == true[1], "true state changed"
        assert s.table.seed == true[2]
        assert (d.hands[p] == s.hands[p]).all()
        assert d.table.discard == s.table.discard and (d.table.pile == s.table.pile).all()
        assert d.table.first_up == s.table.first_up
        assert d.table.drawn_discard == s.table.drawn_discard
        assert (d.hands.sum(axis=1) == s.hands.sum(axis=1)).all(), "a hand size changed"
        assert len(d.table.stock) == len(s.table.stock)
        # the same unseen cards, only redistributed: nothing seen is placed anywhere hidden
        assert (hidden(game, d, p) == hidden(game, s, p)).all()
        total = sum(z.astype(np.int64) for z in game.zones(d).values())
        assert (total == game.shoe(d)).all(), "cards not conserved"
        assert d.table.seed != s.table.seed, "the reshuffle seed was kept"
        moved += not (d.hands == s.hands).all()
    assert moved >= 20, "hidden hands are hardly ever redealt"


@pytest.mark.parametrize("env_id", ENVS)
def test_cards_taken_from_the_pile_stay_with_their_taker(env_id):
    det = module(env_id)
    rng = np.random.default_rng(3)
    checked = 0
    for game, s in positions(env_id, 40, seed=4):
        p = game.current_player(s)
        held = pile_held(s)
        held[p] = 0
        if env_id == "romme_v1":  # melds do not say who laid each card: no claim beyond them
            held = np.maximum(held - det.table_cards(s), 0)
        if env_id == "marriage_v1":
            held = np.maximum(held - s.set_aside, 0)
        if not held.any():
            continue
        for _ in range(5):
            d = det.determinize(game, s, p, rng)
            assert (d.hands >= held).all(), "a card known to be held was moved"
        checked += 1
    assert checked >= 5, "too few positions with a known holding"


@pytest.mark.parametrize("env_id", ENVS)
def test_reshuffles_in_a_simulation_do_not_follow_the_true_seed(env_id):
    """Two determinizations redraw different seeds, so the first shuffle each would make
    (``table.rng()``) differs from the true one and from each other."""
    det = module(env_id)
    game, s = positions(env_id, 1, seed=5)[0]
    p = game.current_player(s)
    rng = np.random.default_rng(0)
    draws = []
    for state in (s.clone(), det.determinize(game, s, p, rng), det.determinize(game, s, p, rng)):
        draws.append(tuple(state.table.rng().permutation(50)))
    assert len(set(draws)) == 3


def _swap_hidden(game, s, player: int):
    """``s`` with one card of a hidden hand (not a pile card it surely holds) swapped with a
    stock card of another kind, or None when no such pair exists."""
    t = s.table
    for q in range(game.num_players):
        if q == player or q in getattr(s, "dead", []):
            continue
        free = s.hands[q] - pile_held(s)[q]
        for a in np.flatnonzero(free > 0):
            for i, b in enumerate(t.stock):
                if b != a:
                    u = s.clone()
                    u.hands[q, a] -= 1
                    u.hands[q, b] += 1
                    u.table.stock[i] = int(a)
                    u.mask = None
                    return u
    return None


@pytest.mark.parametrize("env_id", ENVS)
def test_search_cannot_peek_at_hidden_cards(env_id):
    """Two true states that differ only in the hidden cards give the same determinizations
    and the same seeded decision, from the registered agent (the paired search on the
    heuristic's ranking) and from the bare tree search alike."""
    det = module(env_id)
    tried = 0
    for game, s in positions(env_id, 4, seed=6):
        p = game.current_player(s)
        u = _swap_hidden(game, s, p)
        if u is None:
            continue
        a = det.determinize(game, s, p, np.random.default_rng(9))
        b = det.determinize(game, u, p, np.random.default_rng(9))
        assert (a.hands == b.hands).all() and a.table.stock == b.table.stock
        picks = []
        for state in (s, u):
            agent = taas.agents.make("ismcts:12", env_id, seed=3, config={"num_players": 3})
            assert agent.search.width == det.WIDTH
            picks.append(agent.act_state(game, state, p))
        assert picks[0] == picks[1]
        search = ISMCTS(det.determinize, det.evaluate, det.rollout, det.ROLLOUT_DEPTH)
        assert len({search.search(game, state, p, np.random.default_rng(5), simulations=12)
                    for state in (s, u)}) == 1
        tried += 1
    assert tried >= 3


@pytest.mark.parametrize("env_id", ENVS)
@pytest.mark.parametrize("spec", ["ismcts:4", "oracle:4"])
def test_search_agents_play_legal_moves(env_id, spec):
    """Whole seeded rounds against random seats: play_game raises on any illegal action."""
    env = taas.make(env_id, num_players=3, max_turns_per_round=60)
    for seed in range(2):
        agents = [taas.agents.make(spec, env_id, seed=seed),
                  taas.agents.make("random", env_id, seed=seed + 1),
                  taas.agents.make(spec, env_id, seed=seed + 2)]
        result = taas.arena.play_game(env, agents, seed=seed)
        assert result.steps > 0


def test_leaf_value_follows_the_reward():
    """The cut-short estimate in every reward: the closer seat is likelier to go out, the
    points it risks are charged by that chance, zero-sum values sum to zero, win values to 0."""
    from taas.envs.rummy.determinize import leaf_returns

    base = np.zeros(3)
    charges = np.array([50.0, 50.0, 10.0])
    distances = np.array([0.0, 5.0, np.inf])
    points = leaf_returns(base, [0, 1, 2], charges, distances, 1.0, "points")
    assert points[0] > points[1] and points[2] == -10.0
    assert points[0] == pytest.approx(-50.0 / (1 + np.exp(5.0)))
    zero = leaf_returns(base, [0, 1, 2], charges, distances, 1.0, "zero_sum")
    assert zero.sum() == pytest.approx(0.0)
    win = leaf_returns(base, [0, 1, 2], charges, distances, 1.0, "win")
    assert win.sum() == pytest.approx(0.0) and win[2] == pytest.approx(-0.5)


@pytest.mark.parametrize("env_id", ENVS)
def test_expert_ranking_starts_with_its_move(env_id):
    """The prior the search improves on: the heuristic's ranking holds distinct legal moves,
    and its first is what the heuristic plays."""
    env = taas.make(env_id, wrapped=False, num_players=3)
    ranker = taas.agents.make("heuristic", env_id, seed=0, config={"num_players": 3})
    player = taas.agents.make("heuristic", env_id, seed=0, config={"num_players": 3})
    several = 0
    for game, s in positions(env_id, 30, seed=7):
        p = game.current_player(s)
        obs, mask = env.observer.encode(s, p), game.legal_mask(s)
        ranked = ranker.ranking(obs, mask)
        assert ranked[0] == player.act(obs, mask)
        assert len(set(ranked)) == len(ranked) and all(mask[a] for a in ranked)
        several += len(ranked) > 1
    assert several >= 10


def test_paired_choice_leaves_the_expert_only_when_sure():
    """Column 0 is the expert's move: an alternative wins only by a clear mean advantage."""
    search = PairedSearch(None, None, confidence=1.0)
    noisy = np.array([[0.0, 5.0], [0.0, -4.0], [0.0, 6.0], [0.0, -5.0]])
    assert search.choose(noisy) == 0  # +0.5 on average, with a standard error of 2.9
    clear = np.array([[0.0, 1.0, 3.0], [-2.0, -1.5, 0.5], [1.0, 2.2, 3.9]])
    assert search.choose(clear) == 2
    worse = np.array([[0.0, -1.0], [1.0, 0.0], [2.0, 1.0]])
    assert search.choose(worse) == 0
    assert search.choose(np.array([[0.0, 9.0]])) == 0  # one sample says nothing


@pytest.mark.parametrize("env_id", ENVS)
def test_candidates_meet_the_same_deals_and_rollouts(env_id):
    """Common random numbers: a move paired with itself gets exactly the same value in every
    sample (same determinization, rewound rollout generator), so noise cancels in the pair."""
    det = module(env_id)
    game, s = positions(env_id, 1, seed=8)[0]
    p = game.current_player(s)
    move = int(np.flatnonzero(game.legal_mask(s))[0])
    seen = []

    def choose(values):
        seen.append(values)
        return 0

    search = PairedSearch(det.determinize, lambda g, st, q: [move, move], det.evaluate,
                          det.rollout, det.ROLLOUT_DEPTH)
    search.choose = choose
    search.search(game, s, p, np.random.default_rng(0), simulations=40)
    values = seen[0]
    assert values.shape == (20, 2) and (values[:, 0] == values[:, 1]).all()
    assert len(set(values[:, 0].tolist())) > 1, "samples should differ from each other"


def test_time_budget_bounds_the_paired_search():
    """``ismcts:0.05s`` stops sampling at its deadline (one sample, at least, always runs)."""
    import time

    agent = taas.agents.make("ismcts:0.05s", "continental_v1", seed=0)
    states = positions("continental_v1", 10, seed=9)
    game, s = states[0]
    agent.act_state(game, s, game.current_player(s))  # builds the expert and its observer
    for game, s in states[1:]:
        start = time.perf_counter()
        move = agent.act_state(game, s, game.current_player(s))
        elapsed = time.perf_counter() - start
        assert game.legal_mask(s)[move]
        if agent.search.simulations:
            assert elapsed < 0.5 and agent.search.simulations >= 3
            return
    raise AssertionError("no searched decision")
