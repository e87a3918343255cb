"""A scripted player for the play tests: what a person might choose from what one seat sees
(:meth:`taas.play.session.Session.view`), so terminal, API and browser tests play whole games."""

from __future__ import annotations

from taas.envs.core.cards import JOKER


def greedy_choice(view: dict) -> dict:
    """One of ``view["actions"]``: in Marriage show when possible, draw from the stock, then
    discard the costliest deadwood card of the engine's arrangement that is not wild; in
    every other game the first legal action."""
    actions = view["actions"]
    if not view["env_id"].startswith("marriage_v"):
        return actions[0]
    by_verb: dict[str, list[dict]] = {}
    for a in actions:
        by_verb.setdefault(a["name"].split()[0], []).append(a)
    if "show" in by_verb:
        return by_verb["show"][0]
    if "draw" in by_verb:
        return by_verb["draw"][0]
    discards = {a["card"]: a for a in by_verb["discard"]}
    wild = set(view["wild"]) | {JOKER}

    def cost(k: int) -> int:
        return min(k % 13 + 1, 10) if k % 13 else 10

    dead = sorted((k for k in view["melds"]["deadwood"] if k not in wild and k in discards),
                  key=cost, reverse=True)
    return discards[dead[0]] if dead else next(iter(discards.values()))


def seat(token: str) -> dict:
    """The request headers that speak for the seat holding ``token`` (UTF-8: a fuzzed token
    may be any text)."""
    return {"X-Seat-Token": token.encode()}


def new_game(client, env_id="mariage_v1", agents=("human", "heuristic"), seed=4, **rules):
    """Create a game through the API (a TestClient or an httpx client); its id and its
    seats' tokens by seat number. ``seed=None``: the server's secret deal (a table with
    several people can have no other)."""
    body = {"env_id": env_id, "agents": list(agents), "rules": rules}
    if seed is not None:
        body["seed"] = seed
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    body = r.json()
    return body["id"], {int(k): v for k, v in body["tokens"].items()}


def play_to_end(client, game_id: str, tokens: dict[int, str]) -> dict:
    """Play a game through the API: people by :func:`greedy_choice`, agents by advancing.
    The final view of the first person's seat."""
    first = min(tokens)
    view = client.get(f"/api/games/{game_id}", headers=seat(tokens[first])).json()
    while not view["over"]:
        mover = view["current"]
        if mover in tokens:
            mine = client.get(f"/api/games/{game_id}", headers=seat(tokens[mover])).json()
            r = client.post(f"/api/games/{game_id}/move",
                            json={"action": greedy_choice(mine)["id"]}, headers=seat(tokens[mover]))
        else:
            r = client.post(f"/api/games/{game_id}/advance", headers=seat(tokens[first]))
        assert r.status_code == 200, r.text
        view = client.get(f"/api/games/{game_id}", headers=seat(tokens[first])).json()
    return view
