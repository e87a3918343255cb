"""Mariage search: the determinizer deals only what the seat cannot see, the search cannot peek,
and the endgame solver equals an exhaustive search."""

from __future__ import annotations

import numpy as np
import pytest

import taas
import taas.agents
import taas.arena
from taas.agents.search.ismcts import ISMCTS, SearchAgent
from taas.envs.mariage.actions import CLAIM, CLOSE, NUM_CARDS
from taas.envs.mariage.determinize import determinize, playout, rollout, unseen
from taas.envs.mariage.endgame import best_action, deal_value, solve

ENV = "mariage_v1"


def positions(count: int, seed: int = 0, **rules):
    """Mid-deal states reached by random play (never claiming falsely), with their game."""
    env = taas.make(ENV, wrapped=False, **rules)
    game = env.game
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        s = game.new_state(rng)
        for _ in range(int(rng.integers(0, 30))):
            if game.is_terminal(s):
                break
            legal = [a for a in np.flatnonzero(game.legal_mask(s)) if a != CLAIM]
            if not legal:
                break
            game.apply_action(s, int(rng.choice(legal)))
        if not game.is_terminal(s):
            out.append((game, s))
    return out


def _cards(mask: int) -> set[int]:
    return {c for c in range(NUM_CARDS) if mask >> c & 1}


@pytest.mark.parametrize("seed", range(4))
def test_determinizer_keeps_everything_the_seat_knows(seed):
    rng = np.random.default_rng(seed)
    for game, s in positions(60, seed=seed, allow_false_claims=False):
        p = game.current_player(s)
        o = 1 - p
        before = (list(s.hands), list(s.talon))
        d = determinize(game, s, p, rng)
        assert (s.hands, s.talon) == before, "the true state was changed"
        assert d.hands[p] == s.hands[p]
        assert d.played == s.played and d.lead == s.lead and d.trump == s.trump
        assert d.hands[o].bit_count() == s.hands[o].bit_count()
        assert d.hands[o] & s.known[o] == s.known[o], "a card known to be held was moved"
        assert not d.hands[o] & s.voids[o], "a card of a revealed void was dealt"
        assert len(d.talon) == len(s.talon)
        if s.talon:
            assert d.talon[0] == s.talon[0], "the face-up indicator moved"
        # the same unseen cards, only redistributed between the opponent and the talon
        hidden_true = (s.hands[o] & ~s.known[o]) | sum(1 << c for c in s.talon[1:])
        hidden_dealt = (d.hands[o] & ~s.known[o]) | sum(1 << c for c in d.talon[1:])
        assert hidden_dealt == hidden_true == unseen(s, p)


def test_voids_are_recorded_when_a_player_cannot_follow():
    """Closed phase, trumps ♥: the follower discards a club on a spade lead, so it holds neither
    spades nor hearts (it had to follow, else trump)."""
    from taas.envs.mariage.actions import parse

    game = taas.make(ENV, wrapped=False).game
    hands = [parse("AS KS 9D 8D 7D JD"), parse("AC KC QC JC 9C 8C")]
    rest = [c for c in range(NUM_CARDS) if c not in hands[0] + hands[1] + parse("7H")]
    s = game.deal_from_cards(hands, parse("7H") + rest, dealer=1)  # indicator 7H: trumps ♥
    game.apply_action(s, 37)  # close
    game.apply_action(s, parse("AS")[0])
    game.apply_action(s, parse("9C")[0])
    spades_hearts = sum(1 << c for c in range(NUM_CARDS) if c // 8 in (0, 1))
    assert s.voids[1] == spades_hearts
    assert s.voids[0] == 0


def test_search_cannot_peek_at_hidden_cards():
    """Two true states that differ only in how the unseen cards lie between the opponent's hand
    and the talon give the same decision (same seed): the search never reads them."""
    for game, s in positions(12, seed=7, allow_false_claims=False):
        p = game.current_player(s)
        o = 1 - p
        free = sorted(_cards(s.hands[o] & ~s.known[o] & ~s.voids[o]))
        face_down = list(s.talon[1:])
        if not free or not face_down:
            continue
        t = s.clone()
        a, b = free[0], face_down[-1]
        if (1 << b) & s.voids[o]:
            continue
        t.hands[o] = (t.hands[o] & ~(1 << a)) | (1 << b)
        t.talon = [a if c == b else c for c in t.talon]
        t.mask = None
        picks = []
        for state in (s, t):
            search = ISMCTS(determinize)
            picks.append(search.search(game, state, p, np.random.default_rng(3), simulations=40))
        assert picks[0] == picks[1]


def _exhaustive(game, s, deals_before):
    v = deal_value(s, deals_before)
    if v is not None:
        return v
    values = []
    for a in np.flatnonzero(game.legal_mask(s)):
        c = s.clone()
        game.apply_action(c, int(a))
        values.append(_exhaustive(game, c, deals_before))
    return max(values) if s.to_move == 0 else min(values)


def endgames(count: int, seed: int, cards: int = 4, **rules):
    """Positions with the talon gone and at most ``cards`` cards in the mover's hand (small
    enough for the exhaustive reference), reached by random play that never claims falsely."""
    game = taas.make(ENV, wrapped=False, **rules).game
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        s = game.new_state(rng)
        while not game.is_terminal(s) and (s.talon or s.hands[s.to_move].bit_count() > cards):
            legal = [a for a in np.flatnonzero(game.legal_mask(s))
                     if a != CLAIM and a != 37]  # no close: reach the exhausted talon
            if not legal:
                break
            game.apply_action(s, int(rng.choice(legal)))
        if not game.is_terminal(s) and not s.talon:
            out.append((game, s))
    return out


@pytest.mark.parametrize("rules", [{}, {"allow_false_claims": False},
                                   {"last_trick_bonus": True, "must_head_trick": True}])
def test_endgame_solver_equals_exhaustive_search(rules):
    for game, s in endgames(25, seed=11, **rules):
        n = len(s.results)
        expected = _exhaustive(game, s, n)
        assert solve(game, s) == expected
        move = best_action(game, s)
        after = s.clone()
        game.apply_action(after, move)
        assert _exhaustive(game, after, n) == expected


@pytest.mark.parametrize("rules", [{}, {"allow_false_claims": False},
                                   {"allow_false_claims": False, "closing_penalty": 3,
                                    "marriages_in_closed_phase": True}])
def test_endgame_solver_equals_exhaustive_search_after_a_close(rules):
    """A close leaves the talon in place: the closer must reach 66 or pay the penalty (with
    false claims allowed, a false claim's 2 points often cap the loss instead)."""
    game = taas.make(ENV, wrapped=False, **rules).game
    rng = np.random.default_rng(17)
    checked = 0
    while checked < 20:
        s = game.new_state(rng)
        close_at = int(rng.integers(0, 8))
        while not game.is_terminal(s) and game.is_open(s):
            legal = [a for a in np.flatnonzero(game.legal_mask(s)) if a != CLAIM]
            if CLOSE in legal and s.turns >= close_at:
                game.apply_action(s, CLOSE)
                break
            game.apply_action(s, int(rng.choice([a for a in legal if a != CLOSE])))
        while not game.is_terminal(s) and s.hands[s.to_move].bit_count() > 3:
            legal = [a for a in np.flatnonzero(game.legal_mask(s)) if a != CLAIM]
            game.apply_action(s, int(rng.choice(legal)))
        if game.is_terminal(s) or s.closed_by < 0:
            continue
        assert solve(game, s) == _exhaustive(game, s, len(s.results))
        checked += 1


def test_oracle_plays_the_closed_phase_on_the_true_cards():
    """Right after a close the oracle's move is the solver's on the true deal (every sample it
    solves is the truth), where ismcts solves deals of the unseen cards and sometimes differs."""
    oracle = ismcts = 0
    for game, s in positions(80, seed=13):
        if not game.legal_mask(s)[CLOSE]:
            continue
        game.apply_action(s, CLOSE)
        if game.is_terminal(s) or game.legal_mask(s).sum() < 2:
            continue
        p = game.current_player(s)
        truth = best_action(game, s)
        oracle += taas.agents.make("oracle:4", ENV, seed=0).act_state(game, s, p) != truth
        ismcts += taas.agents.make("ismcts:4", ENV, seed=0).act_state(game, s, p) != truth
    assert oracle == 0 and ismcts > 0


def test_search_agents_play_only_legal_moves():
    """The raw env raises on an illegal action, so whole games are the check."""
    env = taas.make(ENV, wrapped=False)
    for seed in range(4):
        seats = [taas.agents.make("ismcts:20", ENV, seed=seed),
                 taas.agents.make("oracle:20", ENV, seed=seed + 1)]
        taas.arena.play_game(env, seats[:: 1 if seed % 2 else -1], seed=seed)


def test_search_agent_refuses_the_observation_only_path():
    agent = taas.agents.make("ismcts:5", ENV, seed=0)
    assert isinstance(agent, SearchAgent)
    with pytest.raises(TypeError, match="play_game"):
        agent.act(np.zeros(3), np.ones(3))


@pytest.mark.parametrize("bad", ["0", "-3", "x", "0s", "fast"])
def test_bad_budgets_are_clear_errors(bad):
    with pytest.raises(ValueError, match="budget"):
        taas.agents.make(f"ismcts:{bad}", ENV, seed=0)


@pytest.mark.parametrize("rules", [{}, {"allow_false_claims": False},
                                   {"must_head_trick": True, "exchange_requires_trick": True,
                                    "exchange_min_facedown": 2,
                                    "marriages_in_closed_phase": True}])
def test_rollout_player_computes_only_legal_moves(rules):
    """The playout skips the engine's mask for speed, so its own legality must match it."""
    game = taas.make(ENV, wrapped=False, **rules).game
    rng = np.random.default_rng(5)
    for _ in range(60):
        s = game.new_state(rng)
        while not game.is_terminal(s):
            move = rollout(game, s, rng)
            assert game.legal_mask(s)[move], game.action_to_str(move)
            game.apply_action(s, move)
        t = game.new_state(rng)
        playout(game, t, rng)
        assert game.is_terminal(t) and t.mask is None


def test_rollout_player_claims_at_66_and_never_before():
    """Hand-built: player 0 has won 62 card points; a trick worth 4 takes it to 66."""
    from taas.envs.mariage.actions import parse

    game = taas.make(ENV, wrapped=False).game  # false claims legal: the player must not make them
    hands = [parse("KS 9D 8D 7D JD QC"), parse("AC 10C 9C 8C 7C JC")]
    rest = [c for c in range(NUM_CARDS) if c not in hands[0] + hands[1] + parse("7H")]
    s = game.deal_from_cards(hands, parse("7H") + rest, dealer=1)
    s.trick_points[0], s.tricks[0] = 62, 3
    rng = np.random.default_rng(0)
    assert all(rollout(game, s, rng) != CLAIM for _ in range(50))
    s.trick_points[0] = 66
    s.mask = None
    assert all(rollout(game, s, rng) == CLAIM for _ in range(50))
