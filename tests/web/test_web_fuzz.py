"""200 malformed or illegal requests, drawn at random: every one gets a 4xx answer with a
message, and every stored game is afterwards exactly what it was (it rebuilds from the store
move by move, each move legal, to the same view)."""

import json

import numpy as np
from play_helpers import new_game, seat

from taas.play.session import Session

BAD_FIELDS = {  # values that make a new game's request wrong, field by field
    "env_id": [None, 7, "poker_v1", "marriage_v0", "x" * 300, "é♠"],
    "agents": [None, "human", [], [7], ["human", "genius", "random", "random"], ["random"] * 4],
    "seed": [-1, 2**31, 2**70, "7", 1.5, True],
    "rules": [None, [], "x", {"nope": 1}, {"num_players": "x"}, {"decks": 9}],
}


def bad_request(rng, games):
    """One request that must fail: (method, url, kwargs)."""
    game_id, tokens, view = games[int(rng.integers(len(games)))]
    legal = {a["id"] for a in view["actions"]}
    mover = tokens.get(view["current"])
    others = [t for s, t in tokens.items() if s != view["current"]]
    junk = [None, True, 1.5, "7", [], {}, -1, 10**9, "x" * 300, "\u0000", "é♠", 2**70]
    pick = junk[int(rng.integers(len(junk)))]
    kind = int(rng.integers(12))
    move = f"/api/games/{game_id}/move"
    if kind == 0:
        return "post", move, {"content": bytes(rng.integers(0, 256, int(rng.integers(1, 40)),
                                                             dtype=np.uint8)),
                              "headers": {"content-type": "application/json"}}
    if kind == 1:
        return "post", move, {"json": {"action": pick}, "headers": seat(mover or "t")}
    if kind == 2 and mover:
        illegal = int(rng.choice([a for a in range(-5, 200) if a not in legal]))
        return "post", move, {"json": {"action": illegal}, "headers": seat(mover)}
    if kind == 3 and others:
        return "post", move, {"json": {"action": min(legal or {0})}, "headers": seat(others[0])}
    if kind == 4:
        return "post", move, {"json": {"action": min(legal or {0})},
                              "headers": seat("".join(rng.choice(list("abcXYZ-_"), 22)))}
    if kind == 5:
        return "post", f"/api/games/{game_id[:-1]}z/move", {"json": {"action": 0},
                                                             "headers": seat("t")}
    if kind == 6 and view["current"] in tokens:  # a person is to move: no agent may
        return "post", f"/api/games/{game_id}/advance", {"headers": seat(mover)}
    if kind == 7:
        return "get", f"/api/games/{game_id}", {"headers": seat(str(pick))}
    if kind == 8:
        fields = {"env_id": "marriage_v1", "agents": ["human"] + ["random"] * 3, "seed": 1,
                  "rules": {}}
        key = list(BAD_FIELDS)[int(rng.integers(len(BAD_FIELDS)))]
        fields[key] = BAD_FIELDS[key][int(rng.integers(len(BAD_FIELDS[key])))]
        return "post", "/api/games", {"json": fields}
    if kind == 9:
        return "post", "/api/games", {"json": {"env_id": "marriage_v1", "agents": ["human"] * 4,
                                               "rules": {"num_players": pick}}}
    if kind == 10:
        return "post", "/api/replays", {"content": json.dumps({"format": "taas-replay",
                                                               "moves": pick}).encode()}
    return "get", f"/api/games/{game_id}/replay", {}  # none of these games is over


def test_fuzzed_bad_requests_get_4xx_and_leave_every_game_valid(client):
    games = []
    for env_id, agents, moves in [("mariage_v1", ["human", "heuristic"], 3),
                                  ("marriage_v1", ["human", "random", "human", "random"], 5)]:
        game_id, tokens = new_game(client, env_id, agents, seed=None)
        view = client.get(f"/api/games/{game_id}").json()
        while view["moves"] < moves or view["current"] not in tokens:  # a little way in
            if view["current"] in tokens:
                mine = client.get(f"/api/games/{game_id}",
                                  headers=seat(tokens[view["current"]])).json()
                client.post(f"/api/games/{game_id}/move", json={"action": mine["actions"][0]["id"]},
                            headers=seat(tokens[view["current"]]))
            else:
                client.post(f"/api/games/{game_id}/advance", headers=seat(min(tokens.values())))
            view = client.get(f"/api/games/{game_id}").json()
        view = client.get(f"/api/games/{game_id}", headers=seat(tokens[view["current"]])).json()
        games.append((game_id, tokens, view))
    store = client.app.state.store
    before = {g: (store.get(g).moves, client.get(f"/api/games/{g}").json()) for g, _, _ in games}
    rng = np.random.default_rng(2024)
    for i in range(200):
        method, url, kwargs = bad_request(rng, games)
        r = getattr(client, method)(url, **kwargs)
        assert 400 <= r.status_code < 500, (i, method, url, kwargs, r.status_code, r.text)
        assert isinstance(r.json()["detail"], str) and r.json()["detail"]
    assert store.ids() == [g for g, _, _ in games]
    for game_id, (moves, spectator) in before.items():
        row = store.get(game_id)
        assert row.moves == moves and len(moves) > 0
        rebuilt = Session(row.env_id, row.rules, row.seed, row.agents, row.moves)
        assert rebuilt.view() == spectator
