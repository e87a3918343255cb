"""A player who lays part of an opening and takes it back (``abandon``) could repeat that pair
without end in one turn (an untrained policy did, forever): ``max_abandons_per_turn`` bounds it
by truncating the round, the way ``max_turns_per_round`` bounds turns."""

import numpy as np
import pytest

import taas.envs
from taas.envs.romme import actions as A


def _opening_position(game, rng):
    """A fresh deal where the first mover, after drawing, may start an opening."""
    for _ in range(200):
        state = game.new_state(rng)
        game.apply_action(state, A.DRAW_STOCK)
        melds = [a for a in np.flatnonzero(game.legal_mask(state))
                 if game.action_to_str(a).startswith("meld")]
        if melds:
            return state, game.action_to_str(melds[0])
    pytest.skip("no opening meld in 200 deals")


def _meld_and_abandon(game, state, name):
    meld = next(a for a in np.flatnonzero(game.legal_mask(state)) if game.action_to_str(a) == name)
    game.apply_action(state, meld)
    assert game.legal_mask(state)[A.ABANDON]
    game.apply_action(state, A.ABANDON)


@pytest.mark.parametrize("limit", [0, 3, 100])
def test_one_abandon_more_than_the_limit_truncates_the_round(limit):
    game = taas.envs.make("romme_v1", wrapped=False, num_players=2,
                          max_abandons_per_turn=limit).game
    state, name = _opening_position(game, np.random.default_rng(0))
    for _ in range(limit):
        _meld_and_abandon(game, state, name)
        assert not game.is_terminal(state)
    _meld_and_abandon(game, state, name)
    assert game.is_terminal(state) and game.is_truncated(state)
    assert not game.returns(state).any()  # a truncated round scores nothing
    assert "max_abandons_per_turn" in game.render(state)


def test_the_count_starts_again_each_turn():
    game = taas.envs.make("romme_v1", wrapped=False, num_players=2,
                          max_abandons_per_turn=1).game
    state, name = _opening_position(game, np.random.default_rng(0))
    _meld_and_abandon(game, state, name)
    mover = game.current_player(state)
    discard = next(a for a in np.flatnonzero(game.legal_mask(state)) if A.DISCARD <= a < A.LAY_OFF)
    game.apply_action(state, discard)
    assert game.current_player(state) != mover and state.abandons == 0


def test_bad_limit_is_a_clear_error():
    with pytest.raises(ValueError, match="max_abandons_per_turn"):
        taas.envs.make("romme_v1", max_abandons_per_turn=-1)
