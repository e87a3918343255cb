"""The table model under the terminal and the web: rebuilt exactly from its moves, strict
about whose turn it is, and showing each seat only what that seat may see."""

import json

import numpy as np
import pytest
from play_helpers import greedy_choice

from taas.arena import replay as replays
from taas.envs.core.cards import RANKS
from taas.play.session import HUMAN, Session, card_of_action

MARRIAGE = ("marriage_v1", [HUMAN, "random", "random", "random"])
MARIAGE = ("mariage_v1", [HUMAN, "heuristic"])


def play_out(session: Session, stop_after: int | None = None) -> Session:
    while not session.over and (stop_after is None or len(session.moves) < stop_after):
        if session.current in session.humans():
            session.play(session.current, greedy_choice(session.view(session.current))["id"])
        else:
            session.agent_move()
    return session


@pytest.mark.parametrize(("env_id", "agents"), [MARRIAGE, MARIAGE])
def test_rebuilt_from_its_moves_it_is_the_same_game(env_id, agents):
    straight = play_out(Session(env_id, {}, 6, agents), stop_after=9)
    rebuilt = Session(env_id, {}, 6, agents, straight.moves)
    assert rebuilt.view(0) == straight.view(0)
    # agents reseed from (seed, move number): the next moves agree as well
    play_out(straight)
    play_out(rebuilt)
    assert rebuilt.moves == straight.moves and rebuilt.view(0) == straight.view(0)


def test_a_finished_game_is_a_replay_file_the_engine_agrees_with():
    session = play_out(Session(*MARRIAGE[:1], {}, 6, MARRIAGE[1]))
    record = json.loads(json.dumps(session.record()))
    assert [a["spec"] for a in record["agents"]] == MARRIAGE[1]
    result = replays.replay(record, render=False)
    assert result.returns == session.view()["returns"]
    assert session.state.history[-1]["winner"] == 0  # the scripted player showed


def test_moves_out_of_turn_or_illegal_change_nothing():
    session = Session(*MARIAGE[:1], {}, 1, MARIAGE[1])
    play_out(session, stop_after=0)
    mover = session.current
    legal = {a["id"] for a in session.legal_actions()}
    illegal = next(a for a in range(session.game.num_actions) if a not in legal)
    before = session.view(mover)
    for seat, action in [(1 - mover, min(legal)), (mover, illegal), (mover, -1), (mover, True),
                         (mover, 10**6)]:
        with pytest.raises(ValueError):
            session.play(seat, action)
    assert session.view(mover) == before


def test_a_seat_sees_its_own_hand_and_only_counts_of_the_others():
    session = Session(*MARRIAGE[:1], {}, 3, MARRIAGE[1])
    view = session.view(0)
    hands = session.game.zones(session.state)
    assert sorted(view["hand"]) == sorted(np.repeat(np.arange(53), hands["hand_0"]).tolist())
    text = json.dumps(view)
    assert "hand_1" not in text and all("hand" not in s for s in view["seats"])
    assert [n["text"] for s in view["seats"] for n in s["notes"] if n["label"] == "cards"] == [
        "21", "21", "21", "21"
    ]
    assert "hand" not in session.view(None)  # a spectator sees no hand


def test_the_hand_is_sorted_by_suit_then_rank():
    marriage = Session(*MARRIAGE[:1], {}, 3, MARRIAGE[1]).hand(0)
    assert marriage == sorted(marriage, key=lambda k: (k // 13, k % 13))
    mariage = Session(*MARIAGE[:1], {}, 3, MARIAGE[1])
    suits = [k // 13 for k in mariage.hand(0)]
    assert suits == sorted(suits)
    order = ["A", "10", "K", "Q", "J", "9", "8", "7"]
    ranks = [order.index(RANKS[k % 13]) for k in mariage.hand(0)]
    for i in range(len(ranks) - 1):  # within a suit, A 10 K Q J 9 8 7
        if suits[i] == suits[i + 1]:
            assert ranks[i] < ranks[i + 1]


def test_marriage_melds_are_the_engines_arrangement_of_the_hand():
    session = Session(*MARRIAGE[:1], {}, 3, MARRIAGE[1])
    melds = session.melds(0)
    laid = [k for m in melds["melds"] for k in m["cards"]] + melds["deadwood"]
    assert sorted(laid) == sorted(session.hand(0))  # every card once, in a meld or not
    report = session.game.scorer(session.state).report(session.state.hands[0])
    assert melds["penalty"] == report["penalty"]


@pytest.mark.parametrize(
    ("name", "card"),
    [("discard 7H", 19), ("play 10S", 9), ("show JK", 52), ("draw", None), ("marry S", None)],
)
def test_card_of_action(name, card):
    assert card_of_action(name) == card


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("nope_v1", {}, 1, [HUMAN, "random"]), "unknown env"),
        (("mariage_v1", {}, -1, [HUMAN, "random"]), "seed"),
        (("mariage_v1", {}, 1, [HUMAN]), "seats"),
        (("mariage_v1", {"closing_penalty": 7}, 1, [HUMAN, "random"]), "closing_penalty"),
        (("mariage_v1", {}, 1, [HUMAN, "nobody"]), "unknown agent"),
    ],
)
def test_bad_tables_are_refused_with_a_reason(args, message):
    with pytest.raises(ValueError, match=message):
        Session(*args)
