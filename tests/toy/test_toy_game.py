"""A game added from its own folder: the toy High Card (``tests/toy/highcard/``) registers its
spec and gets everything a built-in game gets, with no file outside its folder edited: the
env, PettingZoo's API test, the random and search agents, a tournament, a terminal game and
the web table's game list."""

import io

import highcard
import numpy as np
import pytest
from pettingzoo.test import api_test

import taas
import taas.agents
import taas.arena
import taas.envs
from taas import tournament
from taas.cli import main
from taas.play.session import HUMAN, Session

ENV = "highcard_v0"


def test_the_toy_is_listed_and_built_like_every_game():
    assert ENV in taas.available_envs()
    assert ENV not in taas.envs.spec_for("mariage_v1").envs
    assert taas.envs.spec_for(ENV) is highcard.SPEC
    env = taas.make(ENV, hand_size=2)
    api_test(env, num_cycles=20)
    with pytest.raises(ValueError, match="hand_size"):
        taas.make(ENV, hand_size=9)


def test_random_and_search_agents_play_it_and_search_wins_more():
    assert {"random", "ismcts", "oracle"} <= set(taas.agents.available(ENV))
    assert "ppo" not in taas.agents.available(ENV)  # no model ships for it
    env = taas.make(ENV, wrapped=False)
    total = 0.0
    for seed in range(30):
        seats = [taas.agents.make("ismcts:60", ENV, seed=seed),
                 taas.agents.make("random", ENV, seed=seed + 1)]
        if seed % 2:
            seats.reverse()
        result = taas.arena.play_game(env, seats, seed=seed)
        total += result.returns[seed % 2]
    # the search follows a played card with the cheapest winner: it beats random on average
    assert total > 0


def test_a_tournament_of_the_toy(tmp_path):
    definition = tournament.define(ENV, ["random", "ismcts:20"], players=2, deals=3, seed=1)
    played, before = tournament.run(definition, tmp_path, progress=False)
    assert (played, before) == (6, 0)  # 3 deals, each with the seats both ways round
    assert len(tournament.read_games(tmp_path)) == 6


def test_a_terminal_game_of_the_toy(monkeypatch, capsys):
    session = Session(ENV, {}, 4, [HUMAN, "random"])
    answers = []
    while not session.over:
        if session.current == 0:
            first = session.view(0)["actions"][0]
            answers.append(first["name"])
            session.play(0, first["id"])
        else:
            session.agent_move()
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(a + "\n" for a in answers)))
    assert main(["play", ENV, "--human", "0", "--agents", "random", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert "=== player_0 (you) to move: highcard_v0" in out and "led" in out
    final = out.strip().splitlines()[-1]
    assert final == "final: " + "  ".join(
        f"player_{i} {r + 0.0:+g}" for i, r in enumerate(session.view()["returns"]))


@pytest.fixture
def client(tmp_path):
    """The web table over a fresh store (the same app as tests/web's, its own fixture here)."""
    pytest.importorskip("fastapi", reason="the web table needs the web extra: pip install '.[web]'")
    pytest.importorskip("httpx", reason="FastAPI's TestClient needs httpx (the dev extra)")
    from fastapi.testclient import TestClient

    from taas.web.app import create_app

    with TestClient(create_app(str(tmp_path / "games.sqlite"))) as c:
        yield c


def test_the_web_table_lists_and_plays_the_toy(client):
    listed = {g["id"]: g for g in client.get("/api/envs").json()}
    assert ENV in listed and "ismcts" in listed[ENV]["agents"]
    made = client.post("/api/games", json={"env_id": ENV, "agents": [HUMAN, "random"]})
    assert made.status_code == 201, made.text
    game = made.json()
    view = client.get(f"/api/games/{game['id']}",
                      headers={"X-Seat-Token": game["tokens"]["0"]}).json()
    assert view["env_id"] == ENV and len(view["hand"]) == 3
    assert np.isin(view["hand"], [k for k in range(1, 9)]).all()


def test_a_game_without_a_learned_player_says_so_in_one_line():
    """Every built-in game ships one; a new game need not: its ``learned`` alias, the agent
    benchmark's ``ppo`` row and a ladder asking for it each say there is none."""
    from taas.benchmarks import ladder
    from taas.benchmarks.agents import spec_for

    assert taas.envs.spec_for(ENV).learned is None
    assert "learned" not in taas.agents.available(ENV)
    with pytest.raises(ValueError, match=f"^no learned player ships for {ENV}$"):
        taas.agents.make("learned", ENV)
    assert spec_for(ENV, "ppo", "100") is None
    with pytest.raises(ValueError, match=f"no learned player ships for {ENV}"):
        ladder.run(ENV, ["random", "learned"], deals=1)
