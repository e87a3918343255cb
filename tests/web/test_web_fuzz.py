"""200 malformed or illegal requests, drawn at random: every one gets a 4xx answer with a
message, and every stored game is afterwards exactly what it was (it rebuilds from the store
move by move, each move legal, to the same view)."""

import json
from collections import Counter

import numpy as np
from hypothesis import strategies as st
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


# ---- property-based requests drawn from the app's own OpenAPI schema ------------------------
SAFE = "".join(chr(c) for c in range(33, 127) if chr(c) not in "/?#%")  # one path segment
JSON_ATOMS = st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats() | st.text(
    max_size=12)


def nested(depth: int) -> list:
    value: list = []
    for _ in range(depth):
        value = [value]
    return value


ANY_JSON = st.recursive(JSON_ATOMS, lambda inner: st.lists(inner, max_size=4)
                        | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=12
                        ) | st.integers(20, 900).map(nested)  # a parser's recursion


def from_schema(schema: dict, components: dict, hints: dict) -> st.SearchStrategy:
    """Values for an OpenAPI (JSON Schema) ``schema``, now and then of any other shape, with
    ``hints`` (field title -> strategy) mixed in so that requests also reach past validation."""
    if "$ref" in schema:
        schema = components[schema["$ref"].rpartition("/")[2]]
    if "anyOf" in schema:
        valid = st.one_of([from_schema(s, components, hints) for s in schema["anyOf"]])
    elif schema.get("type") == "object" and "properties" in schema:
        props = {k: from_schema(v, components, hints) for k, v in schema["properties"].items()}
        required = set(schema.get("required", ()))
        valid = st.fixed_dictionaries(
            {k: v for k, v in props.items() if k in required},
            optional={k: v for k, v in props.items() if k not in required})
    elif schema.get("type") == "object":
        valid = st.dictionaries(st.text(max_size=12), ANY_JSON, max_size=4)
    elif schema.get("type") == "array":
        valid = st.lists(from_schema(schema["items"], components, hints), max_size=5)
    elif schema.get("type") == "integer":
        valid = st.integers(-5, 200) | st.integers(-(2**70), 2**70)
    elif schema.get("type") == "string":
        valid = st.text(max_size=30)
    elif schema.get("type") == "null":
        valid = st.none()
    else:
        valid = ANY_JSON
    hint = hints.get(schema.get("title"))
    return (hint | valid if hint is not None else valid) | ANY_JSON


def test_requests_drawn_from_the_openapi_schema_get_no_server_error(tmp_path):
    """Every operation of the schema, its path, header and body drawn by hypothesis (real
    ids, tokens, envs and agents among them): no 5xx, and every refusal says why."""
    from conftest import make_client
    from hypothesis import HealthCheck, given, settings

    from taas.web.guard import Limits

    with make_client(tmp_path, limits=Limits(rate=10_000, burst=100_000, max_games=60)) as client:
        games = [new_game(client, "mariage_v1", ["human", "heuristic"]),
                 new_game(client, "marriage_v1", ["human", "random", "human", "random"],
                          seed=None)]
        ids = [g for g, _ in games]
        tokens = [t for _, ts in games for t in ts.values()]
        envs = [e["id"] for e in client.get("/api/envs").json()]
        hints = {
            "Game Id": st.sampled_from(ids),
            "X-Seat-Token": st.sampled_from(tokens),
            "Env Id": st.sampled_from(envs),
            "Agents": st.lists(st.sampled_from(["human", "random", "heuristic", "ismcts:5",
                                                "greedy", "ppo:mariage"]), max_size=5),
            "Action": st.integers(0, 120),
            "Rules": st.just({}),
            "Seed": st.none() | st.integers(0, 100),
        }
        schema = client.app.openapi()
        components = schema["components"]["schemas"]
        operations = []
        for path, ops in schema["paths"].items():
            for method, op in ops.items():
                # a path's ids are the games' or junk; a DELETE's junk only (the games live on)
                ids_hint = st.nothing() if method == "delete" else hints["Game Id"]
                params = {p["name"]: (p["in"], from_schema(p["schema"], components, hints)
                                      if p["in"] != "path"
                                      else ids_hint | st.text(SAFE, min_size=1, max_size=20))
                          for p in op.get("parameters", [])}
                body = op.get("requestBody", {}).get("content", {}).get("application/json")
                body = from_schema(body["schema"], components, hints) if body else st.none()
                body = body | st.integers(1000, 100_000).map(lambda n: b"[" * n + b"]" * n)
                operations.append((method, path, st.fixed_dictionaries(
                    {k: v for k, (_, v) in params.items()}), body,
                    {k: where for k, (where, _) in params.items()}))
        seen = []

        @settings(max_examples=600, deadline=None, derandomize=True,
                  suppress_health_check=list(HealthCheck))
        @given(st.sampled_from(operations).flatmap(
            lambda op: st.tuples(st.just(op), op[2], op[3])))
        def one_request(drawn):
            (method, path, _, _, where), values, body = drawn
            url, headers = path, {}
            for name, value in values.items():
                if where[name] == "path":
                    url = url.replace("{" + name + "}", value)
                elif where[name] == "header" and isinstance(value, str) and value.isascii() \
                        and value.isprintable():
                    headers[name] = value
            kwargs = {"headers": headers}
            if body is not None:  # JSON, or raw bytes nested deeper than any parser recurses
                kwargs["content"] = body if isinstance(body, bytes) else json.dumps(body).encode()
                headers["content-type"] = "application/json"
            r = client.request(method.upper(), url, **kwargs)
            seen.append(r.status_code)
            assert r.status_code < 500, (method, url, headers, body, r.text)
            if r.status_code >= 400:
                assert isinstance(r.json()["detail"], str) and r.json()["detail"]

        one_request()
    print("statuses", sorted(Counter(seen).items()))
    assert len(seen) >= 600 and any(s < 300 for s in seen) and any(s >= 400 for s in seen)
