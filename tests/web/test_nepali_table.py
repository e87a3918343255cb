"""Nepali Marriage at the human table: every seat's view through a whole seeded game, the
tiplu shown to exactly the seats whose observation holds it, a terminal game to its end and
the web game view."""

import io

import numpy as np
import pytest

import taas.envs
from taas.cli import main
from taas.envs.marriage_nepali.observation import LAYOUT
from taas.play.session import HUMAN, Session

ENV = "marriage_nepali_v0"


def labels(facts: list[dict]) -> list[str]:
    return [f["label"] for f in facts]


@pytest.mark.parametrize("seed", [1, 2])
def test_every_view_of_a_whole_game_shows_the_tiplu_only_to_seats_that_know_it(seed):
    session = Session(ENV, {}, seed, ["heuristic"] * 4)
    observer = taas.envs.make(ENV, wrapped=False).observer
    saw_private = saw_hidden = 0
    while True:
        public = session.view(None)["facts"]
        assert "tiplu card" not in labels(public) or session.over
        for seat in range(4):
            view = session.view(seat)
            knows = observer.encode(session.state, seat)[LAYOUT["tiplu"]].any()
            private = view["facts"][len(public):]
            assert view["facts"][:len(public)] == public  # the public table is the same for all
            if session.over:
                assert private == []
            elif knows:
                assert labels(private) == ["tiplu", "my maal"]
                assert private[0]["cards"] == [int(session.state.tiplu)]
                assert set(view["wild"]) >= {int(session.state.tiplu)}
                saw_private += 1
            else:
                assert private == [] and "wild" not in view
                saw_hidden += session.state.tiplu >= 0
        if session.over:
            break
        session.agent_move()
    assert saw_private and saw_hidden  # both kinds of seat were met in this game
    report = session.view(0)["rounds"]
    assert len(report) == 1 and report[0]["title"].startswith("deal 1: ")
    assert "tiplu card" in labels(session.view(None)["facts"])  # revealed at the end
    sheet = session.score_sheet()
    assert sum(sheet["rows"][0]) == 0 and np.isclose(sum(sheet["totals"]), 0)  # zero-sum


def test_a_person_plays_a_nepali_round_at_the_terminal(monkeypatch, capsys):
    agents = [HUMAN, "heuristic", "heuristic", "heuristic"]
    session, answers = Session(ENV, {}, 3, agents), []
    while not session.over:
        if session.current == 0:
            choice = session.view(0)["actions"][-1]
            answers.append(choice["name"])
            session.play(0, choice["id"])
        else:
            session.agent_move()
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(a + "\n" for a in answers)))
    argv = ["play", ENV, "--human", "0", "--agents", "heuristic,heuristic,heuristic",
            "--seed", "3"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "=== player_0 (you) to move: marriage_nepali_v0" in out and "status" in out
    assert out.strip().splitlines()[-1].startswith("final: ")


def test_the_web_table_serves_every_seat_of_a_nepali_game(client):
    made = client.post("/api/games", json={"env_id": ENV, "agents": [HUMAN, "heuristic",
                                                                     "heuristic", "heuristic"]})
    assert made.status_code == 201, made.text
    game = made.json()
    mine = client.get(f"/api/games/{game['id']}", headers={"X-Seat-Token": game["tokens"]["0"]})
    assert mine.status_code == 200, mine.text
    assert len(mine.json()["hand"]) == 21
    assert client.get(f"/api/games/{game['id']}").status_code == 200  # a spectator


def test_a_nepali_session_at_the_table_keeps_a_sheet_of_every_deal():
    rules = {"episode": "match", "num_rounds": 3}
    session = Session(ENV, rules, 5, ["heuristic"] * 4)
    dealers = set()
    while not session.over:
        dealers.add(session.state.dealer)
        facts = {f["label"]: f.get("text") for f in session.view(None)["facts"]}
        assert facts["deal"] == str(session.state.rounds_played + 1)
        session.agent_move()
    sheet = session.score_sheet()
    assert len(sheet["rows"]) == 3 and len(session.round_reports()) == 3
    assert [sum(r) for r in sheet["rows"]] == [0, 0, 0]  # every deal settles zero-sum
    assert np.allclose(np.sum(sheet["rows"], axis=0), sheet["totals"])  # totals = the rows
    assert len(dealers) == 3  # the deal rotated


def test_taas_play_prints_a_nepali_session_in_net_points(capsys):
    assert main(["play", ENV, "--agents", "heuristic,heuristic,heuristic", "--rounds", "2",
                 "--seed", "1"]) == 0
    out = capsys.readouterr().out
    table = out[out.index("net points per deal (highest total wins)"):].splitlines()
    assert table[1].split()[:4] == ["seat", "agent", "r1", "r2"]
