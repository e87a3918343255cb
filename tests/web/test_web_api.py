"""Every endpoint of the web table's API, and every kind of bad request: a 4xx answer with a
one-line message, and the stored game unchanged."""

import json
import time

from play_helpers import greedy_choice, new_game, play_to_end, seat

import taas.envs
from taas.arena import replay as replays


def moves_of(client, game_id):
    return client.app.state.store.get(game_id).moves


def test_the_page_and_its_files_are_served(client):
    for path in ["/", "/game/abc", "/replay", "/replay/abc"]:
        r = client.get(path)
        assert r.status_code == 200 and "<script src=\"/static/app.js\">" in r.text
    for name, kind in [("app.js", "javascript"), ("cards.js", "javascript"), ("style.css", "css")]:
        r = client.get(f"/static/{name}")
        assert r.status_code == 200 and kind in r.headers["content-type"]
    assert "http" not in client.get("/static/app.js").text.replace("http://www.w3.org", "")


def test_envs_lists_rules_and_agents(client):
    envs = {e["id"]: e for e in client.get("/api/envs").json()}
    assert set(envs) == set(taas.envs.available_envs())
    assert envs["marriage_v1"]["rules"]["num_players"] == 4
    assert "heuristic" in envs["mariage_v1"]["agents"] and "random" in envs["marriage_v1"]["agents"]


def test_a_new_game_gives_each_person_a_token(client):
    game_id, tokens = new_game(client, "marriage_v1", ["random", "human", "random", "human"],
                               seed=None)
    assert set(tokens) == {1, 3} and tokens[1] != tokens[3]
    seen = client.get(f"/api/games/{game_id}", headers=seat(tokens[3])).json()
    assert seen["seat"] == 3 and len(seen["hand"]) in (21, 22)
    spectator = client.get(f"/api/games/{game_id}").json()
    assert spectator["seat"] is None and "hand" not in spectator


def test_a_whole_deal_through_the_api_and_its_replay_file(client):
    game_id, tokens = new_game(client)
    r = client.get(f"/api/games/{game_id}/replay")
    assert r.status_code == 409 and "not over" in r.json()["detail"]
    assert client.get(f"/api/games/{game_id}/frames").status_code == 409
    final = play_to_end(client, game_id, tokens)
    assert final["over"] and final["rounds"] and final["sheet"]["rows"]
    r = client.get(f"/api/games/{game_id}/replay")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    result = replays.replay(r.json(), render=False)
    assert result.returns == final["returns"]
    frames = client.get(f"/api/games/{game_id}/frames").json()
    assert len(frames["frames"]) == len(moves_of(client, game_id)) + 1
    assert frames["returns"] == final["returns"]
    uploaded = client.post("/api/replays", content=r.content)
    assert uploaded.status_code == 200 and uploaded.json()["frames"] == frames["frames"]


def test_a_heuristic_agent_answers_within_half_a_second(client):
    game_id, tokens = new_game(client, seed=11)
    view = client.get(f"/api/games/{game_id}", headers=seat(tokens[0])).json()
    waits = []
    while not view["over"]:
        if view["current"] == 0:
            start = time.perf_counter()
            r = client.post(f"/api/games/{game_id}/move",
                            json={"action": greedy_choice(view)["id"]}, headers=seat(tokens[0]))
            view = r.json()
            if not view["over"] and view["current"] == 1:
                view = client.post(f"/api/games/{game_id}/advance",
                                   headers=seat(tokens[0])).json()
                waits.append(time.perf_counter() - start)
        else:
            view = client.post(f"/api/games/{game_id}/advance", headers=seat(tokens[0])).json()
    assert waits and max(waits) < 0.5, waits


def hot_seat(client):
    """A Mariage deal between two people: the mover's token and the other's."""
    game_id, tokens = new_game(client, agents=["human", "human"], seed=None)
    mover = client.get(f"/api/games/{game_id}").json()["current"]
    return game_id, tokens[mover], tokens[1 - mover]


BAD = {
    "unknown game": ("get", "/api/games/nosuch", {}, 404, "no game"),
    "unknown env": ("post", "/api/games", {"json": {"env_id": "poker_v1", "agents": ["human"]}},
                    400, "unknown env"),
    "retired env": ("post", "/api/games",
                    {"json": {"env_id": "marriage_v0", "agents": ["human"] * 4}}, 400, "retired"),
    "no person": ("post", "/api/games", {"json": {"env_id": "mariage_v1",
                                                  "agents": ["random", "random"]}}, 400, "human"),
    "unknown agent": ("post", "/api/games", {"json": {"env_id": "mariage_v1",
                                                      "agents": ["human", "genius"]}}, 400,
                      "unknown agent"),
    "a model made for another table size": (
        "post", "/api/games", {"json": {"env_id": "romme_v1", "agents": ["human", "ppo:romme"],
                                        "rules": {"num_players": 2}}}, 400, "num_players=2"),
    "seats": ("post", "/api/games", {"json": {"env_id": "mariage_v1", "agents": ["human"] * 3}},
              400, "seats"),
    "bad rule": ("post", "/api/games", {"json": {"env_id": "mariage_v1", "agents": ["human"] * 2,
                                                 "rules": {"closing_penalty": 9}}}, 400,
                 "closing_penalty"),
    "unknown rule": ("post", "/api/games", {"json": {"env_id": "mariage_v1",
                                                     "agents": ["human"] * 2,
                                                     "rules": {"jokers_wild": True}}}, 400,
                     "jokers_wild"),
    "negative seed": ("post", "/api/games", {"json": {"env_id": "mariage_v1",
                                                      "agents": ["human", "random"], "seed": -3}},
                      400, "seed"),
    "huge seed": ("post", "/api/games", {"json": {"env_id": "mariage_v1",
                                                  "agents": ["human", "random"], "seed": 2**70}},
                  400, "seed"),
    "malformed JSON": ("post", "/api/games", {"content": b'{"env_id": ',
                                              "headers": {"content-type": "application/json"}},
                       422, "malformed"),
    "missing field": ("post", "/api/games", {"json": {"env_id": "mariage_v1"}}, 422, "agents"),
    "extra field": ("post", "/api/games", {"json": {"env_id": "mariage_v1", "agents": ["human"],
                                                    "cheat": 1}}, 422, "cheat"),
    "seed as text": ("post", "/api/games", {"json": {"env_id": "mariage_v1",
                                                     "agents": ["human"] * 2, "seed": "1"}},
                     422, "seed"),
    "not a replay": ("post", "/api/replays", {"content": b"[1, 2]"}, 400, "not a taas replay"),
    "replay not JSON": ("post", "/api/replays", {"content": b"\x00\xff"}, 400, "replay"),
}


def test_bad_requests_without_a_game(client):
    for case, (method, url, kwargs, status, words) in BAD.items():
        r = getattr(client, method)(url, **kwargs)
        assert r.status_code == status, (case, r.text)
        assert words in r.json()["detail"], case
    assert client.app.state.store.ids() == []


def game_cases(game_id, mover, other, legal, illegal):
    move = f"/api/games/{game_id}/move"
    return {
        "wrong seat": ({"json": {"action": legal}, "headers": seat(other)}, 409, "turn"),
        "bad token": ({"json": {"action": legal}, "headers": seat("x" * 22)}, 403, "no seat"),
        "non-ASCII token": ({"json": {"action": legal}, "headers": seat("sé")}, 403, "no seat"),
        "illegal action": ({"json": {"action": illegal}, "headers": seat(mover)}, 400,
                           "not legal"),
        "action out of range": ({"json": {"action": 10**6}, "headers": seat(mover)}, 400,
                                "not legal"),
        "negative action": ({"json": {"action": -1}, "headers": seat(mover)}, 400, "not legal"),
        "action as text": ({"json": {"action": str(legal)}, "headers": seat(mover)}, 422,
                           "action"),
        "action as bool": ({"json": {"action": True}, "headers": seat(mover)}, 422, "action"),
        "action as float": ({"json": {"action": 1.5}, "headers": seat(mover)}, 422, "action"),
        "no token": ({"json": {"action": legal}}, 401, "X-Seat-Token header"),
        "token in the body (the old form)": ({"json": {"token": mover, "action": legal}}, 400,
                                             "X-Seat-Token header, not"),
        "token in the URL": ({"json": {"action": legal}, "params": {"token": mover}}, 400,
                             "X-Seat-Token header, not"),
        "body not an object": ({"json": [legal]}, 422, "malformed"),
        "malformed JSON": ({"content": b"{token", "headers": {"content-type":
                                                              "application/json"}},
                           422, "malformed"),
    }, move


def test_bad_moves_change_nothing(client):
    game_id, mover, other = hot_seat(client)
    view = client.get(f"/api/games/{game_id}", headers=seat(mover)).json()
    legal = view["actions"][0]["id"]
    illegal = next(a for a in range(39) if a not in {x["id"] for x in view["actions"]})
    cases, url = game_cases(game_id, mover, other, legal, illegal)
    for case, (kwargs, status, words) in cases.items():
        r = client.post(url, **kwargs)
        assert r.status_code == status, (case, r.text)
        assert words in r.json()["detail"], case
    after = client.get(f"/api/games/{game_id}", headers=seat(mover)).json()
    assert after == view and moves_of(client, game_id) == []


def test_advance_only_for_agents_by_a_seat_and_nothing_after_the_end(client):
    game_id, mover, _ = hot_seat(client)
    r = client.post(f"/api/games/{game_id}/advance", headers=seat(mover))
    assert r.status_code == 409 and "a person" in r.json()["detail"]
    assert client.post(f"/api/games/{game_id}/advance", headers=seat("nope")).status_code == 403
    game_id, tokens = new_game(client, agents=("heuristic", "human"), seed=7)  # agent to move
    r = client.post(f"/api/games/{game_id}/advance")
    assert r.status_code == 401 and "X-Seat-Token" in r.json()["detail"]
    assert moves_of(client, game_id) == []
    play_to_end(client, game_id, tokens)
    n = len(moves_of(client, game_id))
    r = client.post(f"/api/games/{game_id}/advance", headers=seat(tokens[1]))
    assert r.status_code == 409 and "over" in r.json()["detail"]
    r = client.post(f"/api/games/{game_id}/move", json={"action": 0}, headers=seat(tokens[1]))
    assert r.status_code == 409 and "over" in r.json()["detail"]
    assert len(moves_of(client, game_id)) == n


def test_a_replay_of_another_version_is_refused(client):
    game_id, tokens = new_game(client)
    play_to_end(client, game_id, tokens)
    record = client.get(f"/api/games/{game_id}/replay").json()
    record["env_id"] = "mariage_v0"
    r = client.post("/api/replays", content=json.dumps(record))
    assert r.status_code == 400 and "mariage_v0" in r.json()["detail"]
    record["env_id"], record["moves"] = "mariage_v1", record["moves"][:-1]
    r = client.post("/api/replays", content=json.dumps(record))
    assert r.status_code == 400 and "replay" in r.json()["detail"]


def test_a_slow_agent_holds_up_its_own_game_only(client, monkeypatch):
    """While one game's agent is thinking, another game is viewed and played; the first game's
    move lands once its agent answers."""
    import threading

    from taas.play.session import Session

    slow_id, slow_tokens = new_game(client, agents=("heuristic", "human"), seed=7)
    other_id, other_tokens = new_game(client, agents=("human", "human"), seed=None)
    thinking, answer = threading.Event(), threading.Event()
    agent_choice = Session.agent_choice

    def slow_choice(self):
        thinking.set()
        assert answer.wait(30), "the test never released the slow agent"
        return agent_choice(self)

    monkeypatch.setattr(Session, "agent_choice", slow_choice)
    results = {}
    worker = threading.Thread(target=lambda: results.update(
        slow=client.post(f"/api/games/{slow_id}/advance", headers=seat(slow_tokens[1]))))
    worker.start()
    try:
        assert thinking.wait(30)
        # the thinking game itself is seen meanwhile, and so is the other, which plays on
        assert client.get(f"/api/games/{slow_id}").json()["moves"] == 0
        mover = client.get(f"/api/games/{other_id}").json()["current"]
        me = seat(other_tokens[mover])
        seen = client.get(f"/api/games/{other_id}", headers=me).json()
        played = client.post(f"/api/games/{other_id}/move",
                             json={"action": seen["actions"][0]["id"]}, headers=me)
        assert played.status_code == 200, played.text
        assert worker.is_alive() and len(moves_of(client, slow_id)) == 0
    finally:
        answer.set()
        worker.join(30)
    assert results["slow"].status_code == 200 and len(moves_of(client, slow_id)) == 1
    assert len(moves_of(client, other_id)) == 1
