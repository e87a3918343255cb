"""The web table's HTTP API and page (``taas serve``; FastAPI, run by uvicorn).

Every game lives in the :class:`~taas.web.store.Store`; the server keeps only a cache of
rebuilt :class:`~taas.play.session.Session` objects, so a page reload or a restart resumes
exactly. A move is checked by the engine before anything changes and stored right after, so a
bad request is answered 4xx with a one-line message and never leaves a half-applied move.

Endpoints (JSON unless said):

- ``GET /`` the page; ``/game/{id}`` and ``/replay[/{id}]`` are the same page's views.
- ``GET /api/envs`` each env's rule defaults and the agents that can play it.
- ``POST /api/games`` ``{env_id, agents, rules?, seed?}`` (``"human"`` for a person's seat):
  the new game's id and one token per person's seat.
- ``GET /api/games/{id}?token=`` the game as that seat sees it (no token: as a spectator).
- ``POST /api/games/{id}/move`` ``{token, action}`` a person's move.
- ``POST /api/games/{id}/advance`` the agent to move plays one move (the page calls it at
  its pace, so each agent move is shown on its own).
- ``GET /api/games/{id}/replay`` a finished game as a replay file (download).
- ``GET /api/games/{id}/frames`` a finished game, move by move with every hand shown.
- ``POST /api/replays`` a replay file's content: its frames.
"""

from __future__ import annotations

import dataclasses
import json
import secrets
import tempfile
import threading
import weakref
from collections import OrderedDict
from importlib import resources
from pathlib import Path

from fastapi import FastAPI, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, StrictInt, StrictStr

import taas.agents
import taas.envs
from taas.arena import replay as replays
from taas.play.session import HUMAN, Session
from taas.web.store import GameRow, Store

STATIC = Path(str(resources.files("taas.web") / "static"))
_CACHE_SIZE = 32
MAX_SEED = 2**31 - 1


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NewGame(_Body):
    env_id: StrictStr
    agents: list[StrictStr]
    rules: dict = {}
    seed: StrictInt | None = None


class Move(_Body):
    token: StrictStr
    action: StrictInt


def create_app(db_path: str) -> FastAPI:
    """The app over the games store at ``db_path``."""
    app = FastAPI(title="taas web table", docs_url=None, redoc_url=None)
    store = Store(db_path)
    cache: OrderedDict[str, Session] = OrderedDict()
    # One lock per game, so a slow agent's move holds up its own game only (a lock lives while
    # a request holds it); ``shared`` guards the cache and the lock table, never across a move.
    shared = threading.Lock()
    game_locks: weakref.WeakValueDictionary[str, threading.Lock] = weakref.WeakValueDictionary()

    def lock(game_id: str) -> threading.Lock:
        with shared:
            return game_locks.setdefault(game_id, threading.Lock())

    @app.exception_handler(RequestValidationError)
    async def _malformed(request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()))
        return JSONResponse(
            status_code=422,
            content={"detail": f"malformed request: {where}: {first.get('msg', 'invalid')}"},
        )

    def load(game_id: str) -> tuple[GameRow, Session]:
        row = store.get(game_id)
        if row is None:
            raise HTTPException(404, f"no game {game_id!r}")
        with shared:
            session = cache.get(game_id)
        if session is None or len(session.moves) != len(row.moves):
            session = Session(row.env_id, row.rules, row.seed, row.agents, row.moves)
        with shared:
            cache[game_id] = session
            cache.move_to_end(game_id)
            if len(cache) > _CACHE_SIZE:
                cache.popitem(last=False)
        return row, session

    def seat_of(row: GameRow, token: str | None) -> int | None:
        if token is None:
            return None
        for seat, t in row.tokens.items():
            if secrets.compare_digest(t.encode(), token.encode()):  # str: ASCII only
                return seat
        raise HTTPException(403, f"this token holds no seat in game {row.id}")

    def commit(row: GameRow, session: Session) -> None:
        try:
            store.set_moves(row.id, session.moves)
        except Exception:
            with shared:
                cache.pop(row.id, None)  # the store is the truth: rebuild from it next time
            raise

    @app.get("/", include_in_schema=False)
    @app.get("/game/{game_id}", include_in_schema=False)
    @app.get("/replay", include_in_schema=False)
    @app.get("/replay/{game_id}", include_in_schema=False)
    def page(game_id: str | None = None) -> FileResponse:
        return FileResponse(STATIC / "index.html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/api/envs")
    def envs() -> list[dict]:
        out = []
        for env_id in taas.envs.available_envs():
            config = taas.envs.env_module(env_id).Config()
            rules = {f.name: getattr(config, f.name) for f in dataclasses.fields(config)}
            out.append({"id": env_id, "rules": rules, "agents": taas.agents.available(env_id)})
        return out

    @app.post("/api/games", status_code=201)
    def new_game(body: NewGame) -> dict:
        seed = secrets.randbelow(MAX_SEED) if body.seed is None else body.seed
        if not 0 <= seed <= MAX_SEED:
            raise HTTPException(400, f"seed {seed}: expected 0..{MAX_SEED}")
        if HUMAN not in body.agents:
            raise HTTPException(400, f"no seat is {HUMAN!r}: give at least one person a seat")
        try:
            session = Session(body.env_id, body.rules, seed, body.agents)
        except (ValueError, TypeError) as err:
            raise HTTPException(400, str(err)) from None
        tokens = {seat: secrets.token_urlsafe(16) for seat in session.humans()}
        game_id = secrets.token_hex(6)
        store.add(GameRow(game_id, body.env_id, session.rules, seed, body.agents, tokens, []))
        with shared:
            cache[game_id] = session
        return {"id": game_id, "seed": seed, "tokens": {str(k): v for k, v in tokens.items()}}

    @app.get("/api/games/{game_id}")
    def view(game_id: str, token: str | None = None) -> dict:
        with lock(game_id):
            row, session = load(game_id)
            return session.view(seat_of(row, token))

    @app.post("/api/games/{game_id}/move")
    def move(game_id: str, body: Move) -> dict:
        with lock(game_id):
            row, session = load(game_id)
            seat = seat_of(row, body.token)
            if session.over:
                raise HTTPException(409, "the game is over")
            if session.current != seat:
                raise HTTPException(409, f"it is player_{session.current}'s turn, not yours")
            try:
                session.play(seat, body.action)
            except ValueError as err:
                raise HTTPException(400, str(err)) from None
            commit(row, session)
            return session.view(seat)

    @app.post("/api/games/{game_id}/advance")
    def advance(game_id: str, token: str | None = None) -> dict:
        with lock(game_id):
            row, session = load(game_id)
            seat = seat_of(row, token)
            if session.over:
                raise HTTPException(409, "the game is over")
            if session.agents[session.current] == HUMAN:
                raise HTTPException(409, f"player_{session.current} is a person, not an agent")
            session.agent_move()
            commit(row, session)
            return session.view(seat)

    @app.get("/api/games/{game_id}/replay")
    def replay_file(game_id: str) -> Response:
        with lock(game_id):
            _, session = load(game_id)
            if not session.over:
                raise HTTPException(409, "the game is not over: replay files are of finished games")
            record = session.record()
        return Response(
            json.dumps(record, indent=1),
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="taas-{game_id}.json"'},
        )

    @app.get("/api/games/{game_id}/frames")
    def game_frames(game_id: str) -> dict:
        with lock(game_id):
            row, session = load(game_id)
            if not session.over:
                raise HTTPException(409, "the game is not over: its hands are still hidden")
            return frames(row.env_id, row.rules, row.seed, row.agents, row.moves)

    @app.post("/api/replays")
    async def replay_frames(request: Request) -> dict:
        body = await request.body()
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "upload.json"
            path.write_bytes(body)
            try:
                record = replays.load(path)
                replays.replay(record, render=False)  # it must end as recorded
                seats = [a["spec"] for a in record["agents"]]
                moves = [(int(m["actor"].rpartition("_")[2]), m["action"]) for m in record["moves"]]
                return frames(record["env_id"], record["config"], record["seed"], seats, moves)
            except (ValueError, KeyError, TypeError, AttributeError) as err:
                why = str(err).replace(f"{path}: ", "")
                raise HTTPException(400, f"not a replay this taas can play: {why}") from None

    app.state.store = store
    return app


def frames(env_id: str, rules: dict, seed: int, agents: list[str], moves) -> dict:
    """A game move by move for the replay view: after each move its line, the public facts
    and every hand (a finished game's hands are no secret)."""
    session = Session(env_id, rules, seed, [HUMAN] * len(agents))
    out = [{"line": "the deal", **session.open_table()}]
    for seat, action in moves:
        out.append({"line": session.play(seat, action), **session.open_table()})
    view = session.view()
    return {"env_id": env_id, "agents": agents, "frames": out, "rounds": view["rounds"],
            "returns": view["returns"]}
