"""The web table's games in SQLite: one row per game holding what rebuilds it (env id, rules,
seed, the spec in each seat, the seats' token hashes, the moves) and who may see what of it
(where the seed came from, the client that created it). Every change is one committed
transaction, so a killed server loses at most the move it was answering.

Seat tokens are stored as SHA-256 hashes: a copy of the store seats nobody at a table. An idle
game is deleted with its tokens by :meth:`Store.expire`."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from dataclasses import dataclass

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    env_id TEXT NOT NULL,
    rules TEXT NOT NULL,
    seed INTEGER NOT NULL,
    agents TEXT NOT NULL,
    tokens TEXT NOT NULL,
    moves TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    seed_from TEXT NOT NULL DEFAULT 'server',
    client TEXT NOT NULL DEFAULT ''
)
"""
_COLUMNS = "id, env_id, rules, seed, agents, tokens, moves, seed_from, client"


def token_hash(token: str) -> str:
    """What the store keeps of a seat token (hex SHA-256 of its UTF-8)."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class GameRow:
    """One stored game; ``tokens`` maps each person's seat to its token's :func:`token_hash`;
    ``seed_from`` is ``"server"`` (a secret deal) or ``"client"`` (chosen by its one person)."""

    id: str
    env_id: str
    rules: dict
    seed: int
    agents: list[str]
    tokens: dict[int, str]
    moves: list[tuple[int, int]]
    seed_from: str = "server"
    client: str = ""


class Store:
    """Games by id in the SQLite file ``path`` (created if missing); ``ValueError`` with one
    line if it cannot be opened or written."""

    def __init__(self, path: str):
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(path, check_same_thread=False)
            with self._lock, self._db:
                self._db.execute(_SCHEMA)
                self._upgrade()
        except sqlite3.Error as err:
            raise ValueError(f"cannot use {path} as the games store: {err}") from None

    def _upgrade(self) -> None:
        """A store written before tokens were hashed: add the new columns, hash the tokens."""
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(games)")}
        if "seed_from" in columns:
            return
        self._db.execute("ALTER TABLE games ADD COLUMN seed_from TEXT NOT NULL DEFAULT 'server'")
        self._db.execute("ALTER TABLE games ADD COLUMN client TEXT NOT NULL DEFAULT ''")
        for gid, tokens in self._db.execute("SELECT id, tokens FROM games").fetchall():
            hashed = {k: token_hash(v) for k, v in json.loads(tokens).items()}
            self._db.execute("UPDATE games SET tokens = ? WHERE id = ?", (json.dumps(hashed), gid))

    def add(self, row: GameRow) -> None:
        now = time.time()
        with self._lock, self._db:
            self._db.execute(
                f"INSERT INTO games ({_COLUMNS}, created, updated) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (row.id, row.env_id, json.dumps(row.rules), row.seed, json.dumps(row.agents),
                 json.dumps({str(k): v for k, v in row.tokens.items()}),
                 json.dumps(row.moves), row.seed_from, row.client, now, now),
            )

    def get(self, game_id: str) -> GameRow | None:
        with self._lock:
            found = self._db.execute(
                f"SELECT {_COLUMNS} FROM games WHERE id = ?", (game_id,)
            ).fetchone()
        if found is None:
            return None
        gid, env_id, rules, seed, agents, tokens, moves, seed_from, client = found
        return GameRow(gid, env_id, json.loads(rules), seed, json.loads(agents),
                       {int(k): v for k, v in json.loads(tokens).items()},
                       [tuple(m) for m in json.loads(moves)], seed_from, client)

    def set_moves(self, game_id: str, moves: list[tuple[int, int]]) -> None:
        with self._lock, self._db:
            self._db.execute(
                "UPDATE games SET moves = ?, updated = ? WHERE id = ?",
                (json.dumps(moves), time.time(), game_id),
            )

    def ids(self) -> list[str]:
        with self._lock:
            return [r[0] for r in self._db.execute("SELECT id FROM games ORDER BY created")]

    def count(self, client: str | None = None) -> int:
        """Games stored (of ``client`` only, if given)."""
        query, args = "SELECT COUNT(*) FROM games", ()
        if client is not None:
            query, args = query + " WHERE client = ?", (client,)
        with self._lock:
            return self._db.execute(query, args).fetchone()[0]

    def delete(self, game_id: str) -> bool:
        with self._lock, self._db:
            return self._db.execute("DELETE FROM games WHERE id = ?", (game_id,)).rowcount > 0

    def expire(self, idle_seconds: float) -> list[str]:
        """Delete the games with no move for ``idle_seconds``; their ids."""
        cutoff = time.time() - idle_seconds
        with self._lock, self._db:
            gone = [r[0] for r in self._db.execute(
                "SELECT id FROM games WHERE updated < ?", (cutoff,))]
            self._db.execute("DELETE FROM games WHERE updated < ?", (cutoff,))
        return gone

    def close(self) -> None:
        self._db.close()
