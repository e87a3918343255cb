"""Run a tournament: schedule, skip what the database already holds, play the rest, store each
game as it finishes."""

from __future__ import annotations

from pathlib import Path

from tqdm import tqdm

from taas.arena import replay as replays
from taas.tournament import backends
from taas.tournament.roundrobin import Definition, Game, schedule
from taas.tournament.store import Store


def record_path(out: str | Path, game: Game) -> Path:
    """Where ``--record`` writes ``game``'s replay file."""
    name = f"deal{game.deal:05d}-table{game.table:03d}-rot{game.rotation}.json"
    return Path(out) / "replays" / name


def run(
    definition: Definition,
    out: str | Path,
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
    record: bool = False,
    progress: bool = True,
) -> tuple[int, int]:
    """Play every game of ``definition`` not yet stored in ``out``; (games played now, games
    already stored). ``record`` also writes each game that ends normally as a replay file."""
    if workers < 1:
        raise ValueError(f"workers={workers}: use 1 or more")
    if backend not in backends.BACKENDS:
        raise ValueError(f"backend {backend!r}: expected one of {', '.join(backends.BACKENDS)}")
    store = Store(out, definition)
    try:
        games = schedule(definition)
        done = store.finished()
        todo = {g.index: g for g in games if g.index not in done}
        work = backends.batches(list(todo.values()), workers)
        if backend == "ray":
            stream = backends.ray(definition, work, workers, record, address)
        else:
            stream = backends.local(definition, work, workers, record)
        with tqdm(total=len(games), initial=len(done), disable=not progress, unit="game",
                  desc=definition.env_id) as bar:
            for outcomes in stream:
                for outcome in outcomes:
                    game = todo[outcome.index]
                    if outcome.record is not None:  # before the row: a stored game has its file
                        replays.save(outcome.record, record_path(out, game))
                    store.write(game, outcome)
                    bar.update()
    finally:
        store.close()
    return len(todo), len(done)
