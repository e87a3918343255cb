"""The tournament's database: ``OUT/tournament.sqlite``, one row per finished game.

Each game is committed in its own transaction the moment it is finished, so a crash (even a
SIGKILL) loses at most the games still being played; a rerun skips the stored ones, and the
primary key (the game's place in the schedule) makes counting one twice impossible. The
tournament's definition is stored in the same file, so a rerun can only continue the same
tournament. Everything else (ratings, reports) is recomputed from these rows.

One tournament writes a folder at a time: a :class:`Store` holds an exclusive lock on
``OUT/tournament.lock`` while open, and a second one in the same folder is refused with one line
(two writers had ended in a raw ``UNIQUE constraint`` traceback). The lock is the operating
system's (``flock``), so a killed run leaves none behind.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

try:
    import fcntl
except ImportError:  # not POSIX: no lock, as before
    fcntl = None

from taas.tournament.play import Outcome
from taas.tournament.roundrobin import Definition, Game

FILENAME = "tournament.sqlite"
LOCKNAME = "tournament.lock"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS definition (
    tournament TEXT PRIMARY KEY,
    definition TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    game INTEGER PRIMARY KEY,       -- place in the schedule
    tournament TEXT NOT NULL,
    deal INTEGER NOT NULL,
    deal_seed INTEGER NOT NULL,
    table_no INTEGER NOT NULL,
    rotation INTEGER NOT NULL,      -- seat order: rotation r seats lineup member i at (i + r) % P
    entrants TEXT NOT NULL,         -- JSON: entrant index per seat
    agents TEXT NOT NULL,           -- JSON: agent spec per seat
    agent_seeds TEXT NOT NULL,      -- JSON: agent seed per seat
    scores TEXT,                    -- JSON: score per seat; NULL for a forfeit
    status TEXT NOT NULL CHECK (status IN ('ok', 'forfeit')),
    forfeit_seat INTEGER,
    error TEXT,
    steps INTEGER NOT NULL,         -- moves made (for a forfeit: before the fault)
    truncated INTEGER NOT NULL,
    duration REAL NOT NULL          -- seconds; the one column that differs between runs
);
"""

COLUMNS = ("game", "tournament", "deal", "deal_seed", "table_no", "rotation", "entrants",
           "agents", "agent_seeds", "scores", "status", "forfeit_seat", "error", "steps",
           "truncated", "duration")


class Store:
    """An open tournament database, bound to one definition."""

    def __init__(self, out: str | Path, definition: Definition):
        path = Path(out) / FILENAME
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._lock = _lock(Path(out))
            self.db = sqlite3.connect(path)
            # WAL without an fsync per commit: a committed game survives the process being
            # killed (only a power cut or OS crash can lose the last ones); fsyncing every
            # game would make the disk, not the games, the tournament's speed limit.
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.executescript(_SCHEMA)
        except (OSError, sqlite3.Error) as err:
            raise ValueError(f"cannot open the tournament database {path}: {err}") from err
        stored = read_definition(out)
        if stored is None:
            with self.db:
                self.db.execute("INSERT INTO definition VALUES (?, ?)",
                                (definition.id, definition.to_json()))
        elif stored != definition:
            self.close()
            raise ValueError(
                f"{path} holds another tournament ({_describe(stored)}); continue it with "
                "--resume, or give another --out"
            )
        self.definition = definition

    def finished(self) -> set[int]:
        return {row[0] for row in self.db.execute("SELECT game FROM games")}

    def write(self, game: Game, outcome: Outcome) -> None:
        """Commit one finished game (its own transaction)."""
        d = self.definition
        row = (
            game.index, d.id, game.deal, game.deal_seed, game.table, game.rotation,
            json.dumps(game.entrants), json.dumps([d.agents[e] for e in game.entrants]),
            json.dumps(game.agent_seeds),
            None if outcome.scores is None else json.dumps(outcome.scores),
            outcome.status, outcome.forfeit_seat, outcome.error, outcome.steps,
            int(outcome.truncated), outcome.duration,
        )
        with self.db:
            self.db.execute(f"INSERT INTO games VALUES ({', '.join('?' * len(COLUMNS))})", row)

    def close(self) -> None:
        self.db.close()
        if self._lock is not None:
            self._lock.close()  # releases the flock


def _lock(out: Path):
    """The open, exclusively locked ``out/tournament.lock`` (None without ``fcntl``);
    ``ValueError`` if another tournament holds it."""
    if fcntl is None:
        return None
    handle = open(out / LOCKNAME, "a")  # noqa: SIM115 (held open for the store's life)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.close()
        raise ValueError(f"another tournament is writing {out} (it holds {out / LOCKNAME}): "
                         "wait for it to finish, or give another --out") from None
    return handle


def read_definition(out: str | Path) -> Definition | None:
    """The definition stored in ``out``, None if there is no tournament there."""
    path = Path(out) / FILENAME
    if not path.exists():
        return None
    with sqlite3.connect(path) as db:
        try:
            row = db.execute("SELECT definition FROM definition").fetchone()
        except sqlite3.Error as err:
            raise ValueError(f"{path} is not a tournament database: {err}") from err
    return None if row is None else Definition.from_json(row[0])


def read_games(out: str | Path) -> list[dict]:
    """Every stored game in schedule order, JSON columns decoded."""
    path = Path(out) / FILENAME
    if not path.exists():
        raise ValueError(f"no tournament in {out} (no {FILENAME})")
    with sqlite3.connect(path) as db:
        rows = db.execute(f"SELECT {', '.join(COLUMNS)} FROM games ORDER BY game").fetchall()
    games = []
    for row in rows:
        game = dict(zip(COLUMNS, row, strict=True))
        for key in ("entrants", "agents", "agent_seeds", "scores"):
            if game[key] is not None:
                game[key] = json.loads(game[key])
        game["truncated"] = bool(game["truncated"])
        games.append(game)
    return games


def _describe(d: Definition) -> str:
    return (f"{d.env_id}, agents {','.join(d.agents)}, {d.players} players, {d.deals} deals, "
            f"seed {d.seed}, format {d.format}")
