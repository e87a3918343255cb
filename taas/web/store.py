"""The web table's games in SQLite: one row per game holding what rebuilds it (env id, rules,
seed, the spec in each seat, the seats' tokens, the moves). Every change is one committed
transaction, so a killed server loses at most the move it was answering."""

from __future__ import annotations

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
    updated REAL NOT NULL
)
"""


@dataclass
class GameRow:
    """One stored game; ``tokens`` maps each person's seat to its secret."""

    id: str
    env_id: str
    rules: dict
    seed: int
    agents: list[str]
    tokens: dict[int, str]
    moves: list[tuple[int, int]]


class Store:
    """Games by id in the SQLite file ``path`` (created if missing)."""

    def __init__(self, path: str):
        self._db = sqlite3.connect(path, check_same_thread=False)
        self._lock = threading.Lock()
        with self._lock, self._db:
            self._db.execute(_SCHEMA)

    def add(self, row: GameRow) -> None:
        now = time.time()
        with self._lock, self._db:
            self._db.execute(
                "INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (row.id, row.env_id, json.dumps(row.rules), row.seed, json.dumps(row.agents),
                 json.dumps({str(k): v for k, v in row.tokens.items()}),
                 json.dumps(row.moves), now, now),
            )

    def get(self, game_id: str) -> GameRow | None:
        with self._lock:
            found = self._db.execute(
                "SELECT id, env_id, rules, seed, agents, tokens, moves FROM games WHERE id = ?",
                (game_id,),
            ).fetchone()
        if found is None:
            return None
        gid, env_id, rules, seed, agents, tokens, moves = found
        return GameRow(gid, env_id, json.loads(rules), seed, json.loads(agents),
                       {int(k): v for k, v in json.loads(tokens).items()},
                       [tuple(m) for m in json.loads(moves)])

    def set_moves(self, game_id: str, moves: list[tuple[int, int]]) -> None:
        with self._lock, self._db:
            self._db.execute(
                "UPDATE games SET moves = ?, updated = ? WHERE id = ?",
                (json.dumps(moves), time.time(), game_id),
            )

    def ids(self) -> list[str]:
        with self._lock:
            return [r[0] for r in self._db.execute("SELECT id FROM games ORDER BY created")]

    def close(self) -> None:
        self._db.close()
