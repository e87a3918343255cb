"""Where games are played: in this process, in local worker processes, or as Ray tasks.

Each backend takes batches of games and yields each batch's outcomes as it completes; only the
caller (the single writer) touches the database. A game's outcome is a pure function of the
definition and the game, so the backends differ in speed, never in results.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed

from taas.tournament.play import Outcome, play_games
from taas.tournament.roundrobin import Definition, Game

BACKENDS = ("local", "ray")


def batches(games: list[Game], workers: int) -> list[list[Game]]:
    """Split ``games`` into batches: small enough to keep every worker busy to the end and to
    write results often, big enough that sending one costs little next to playing it."""
    size = 1 if workers == 1 else max(1, min(32, len(games) // (workers * 8)))
    return [games[i : i + size] for i in range(0, len(games), size)]


def _exit_with(parent: int) -> None:
    """Worker initializer: end this worker when the tournament process dies (a killed parent
    leaves its pool's workers playing games nobody will store)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


def local(
    definition: Definition, work: list[list[Game]], workers: int, record: bool
) -> Iterator[list[Outcome]]:
    """``workers`` processes (this process itself for one)."""
    if workers == 1:
        for batch in work:
            yield play_games(definition, batch, record)
        return
    with ProcessPoolExecutor(workers, initializer=_exit_with, initargs=(os.getpid(),)) as pool:
        futures = [pool.submit(play_games, definition, batch, record) for batch in work]
        try:
            for future in as_completed(futures):
                yield future.result()
        finally:  # stopped early (an error, Ctrl-C): drop the games not started
            for future in futures:
                future.cancel()


def ray(
    definition: Definition,
    work: list[list[Game]],
    workers: int,
    record: bool,
    address: str | None = None,
) -> Iterator[list[Outcome]]:
    """Ray tasks on the cluster at ``address`` (``auto``, ``HOST:PORT``), or on a local Ray
    started here with ``workers`` CPUs when there is no address."""
    try:
        import ray as ray_lib
    except ImportError as err:
        raise ValueError(
            "--backend ray needs Ray: from a checkout, pip install -e '.[ray]'"
        ) from err
    started = not ray_lib.is_initialized()
    if started:
        if address:
            ray_lib.init(address=address, log_to_driver=False)
        else:
            ray_lib.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
    try:
        task = ray_lib.remote(play_games)
        pending = [task.remote(definition, batch, record) for batch in work]
        while pending:
            done, pending = ray_lib.wait(pending, num_returns=1)
            yield ray_lib.get(done[0])
    finally:
        if started:
            ray_lib.shutdown()
