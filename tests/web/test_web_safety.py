"""The web table against a cheat and against a flood: hidden deals, seat tokens, the operator's
agents and budgets, bounded agent compute, request limits and security headers."""

import contextlib
import json
import sqlite3
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from conftest import make_client
from play_helpers import new_game, play_to_end, seat

import taas.envs
from taas.envs.mariage.actions import KIND
from taas.play.session import Session
from taas.web.guard import SECURITY_HEADERS, Limits, too_deep

SEARCH_FIRST = [0, 1, 4, 6, 7]  # Mariage seeds whose first move is seat 0's


def answers_before_the_end(client, game_id, tokens):
    """Every answer a client can get about a game in progress, as text."""
    texts = [client.get(f"/api/games/{game_id}").text]
    texts += [client.get(f"/api/games/{game_id}", headers=seat(t)).text for t in tokens.values()]
    texts += [client.get(f"/api/games/{game_id}/replay").text,
              client.get(f"/api/games/{game_id}/frames").text,
              client.get("/").text, client.get("/api/envs").text]
    return texts


def test_the_deal_is_the_servers_secret_until_the_end(client, monkeypatch, capfd):
    import taas.web.app

    drawn = []

    def randbelow(n):  # the seed comes from secrets, and only from there
        drawn.append(n)
        return 987_654_321

    monkeypatch.setattr(taas.web.app.secrets, "randbelow", randbelow)
    r = client.post("/api/games", json={"env_id": "mariage_v1", "agents": ["human", "human"]})
    assert r.status_code == 201 and drawn == [2**63]  # too many seeds to try them all offline
    assert "seed" not in r.json() and r.json()["seed_from"] == "server"
    game_id, tokens = r.json()["id"], {int(k): v for k, v in r.json()["tokens"].items()}
    row = client.app.state.store.get(game_id)
    assert row.seed == 987_654_321 and row.seed_from == "server"
    # halfway through, nothing said about the game holds the seed, the stock or another hand
    view = client.get(f"/api/games/{game_id}").json()
    for _ in range(6):
        mover = tokens[view["current"]]
        mine = client.get(f"/api/games/{game_id}", headers=seat(mover)).json()
        client.post(f"/api/games/{game_id}/move", json={"action": mine["actions"][0]["id"]},
                    headers=seat(mover))
        view = client.get(f"/api/games/{game_id}").json()
        texts = answers_before_the_end(client, game_id, tokens)
        assert not [t for t in texts if "987654321" in t]
        row = client.app.state.store.get(game_id)
        truth = Session(row.env_id, row.rules, row.seed, row.agents, row.moves)
        stock = json.dumps([KIND[c] for c in truth.state.talon[1:]])[1:-1]  # [0]: face up
        for s in tokens:
            mine = client.get(f"/api/games/{game_id}", headers=seat(tokens[s])).json()
            assert mine["hand"] == truth.hand(s)
            other = json.dumps(truth.hand(1 - s))[1:-1]
            assert not [t for t in texts if other in t or stock in t]
    assert client.get(f"/api/games/{game_id}/replay").status_code == 409
    assert client.get(f"/api/games/{game_id}/frames").status_code == 409
    play_to_end(client, game_id, tokens)
    record = client.get(f"/api/games/{game_id}/replay").json()
    assert record["seed"] == 987_654_321 and record["seed_from"] == "server"
    out, err = capfd.readouterr()
    assert "987654321" not in out + err


def test_a_chosen_seed_only_for_one_person_and_it_is_recorded(client):
    r = client.post("/api/games", json={"env_id": "mariage_v1", "agents": ["human", "human"],
                                        "seed": 5})
    assert r.status_code == 400 and "one person" in r.json()["detail"]
    game_id, tokens = new_game(client, "mariage_v1", ["human", "heuristic"], seed=5)
    assert client.app.state.store.get(game_id).seed_from == "client"
    play_to_end(client, game_id, tokens)
    record = client.get(f"/api/games/{game_id}/replay").json()
    assert record["seed"] == 5 and record["seed_from"] == "client"


def test_render_mode_and_unknown_rules_are_not_the_clients(client, capfd):
    for rules in [{"render_mode": "human"}, {"render_mode": "ansi"}, {"nope": 1}]:
        r = client.post("/api/games", json={"env_id": "mariage_v1",
                                            "agents": ["human", "random"], "rules": rules})
        assert r.status_code == 400 and "is not a rule of mariage_v1" in r.json()["detail"]
    assert client.app.state.store.ids() == []
    out, err = capfd.readouterr()
    assert "♠" not in out + err and "trump" not in out + err


def test_tokens_travel_in_a_header_and_are_stored_hashed(client, tmp_path):
    game_id, tokens = new_game(client, "mariage_v1", ["human", "heuristic"])
    r = client.get(f"/api/games/{game_id}", params={"token": tokens[0]})
    assert r.status_code == 400 and "X-Seat-Token header, not in the URL" in r.json()["detail"]
    assert client.get(f"/api/games/{game_id}", headers=seat(tokens[0])).json()["seat"] == 0
    with sqlite3.connect(tmp_path / "games.sqlite") as db:
        stored = db.execute("SELECT * FROM games").fetchall()
    assert tokens[0] not in repr(stored)
    # a deleted game's token seats nobody any more
    assert client.delete(f"/api/games/{game_id}").status_code == 401
    assert client.delete(f"/api/games/{game_id}", headers=seat(tokens[0])).status_code == 204
    assert client.get(f"/api/games/{game_id}", headers=seat(tokens[0])).status_code == 404


def test_an_old_store_with_plain_tokens_is_upgraded(tmp_path):
    from taas.web.store import Store, token_hash

    with sqlite3.connect(tmp_path / "old.sqlite") as db:
        db.execute("CREATE TABLE games (id TEXT PRIMARY KEY, env_id TEXT NOT NULL, rules TEXT "
                   "NOT NULL, seed INTEGER NOT NULL, agents TEXT NOT NULL, tokens TEXT NOT NULL, "
                   "moves TEXT NOT NULL, created REAL NOT NULL, updated REAL NOT NULL)")
        db.execute("INSERT INTO games VALUES ('g', 'mariage_v1', '{}', 3, '[\"human\", "
                   "\"random\"]', '{\"0\": \"secret\"}', '[]', 0, 0)")
    row = Store(str(tmp_path / "old.sqlite")).get("g")
    assert row.tokens == {0: token_hash("secret")} and row.seed_from == "server"


def test_an_unusable_store_is_one_line(tmp_path):
    from taas.web.app import check_listen, create_app

    with pytest.raises(ValueError, match=r"cannot use .* as the games store"):
        create_app(str(tmp_path / "no" / "such" / "folder" / "games.sqlite"))
    for port in (0, 99999, -1):
        with pytest.raises(ValueError, match=r"expected 1\.\.65535"):
            check_listen("127.0.0.1", port)


@pytest.mark.parametrize(
    ("spec", "words"),
    [("ismcts:1000000000", "over this server's budget"),
     ("ismcts:99999s", "over this server's budget"),
     ("ismcts:3s", "over this server's budget"),
     ("oracle", "not offered"),
     ("ppo:/etc/passwd", "chosen by name"),
     ("ppo:../../models/mariage", "chosen by name"),
     ("ppo:/nonexistent.pt", "chosen by name"),
     ("genius", "unknown agent")],
)
def test_client_specs_outside_the_operators_are_refused_with_what_is_allowed(client, spec, words):
    r = client.post("/api/games", json={"env_id": "mariage_v1", "agents": ["human", spec]})
    detail = r.json()["detail"]
    assert r.status_code == 400 and words in detail, detail
    assert "allowed here: human, best, heuristic, ismcts[:1..1000 or :<=2s], learned," in detail
    assert "ppo:continental|mariage|marriage|marriage_nepali|romme" in detail
    assert "/" not in detail.replace(spec, "")  # the client's own text only, no server path


def test_the_operator_chooses_agents_and_budgets(tmp_path):
    with make_client(tmp_path, agents=["random", "ismcts"], max_think=0.5) as client:
        r = client.post("/api/games", json={"env_id": "mariage_v1",
                                            "agents": ["human", "heuristic"]})
        assert r.status_code == 400
        assert r.json()["detail"].endswith("allowed here: human, ismcts[:1..1000 or :<=0.5s], "
                                           "random")
        envs = {e["id"]: e for e in client.get("/api/envs").json()}
        assert envs["mariage_v1"]["agents"] == ["ismcts", "random"]
        assert new_game(client, agents=["human", "ismcts:0.5s"])
        assert client.post("/api/games", json={"env_id": "mariage_v1", "agents": [
            "human", "ismcts:0.6s"]}).status_code == 400
    with pytest.raises(ValueError, match="unknown agents genius"):
        make_client(tmp_path, agents=["genius"])


def test_an_alias_is_held_to_the_budget_of_what_it_stands_for(tmp_path):
    """Mariage's ``best`` is a 0.2 s search: a server allowing ``best`` with 0.1 s of thought
    refuses it, one allowing 0.5 s seats it; ``pimc:N`` counts against the simulations."""
    best = taas.envs.spec_for("mariage_v1").best
    assert best == "pimc:0.2s:infer"
    with make_client(tmp_path, agents=["best", "pimc"], max_think=0.1) as client:
        for spec in ("best", "pimc:5000", "pimc:5000:infer", "pimc:0.2s:infer"):
            r = client.post("/api/games", json={"env_id": "mariage_v1",
                                                "agents": ["human", spec]})
            assert r.status_code == 400 and "over this server's budget" in r.json()["detail"]
    with make_client(tmp_path, agents=["best", "pimc"], max_think=0.5) as client:
        assert new_game(client, agents=["human", "best"])
        r = client.post("/api/games", json={"env_id": "mariage_v1",
                                            "agents": ["human", "pimc:0.2s:cheat"]})
        assert r.status_code == 400 and "the only one is 'infer'" in r.json()["detail"]


def test_a_shipped_model_at_the_wrong_table_names_no_server_path(client):
    pytest.importorskip("torch")
    r = client.post("/api/games", json={"env_id": "mariage_v1", "agents": ["human", "ppo:romme"]})
    assert r.status_code == 400 and "'romme'" in r.json()["detail"]
    assert "/" not in r.json()["detail"] and ".pt" not in r.json()["detail"]


def thinking_games(client, count):
    """``count`` Mariage games whose search agent (at the operator's largest budget) is to
    move, with their people's tokens."""
    games = []
    for i in range(count):
        game_id, tokens = new_game(client, "mariage_v1", ["ismcts:1s", "human"],
                                   seed=SEARCH_FIRST[i % len(SEARCH_FIRST)])
        games.append((game_id, tokens[1]))
    return games


def test_fifty_maximum_budget_moves_leave_the_server_answering(tmp_path):
    limits = Limits(rate=1000, burst=10_000, games_per_client=100, workers=2, queue=8)
    with make_client(tmp_path, max_think=1.0, limits=limits) as client:
        games = thinking_games(client, 51)
        quiet_id, quiet_token = games.pop()
        assert client.get("/api/envs").status_code == 200  # every engine imported: a cold
        # first import (numba's kernels) is not what this test times

        def advance(game):
            return client.post(f"/api/games/{game[0]}/advance", headers=seat(game[1]))

        with ThreadPoolExecutor(50) as pool:
            answers = pool.map(advance, games)
            time.sleep(0.3)  # the moves are thinking or queued
            waits = []
            for _ in range(5):
                start = time.perf_counter()
                assert client.get("/api/envs").status_code == 200
                assert client.get(f"/api/games/{quiet_id}", headers=seat(quiet_token)).json()
                waits.append(time.perf_counter() - start)
            answers = list(answers)
        assert max(waits) < 1.0, waits
        status = sorted(r.status_code for r in answers)
        # 2 think and 8 wait; a move that ends early frees its slot for a late request
        assert set(status) <= {200, 503} and 10 <= status.count(200) <= 20, status
        busy = next(r for r in answers if r.status_code == 503)
        assert "busy" in busy.json()["detail"] and busy.headers["retry-after"] == "1"


def test_a_deleted_games_move_is_cancelled(tmp_path):
    limits = Limits(rate=1000, burst=10_000, workers=1, queue=1)
    with make_client(tmp_path, max_think=2.0, limits=limits) as client:
        (slow, slow_token), (queued, queued_token) = thinking_games(client, 2)
        results = {}

        def advance(name, game_id, token):
            results[name] = client.post(f"/api/games/{game_id}/advance", headers=seat(token))

        threads = [threading.Thread(target=advance, args=("slow", slow, slow_token)),
                   threading.Thread(target=advance, args=("queued", queued, queued_token))]
        threads[0].start()
        time.sleep(0.2)
        threads[1].start()
        time.sleep(0.2)
        start = time.perf_counter()
        assert client.delete(f"/api/games/{queued}", headers=seat(queued_token)).status_code == 204
        assert client.delete(f"/api/games/{slow}", headers=seat(slow_token)).status_code == 204
        for t in threads:
            t.join(10)
        assert time.perf_counter() - start < 1.0  # not the 2 s the search had
        for name in results:
            assert results[name].status_code == 409, (name, results[name].text)
            assert "cancelled" in results[name].json()["detail"]


def test_search_stops_at_the_operators_budget_whatever_its_own():
    from taas.agents.search.ismcts import limited

    session = Session("mariage_v1", {}, 0, ["ismcts:30s", "human"])
    start = time.perf_counter()
    with limited(0.2):
        session.agent_choice()
    assert time.perf_counter() - start < 1.0


def test_limits_on_bodies_depth_games_and_rate(tmp_path):
    limits = Limits(max_body=2000, max_replay=5000, games_per_client=2, max_games=3, rate=1,
                    burst=40)
    with make_client(tmp_path, limits=limits) as client:
        big = {"env_id": "mariage_v1", "agents": ["human", "random"], "rules": {"x": "y" * 3000}}
        r = client.post("/api/games", json=big)
        assert r.status_code == 413 and "2000 bytes" in r.json()["detail"]
        r = client.post("/api/replays", content=b" " * 4000 + b"[]")
        assert r.status_code == 400  # under the replay cap: read, and refused as no replay
        assert client.post("/api/replays", content=b" " * 6000).status_code == 413
        r = client.post("/api/replays", content=b"[" * 2000 + b"]" * 2000)
        assert r.status_code == 400 and "nested deeper" in r.json()["detail"]
        r = client.post("/api/games", content=b'{"rules": ' + b"[" * 600 + b"]" * 600 + b"}",
                        headers={"content-type": "application/json"})
        assert r.status_code == 400 and "nested deeper than 32" in r.json()["detail"]
        for _ in range(2):
            new_game(client)
        r = client.post("/api/games", json={"env_id": "mariage_v1", "agents": ["human", "random"]})
        assert r.status_code == 429 and "2 games" in r.json()["detail"]
        assert client.app.state.store.count() == 2
        answers = [client.get("/api/envs").status_code for _ in range(60)]
        assert 429 in answers and answers[0] == 200
        r = client.get("/api/envs")
        assert r.status_code == 429 and r.headers["retry-after"] == "1"
        assert "a second from one client" in r.json()["detail"]


def test_idle_games_expire(tmp_path):
    limits = Limits(rate=1000, burst=10_000, idle_expiry=0.5)
    with make_client(tmp_path, limits=limits) as client:
        old_id, old_tokens = new_game(client)
        time.sleep(0.7)
        new_id, _ = new_game(client)  # a new game sweeps the idle ones
        assert client.app.state.store.ids() == [new_id]
        assert client.get(f"/api/games/{old_id}", headers=seat(old_tokens[0])).status_code == 404


def test_every_answer_has_the_security_headers(client):
    for r in [client.get("/"), client.get("/static/app.js"), client.get("/api/envs"),
              client.get("/api/games/nosuch"), client.post("/api/games", content=b"[" * 100)]:
        for name, value in SECURITY_HEADERS.items():
            assert r.headers[name] == value, (r.url, name)
    assert "frame-ancestors 'none'" in SECURITY_HEADERS["content-security-policy"]


@pytest.mark.parametrize(("text", "deep"), [(b'{"a": [1, {"b": []}]}', False),
                                            (b'["[[[[[[", "{{{{{{{{{"]', False),
                                            (b'[[[[[[]]]]]]', True), (b'"\\"[[[[[["', False)])
def test_depth_counts_brackets_outside_strings(text, deep):
    assert too_deep(text, 5) == deep


def test_parse_seconds():
    from taas.web.app import parse_seconds

    assert parse_seconds("2s") == 2.0 and parse_seconds("0.5") == 0.5
    for bad in ["0s", "-1", "inf", "x", "", "nan"]:
        with pytest.raises(ValueError, match="expected seconds"):
            parse_seconds(bad)


def test_sigterm_stops_a_thinking_server_within_seconds(tmp_path):
    """Agents at a 30 s budget are thinking when SIGTERM comes: the server is gone in a few."""
    import signal
    import subprocess
    import sys

    httpx = pytest.importorskip("httpx")
    from test_web_resume import free_port

    port, db = free_port(), tmp_path / "games.sqlite"
    code = (f"from taas.web.app import serve; from taas.web.guard import Limits; "
            f"serve({str(db)!r}, port={port}, max_think=30, limits=Limits(workers=2, queue=4))")
    proc = subprocess.Popen([sys.executable, "-c", code], stderr=subprocess.PIPE)
    client = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if client.get("/").status_code == 200:
                    break
            except httpx.TransportError:
                assert proc.poll() is None and time.monotonic() < deadline, proc.stderr.read()
                time.sleep(0.1)
        games = [new_game(client, "mariage_v1", ["ismcts:30s", "human"], seed=s)
                 for s in SEARCH_FIRST[:4]]
        threads = [threading.Thread(target=lambda g=g: _quietly(
            lambda: client.post(f"/api/games/{g[0]}/advance", headers=seat(g[1][1]))))
            for g in games]
        for t in threads:
            t.start()
        time.sleep(1.0)  # the searches are under way
        start = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=20)
        assert time.monotonic() - start < 6
    finally:
        proc.kill()
        client.close()


def _quietly(call):
    with contextlib.suppress(Exception):  # the server goes away under the request: the point
        call()


def test_a_server_dealt_game_replays_from_its_revealed_seed(client):
    from taas.arena import replay as replays

    game_id, tokens = new_game(client, "mariage_v1", ["human", "human"], seed=None)
    final = play_to_end(client, game_id, tokens)
    record = client.get(f"/api/games/{game_id}/replay").json()
    assert record["seed_from"] == "server" and record["seed"] == client.app.state.store.get(
        game_id).seed
    assert replays.replay(record, render=False).returns == final["returns"]
