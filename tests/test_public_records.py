"""No leak through a public record: whatever a seat is shown (the move log's lines, the web
game view, the terminal's table) is the same in every state that seat's observation cannot
tell apart from the true one.

At each move of seeded games the game's determinizer deals the cards the seat cannot see
anew (a state with the seat's observation, checked); the public zones the move log is made of
and the seat's view are then computed in both states and must agree. A surface that showed
another hand, the stock order or the Nepali tiplu to an unseen seat would differ."""

import numpy as np
import pytest

import taas.envs
from taas.agents.search.ismcts import determinizer
from taas.arena.moves import public_zones
from taas.play import terminal
from taas.play.session import Session

ENVS = ["continental_v1", "mariage_v1", "marriage_v1", "marriage_nepali_v0", "romme_v1"]
MOVES = 150  # per game: past the first Nepali showings and into the draws after them


def seats_of(env_id: str) -> int:
    return taas.envs.make(env_id, wrapped=False).game.num_players


def twins(env_id: str, seed: int):
    """Per move of a seeded game of random agents: (session before the move, seat to move,
    action, a seat, that seat's determinized state), the session's state being the true one."""
    session = Session(env_id, {}, seed, ["random"] * seats_of(env_id))
    game, observer = session.game, session.env.observer
    determinize = determinizer(env_id).determinize
    rng = np.random.default_rng(seed)
    while not session.over and len(session.moves) < MOVES:
        mover, action = session.current, session.agent_choice()
        for seat in range(game.num_players):
            other = determinize(game, session.state, seat, rng)
            assert observer.encode(other, seat).tobytes() == \
                observer.encode(session.state, seat).tobytes(), "the determinizer is not faithful"
            yield session, mover, action, seat, other
        session.play(mover, action)


@pytest.mark.parametrize("seed", [3, 11])
@pytest.mark.parametrize("env_id", ENVS)
def test_the_move_log_shows_a_seat_only_what_it_may_know(env_id, seed):
    """A log line is the action's name, the rewards and the changes of the public zones; so
    every public zone must be the same in every state a seat cannot tell from the true one."""
    moves = 0
    for session, _, _, seat, other in twins(env_id, seed):
        zones = {k: v.tolist() for k, v in public_zones(session.game, other).items()}
        assert zones == {k: v.tolist() for k, v in
                         public_zones(session.game, session.state).items()}, seat
        moves = len(session.moves) + 1
    assert moves > 4


@pytest.mark.parametrize("seed", [3, 11])
@pytest.mark.parametrize("env_id", ENVS)
def test_the_web_and_terminal_views_show_a_seat_only_what_it_may_know(env_id, seed):
    printer = terminal._Printer(True)
    for session, _, _, seat, other in twins(env_id, seed):
        true_state = session.env.state
        seen = session.view(seat), terminal._table(session, seat, printer)
        session.env.state = other
        try:
            assert (session.view(seat), terminal._table(session, seat, printer)) == seen, seat
        finally:
            session.env.state = true_state
