"""Kill the server mid-game (SIGKILL, no shutdown) and start it again on the same store: the
game is where it was, and plays on exactly as a game never interrupted."""

import socket
import subprocess
import sys
import time

import pytest
from play_helpers import greedy_choice, new_game, play_to_end, seat

from taas.play.session import Session

httpx = pytest.importorskip("httpx", reason="the resume test talks HTTP through httpx")
pytest.importorskip("uvicorn", reason="taas serve needs the web extra: pip install '.[web]'")

AGENTS = ["human", "heuristic"]  # Mariage: the server starts in ~2 s (no meld kernels to load)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(db) -> tuple[subprocess.Popen, httpx.Client]:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "taas.cli", "serve", "--port", str(port), "--db", str(db)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    client = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10)
    deadline = time.monotonic() + 60
    while True:
        try:
            if client.get("/").status_code == 200:
                return proc, client
        except httpx.TransportError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            pytest.fail(f"taas serve did not start: {proc.stderr.read().decode()}")
        time.sleep(0.1)


def test_a_killed_server_resumes_the_game_where_it_was(tmp_path):
    db = tmp_path / "games.sqlite"
    proc, client = serve(db)
    try:
        game_id, tokens = new_game(client, "mariage_v1", AGENTS, seed=6)
        view = client.get(f"/api/games/{game_id}", headers=seat(tokens[0])).json()
        while view["moves"] < 5 or view["current"] != 0:  # into the game, at a person's turn
            if view["current"] == 0:
                body = {"action": greedy_choice(view)["id"]}
                client.post(f"/api/games/{game_id}/move", json=body, headers=seat(tokens[0]))
            else:
                client.post(f"/api/games/{game_id}/advance", headers=seat(tokens[0]))
            view = client.get(f"/api/games/{game_id}", headers=seat(tokens[0])).json()
    finally:
        proc.kill()  # SIGKILL: no shutdown, no flush
        proc.wait()
        client.close()
    proc, client = serve(db)
    try:
        resumed = client.get(f"/api/games/{game_id}", headers=seat(tokens[0])).json()
        assert resumed == view
        final = play_to_end(client, game_id, tokens)
    finally:
        proc.terminate()
        proc.wait()
        client.close()
    straight = Session("mariage_v1", {}, 6, AGENTS)
    while not straight.over:
        if straight.current == 0:
            straight.play(0, greedy_choice(straight.view(0))["id"])
        else:
            straight.agent_move()
    assert final == straight.view(0)
