"""Mariage PIMC (``pimc:N``): the solver's move once nothing is hidden, a claim at 66, its budget
forms, a game replayed from its seed, a choice blind to where the unseen cards lie, and a
playout player that plays the heuristic's moves."""

from __future__ import annotations

import numpy as np
import pytest

import taas
import taas.agents
import taas.arena
from taas.agents.heuristic.mariage import MariageHeuristicAgent
from taas.agents.search.pimc import PIMC, PIMCAgent
from taas.envs.mariage.actions import CLAIM, NUM_CARDS, parse
from taas.envs.mariage.determinize import determinize, playout
from taas.envs.mariage.endgame import solve
from taas.envs.mariage.observation import MariageObserver
from taas.envs.mariage.rollout_player import _choose

ENV = "mariage_v1"


def _deal(game, hands: list[str], indicator: str = "7H", dealer: int = 1):
    """Hands by text, the indicator face up under the rest of the pack (in id order)."""
    held = [parse(h) for h in hands]
    face_up = parse(indicator)
    rest = [c for c in range(NUM_CARDS) if c not in held[0] + held[1] + face_up]
    return game.deal_from_cards(held, face_up + rest, dealer=dealer)


def _played_to(game, rng, stop):
    """A state reached by the rule-of-thumb player on a fresh deal once ``stop`` holds, or None
    when the deal ended first."""
    s = game.new_state(rng)
    while not game.is_terminal(s) and not stop(s):
        game.apply_action(s, _choose(game.config, s, rng))
    return None if game.is_terminal(s) else s


def test_spec_offers_pimc_for_mariage_only():
    assert isinstance(taas.agents.make("pimc:5", ENV, seed=0), PIMCAgent)
    assert "pimc" in taas.agents.available(ENV)
    assert "pimc" not in taas.agents.available("romme_v1")


def test_with_the_talon_gone_it_plays_a_perfect_move():
    """Nothing is hidden: the move it picks keeps the deal's solved value."""
    game = taas.make(ENV, wrapped=False).game
    rng = np.random.default_rng(2)
    checked = 0
    while checked < 12:
        s = _played_to(game, rng, lambda s: not s.talon)
        if s is None or game.legal_mask(s).sum() < 2:
            continue
        p = game.current_player(s)
        move = taas.agents.make("pimc:3", ENV, seed=0).act_state(game, s, p)
        after = s.clone()
        game.apply_action(after, move)
        assert solve(game, after) == solve(game, s)
        checked += 1


@pytest.mark.parametrize("talon_gone", [False, True])
def test_it_claims_once_it_has_66(talon_gone):
    """Hand-built: player 0 has won 66 card points in 3 tricks, player 1 none, so a claim wins
    3 game points, the most a deal pays; playing on can only risk them."""
    game = taas.make(ENV, wrapped=False).game
    s = _deal(game, ["KS 9D 8D 7D JD QC", "AC 10C 9C 8C 7C JC"])
    s.trick_points[0], s.tricks[0] = 66, 3
    if talon_gone:
        s.talon = []
    s.mask = None
    assert game.legal_mask(s)[CLAIM]
    assert taas.agents.make("pimc:20", ENV, seed=0).act_state(game, s, 0) == CLAIM


def test_it_saves_a_marriage_from_being_split():
    """Hand-built, open phase, trumps ♥: player 0 leads holding the ♦ marriage, a low heart and
    three low spades. Leading the K or Q of ♦ breaks a 20-point pair the player may declare at
    its next lead; every world agrees the pair is worth keeping, so it leads something else."""
    game = taas.make(ENV, wrapped=False).game
    s = _deal(game, ["KD QD 7S 8S 9S 8H", "AC 10C 9C 8C 7C JC"], dealer=1)
    s.tricks[0] = 1  # a trick won already: the marriage would count at once
    s.mask = None
    move = taas.agents.make("pimc:40", ENV, seed=0).act_state(game, s, 0)
    assert move not in parse("KD QD")


def test_budget_forms():
    worlds = taas.agents.make("pimc:7", ENV, seed=0)
    assert (worlds.simulations, worlds.seconds) == (7, None)
    timed = taas.agents.make("pimc:0.05s", ENV, seed=0)
    assert (timed.simulations, timed.seconds) == (None, 0.05)
    assert taas.agents.make("pimc", ENV, seed=0).simulations == 100
    game = taas.make(ENV, wrapped=False).game
    s = game.new_state(np.random.default_rng(0))
    worlds.act_state(game, s, game.current_player(s))
    assert worlds.search.simulations == 7


@pytest.mark.parametrize("bad", ["0", "-3", "x", "0s", "fast"])
def test_bad_budgets_are_one_line_errors(bad):
    with pytest.raises(ValueError, match="budget") as err:
        taas.agents.make(f"pimc:{bad}", ENV, seed=0)
    assert "\n" not in str(err.value)


def test_a_game_replays_from_its_seeds():
    env = taas.make(ENV, wrapped=False)
    runs = []
    for _ in range(2):
        seats = [taas.agents.make("pimc:4", ENV, seed=3), taas.agents.make("heuristic", ENV)]
        runs.append(taas.arena.play_game(env, seats, seed=11).moves)
    assert runs[0] == runs[1]


def test_it_cannot_peek_at_hidden_cards():
    """Two true states that differ only in how the unseen cards lie between the opponent's hand
    and the talon give the same decision (same seed): the search never reads them."""
    game = taas.make(ENV, wrapped=False).game
    rng = np.random.default_rng(7)
    compared = 0
    while compared < 6:
        s = _played_to(game, rng, lambda s: len(s.talon) <= int(rng.integers(4, 20)))
        if s is None or not game.is_open(s):
            continue
        p = game.current_player(s)
        o = 1 - p
        free = [c for c in range(NUM_CARDS) if (s.hands[o] & ~s.known[o]) >> c & 1]
        t = s.clone()
        a, b = free[0], s.talon[-1]
        t.hands[o] = (t.hands[o] & ~(1 << a)) | (1 << b)
        t.talon = [a if c == b else c for c in t.talon]
        t.mask = None
        search = PIMC(determinize, playout=playout)
        picks = [search.search(game, state, p, np.random.default_rng(3), simulations=10)
                 for state in (s, t)]
        assert picks[0] == picks[1]
        compared += 1


def test_world_values_share_random_numbers():
    """Common random numbers: the same move in the same world scores the same, whatever moves
    are scored beside it."""
    game = taas.make(ENV, wrapped=False).game
    s = game.new_state(np.random.default_rng(4))
    p = game.current_player(s)
    moves = np.flatnonzero(game.legal_mask(s)).tolist()
    search = PIMC(determinize, playout=playout)
    for seed in range(8):
        world = determinize(game, s, p, np.random.default_rng(seed))
        together = search.move_values(game, world, p, moves, np.random.default_rng(seed))
        alone = [search.move_values(game, world, p, [m], np.random.default_rng(seed))[0]
                 for m in moves]
        assert alone == together


def test_the_playout_player_makes_the_heuristics_moves():
    """Without its random moves the playout player is the heuristic on bitmasks: playouts then
    meet, in the opponent's seat, the player that the default opponent is."""
    game = taas.make(ENV, wrapped=False).game
    observer, agent = MariageObserver(), MariageHeuristicAgent(0)
    rng = np.random.default_rng(5)
    for _ in range(200):
        s = game.new_state(rng)
        while not game.is_terminal(s):
            p = game.current_player(s)
            move = agent.act(observer.encode(s, p), game.legal_mask(s))
            assert _choose(game.config, s) == move
            game.apply_action(s, move)
