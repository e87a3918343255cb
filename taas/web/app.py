"""The web table's HTTP API and page (``taas serve``; FastAPI, run by uvicorn).

Every game lives in the :class:`~taas.web.store.Store`; the server keeps only a cache of
rebuilt :class:`~taas.play.session.Session` objects, so a page reload or a restart resumes
exactly. A move is checked by the engine before anything changes and stored right after, so a
bad request is answered 4xx with a one-line message and never leaves a half-applied move.

Hidden deals: the server draws each seed from :mod:`secrets` and no answer holds it (nor
anything else about the stock or other hands) until the game is over, when its replay file
does. A client may choose the seed only for a table with one person (practice against
agents); the game's record says so (``seed_from``). Seat tokens travel in the
``X-Seat-Token`` header (URLs end up in logs and browser history) and are stored hashed.
Agents, budgets and limits are the operator's (:func:`create_app`; :mod:`taas.web.compute`,
:mod:`taas.web.guard`).

Endpoints (JSON unless said):

- ``GET /`` the page; ``/game/{id}`` and ``/replay[/{id}]`` are the same page's views.
- ``GET /api/envs`` each env's rule defaults and the agents offered for it.
- ``POST /api/games`` ``{env_id, agents, rules?, seed?}`` (``"human"`` for a person's seat):
  the new game's id and one token per person's seat.
- ``GET /api/games/{id}`` the game as the token's seat sees it (no token: as a spectator).
- ``DELETE /api/games/{id}`` (a seat's token) the game is deleted, its agent's move cancelled.
- ``POST /api/games/{id}/move`` ``{action}`` (a seat's token) a person's move.
- ``POST /api/games/{id}/advance`` (a seat's token) the agent to move plays one move (the
  page calls it at its pace, so each agent move is shown on its own).
- ``GET /api/games/{id}/replay`` a finished game as a replay file (download).
- ``GET /api/games/{id}/frames`` a finished game, move by move with every hand shown.
- ``POST /api/replays`` a replay file's content: its frames.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import secrets
import tempfile
import threading
import weakref
from collections import OrderedDict
from collections.abc import Sequence
from importlib import resources
from pathlib import Path

from fastapi import Depends, FastAPI, Header, HTTPException, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, StrictInt, StrictStr

import taas.agents
import taas.envs
from taas.arena import replay as replays
from taas.play.session import HUMAN, Session
from taas.web.compute import AgentPolicy, Busy, Cancelled, Thinkers
from taas.web.guard import Guard, Limits, client_of
from taas.web.store import GameRow, Store, token_hash

STATIC = Path(str(resources.files("taas.web") / "static"))
_CACHE_SIZE = 32
MAX_SEED = 2**31 - 1  # the largest seed a client may choose
# The server's seeds: 63 random bits (SQLite's integers), so that a person who knows their own
# hand cannot find the deal by trying every seed offline (2**31 of them take hours, not years).
SERVER_SEEDS = 2**63
TOKEN_HEADER = "X-Seat-Token"
_NOT_IN_URL = (f"a seat token goes in the {TOKEN_HEADER} header, not in the URL or the body "
               "(URLs end up in logs and browser history)")


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NewGame(_Body):
    env_id: StrictStr
    agents: list[StrictStr]
    rules: dict = {}
    seed: StrictInt | None = None


class Move(_Body):
    action: StrictInt
    token: StrictStr | None = None  # the old form: refused with a pointer to the header


def check_listen(host: str, port: int) -> None:
    """``ValueError`` (one line) unless ``taas serve`` can listen at ``host:port``."""
    if isinstance(port, bool) or not isinstance(port, int) or not 1 <= port <= 65535:
        raise ValueError(f"port {port}: expected 1..65535")
    if not host.strip():
        raise ValueError("host: expected an address such as 127.0.0.1")


def parse_seconds(text: str) -> float:
    """``"2s"`` or ``"2"`` -> 2.0 (``taas serve --max-think``); ``ValueError`` otherwise."""
    try:
        seconds = float(text[:-1] if text.endswith("s") else text)
    except ValueError:
        seconds = 0.0
    if not seconds > 0 or seconds == float("inf"):
        raise ValueError(f"{text!r}: expected seconds, such as 2s or 0.5")
    return seconds


def serve(db_path: str, host: str = "127.0.0.1", port: int = 8000, **options) -> None:
    """Run the web table until SIGINT or SIGTERM (``taas serve``); ``options`` are
    :func:`create_app`'s. ``ValueError`` (one line) for a bad port, store or setting. On a
    signal, requests under way get 2 s, then every agent's move is cancelled."""
    import uvicorn

    check_listen(host, port)
    app = create_app(db_path, **options)
    print(f"taas web table on http://{host}:{port}/ (games in {db_path})", flush=True)
    uvicorn.run(app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=2)


def seat_token(
    x_seat_token: str | None = Header(None, description="the seat's token"),
    token: str | None = Query(None, include_in_schema=False),
) -> str | None:
    """The request's seat token (header only; the old ``?token=`` form gets a clear 400)."""
    if token is not None:
        raise HTTPException(400, _NOT_IN_URL)
    return x_seat_token


def create_app(
    db_path: str,
    *,
    agents: Sequence[str] | None = None,
    max_think: float = 2.0,
    max_simulations: int = 1000,
    limits: Limits | None = None,
    models: str | None = None,
) -> FastAPI:
    """The app over the games store at ``db_path``. ``agents``: the spec names clients may
    seat (default :data:`taas.web.compute.DEFAULT_AGENTS`); ``max_think``: the most seconds an
    agent's move may think (and the largest ``ismcts:Ns`` a client may ask for);
    ``max_simulations``: the largest ``ismcts:N``; ``limits``: the rest (:class:`Limits`);
    ``models``: a folder whose ``NAME.pt`` files clients may seat as ``ppo:NAME``.
    ``ValueError`` (one line) for an unusable store or setting."""
    limits = limits or Limits()
    policy = AgentPolicy(agents, max_think, max_simulations, models)
    store = Store(db_path)
    thinkers = Thinkers(limits.workers, limits.queue, max_think)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI):
        sweep()
        yield
        thinkers.close()  # no agent thinks on after SIGTERM

    app = FastAPI(title="taas web table", docs_url=None, redoc_url=None, lifespan=lifespan)
    app.add_middleware(Guard, limits=limits)
    cache: OrderedDict[str, Session] = OrderedDict()
    # One lock per game, so a move holds up its own game only (a lock lives while a request
    # holds it); ``shared`` guards the cache and the lock table, never across a move. Agents
    # think outside the lock (Session.agent_choice reads the game; the move is applied under it).
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
            session = Session(row.env_id, row.rules, row.seed, row.agents, row.moves,
                              resolve=policy.engine_spec)
        with shared:
            cache[game_id] = session
            cache.move_to_end(game_id)
            if len(cache) > _CACHE_SIZE:
                cache.popitem(last=False)
        return row, session

    def seat_of(row: GameRow, token: str | None) -> int | None:
        if token is None:
            return None
        digest = token_hash(token)
        for seat, stored in row.tokens.items():
            if secrets.compare_digest(stored, digest):
                return seat
        raise HTTPException(403, f"this token holds no seat in game {row.id}")

    def needs_seat(row: GameRow, token: str | None, what: str) -> int:
        if token is None:
            raise HTTPException(401, f"{what} needs a seat's token in the {TOKEN_HEADER} header")
        return seat_of(row, token)

    def commit(row: GameRow, session: Session) -> None:
        try:
            store.set_moves(row.id, session.moves)
        except Exception:
            with shared:
                cache.pop(row.id, None)  # the store is the truth: rebuild from it next time
            raise

    def forget(game_id: str) -> None:
        thinkers.cancel(game_id)
        with shared:
            cache.pop(game_id, None)

    def sweep() -> None:
        for game_id in store.expire(limits.idle_expiry):
            forget(game_id)

    def checked_rules(env_id: str, rules: dict) -> dict:
        fields = [f.name for f in dataclasses.fields(taas.envs.env_module(env_id).Config)]
        for name in rules:
            if name not in fields:
                raise ValueError(f"{name!r} is not a rule of {env_id}; rules: {', '.join(fields)}")
        return rules

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
            offered = [a for a in taas.agents.available(env_id) if a in policy.agents]
            out.append({"id": env_id, "rules": rules, "agents": offered,
                        "specs": policy.offered(env_id)})
        return out

    @app.post("/api/games", status_code=201)
    def new_game(body: NewGame, request: Request) -> dict:
        people = body.agents.count(HUMAN)
        if people == 0:
            raise HTTPException(400, f"no seat is {HUMAN!r}: give at least one person a seat")
        if body.seed is not None:
            if people != 1:
                raise HTTPException(400, f"a chosen seed is for a table with one person, not "
                                    f"{people}: the deal must be hidden from the others")
            if not 0 <= body.seed <= MAX_SEED:
                raise HTTPException(400, f"seed {body.seed}: expected 0..{MAX_SEED}")
        client = client_of(request.scope)
        sweep()
        if store.count(client) >= limits.games_per_client:
            raise HTTPException(429, f"this client has {limits.games_per_client} games, the "
                                "most it may: delete one (DELETE /api/games/ID) or finish it")
        if store.count() >= limits.max_games:
            raise HTTPException(503, "the table is full: try again later",
                                headers={"Retry-After": "60"})
        seed = secrets.randbelow(SERVER_SEEDS) if body.seed is None else body.seed
        try:
            rules = checked_rules(body.env_id, body.rules)
            for spec in body.agents:
                policy.check(spec, body.env_id)
            session = Session(body.env_id, rules, seed, body.agents, resolve=policy.engine_spec)
        except (ValueError, TypeError) as err:
            raise HTTPException(400, policy.scrub(str(err))) from None
        tokens = {seat: secrets.token_urlsafe(16) for seat in session.humans()}
        game_id = secrets.token_hex(8)
        seed_from = "server" if body.seed is None else "client"
        store.add(GameRow(game_id, body.env_id, session.rules, seed, body.agents,
                          {s: token_hash(t) for s, t in tokens.items()}, [], seed_from, client))
        with shared:
            cache[game_id] = session
        return {"id": game_id, "seed_from": seed_from,
                "tokens": {str(k): v for k, v in tokens.items()}}

    @app.get("/api/games/{game_id}")
    def view(game_id: str, token: str | None = Depends(seat_token)) -> dict:
        with lock(game_id):
            row, session = load(game_id)
            return session.view(seat_of(row, token))

    @app.delete("/api/games/{game_id}", status_code=204)
    def delete(game_id: str, token: str | None = Depends(seat_token)) -> Response:
        with lock(game_id):
            row = store.get(game_id)
            if row is None:
                raise HTTPException(404, f"no game {game_id!r}")
            needs_seat(row, token, "deleting a game")
            store.delete(game_id)
            forget(game_id)
        return Response(status_code=204)

    @app.post("/api/games/{game_id}/move")
    def move(game_id: str, body: Move, token: str | None = Depends(seat_token)) -> dict:
        if body.token is not None:
            raise HTTPException(400, _NOT_IN_URL)
        with lock(game_id):
            row, session = load(game_id)
            seat = needs_seat(row, token, "a move")
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

    def start_agent_move(game_id: str, token: str | None):
        with lock(game_id):
            row, session = load(game_id)
            seat = needs_seat(row, token, "advancing the game")
            if session.over:
                raise HTTPException(409, "the game is over")
            mover, before = session.current, len(session.moves)
            if session.agents[mover] == HUMAN:
                raise HTTPException(409, f"player_{mover} is a person, not an agent")

        def think(stop: threading.Event) -> None:
            action = session.agent_choice()  # the game's lock is free meanwhile
            with lock(game_id):
                if stop.is_set():
                    raise Cancelled("cancelled")
                row, now = load(game_id)
                if len(now.moves) == before:  # else another request played this move
                    now.play(mover, action)
                    commit(row, now)

        try:
            return seat, thinkers.submit(game_id, think)
        except Busy as err:
            raise HTTPException(503, str(err), headers={"Retry-After": "1"}) from None

    @app.post("/api/games/{game_id}/advance")
    async def advance(game_id: str, token: str | None = Depends(seat_token)) -> dict:
        seat, future = await run_in_threadpool(start_agent_move, game_id, token)
        await asyncio.wait([asyncio.wrap_future(future)])
        if future.cancelled() or isinstance(future.exception(), Cancelled):
            raise HTTPException(409, "the agent's move was cancelled: its game was deleted "
                                "or the server is stopping")
        if future.exception() is not None:
            raise future.exception()

        def seen() -> dict:
            with lock(game_id):
                return load(game_id)[1].view(seat)

        return await run_in_threadpool(seen)

    @app.get("/api/games/{game_id}/replay")
    def replay_file(game_id: str) -> Response:
        with lock(game_id):
            row, session = load(game_id)
            if not session.over:
                raise HTTPException(409, "the game is not over: replay files are of finished games")
            record = {**session.record(), "seed_from": row.seed_from}
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

    @app.post("/api/replays", openapi_extra={"requestBody": {"required": True, "content": {
        "application/json": {"schema": {"type": "object", "title": "a replay file"}}}}})
    async def replay_frames(request: Request) -> dict:
        body = await request.body()
        return await run_in_threadpool(uploaded_frames, body)

    app.state.store = store
    app.state.thinkers = thinkers
    return app


def uploaded_frames(body: bytes) -> dict:
    """The frames of an uploaded replay file's content; 400 unless it replays as recorded."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "upload.json"
        path.write_bytes(body)
        try:
            record = replays.load(path)
            replays.replay(record, render=False)  # it must end as recorded
            seats = [a["spec"] for a in record["agents"]]
            moves = [(int(m["actor"].rpartition("_")[2]), m["action"]) for m in record["moves"]]
            return frames(record["env_id"], record["config"], record["seed"], seats, moves)
        except (ValueError, KeyError, TypeError, AttributeError, RecursionError) as err:
            why = str(err).replace(f"{path}: ", "").replace(str(path), "the file")
            raise HTTPException(400, f"not a replay this taas can play: {why}") from None


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
