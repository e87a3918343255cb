"""Write a trained model as the package ships it: the header and the actor, without the
critic, which only training reads (an ``--oracle-critic`` one is several times the actor).

    python -m taas.training.ship_model runs/romme_oracle/model.pt agents/models/romme.pt

A run continued from a shipped model (``--init-from``) starts a fresh critic; continue from
the run's own ``model.pt`` to keep it.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from taas.agents.learned.ppo import CheckpointError, load_checkpoint, write_checkpoint


def ship(source: str | Path, target: str | Path) -> int:
    """Copy ``source`` to ``target`` without its critic; returns the new file's bytes."""
    try:
        ckpt = load_checkpoint(source)
    except CheckpointError as err:
        raise SystemExit(f"ship_model: {err}") from None
    ckpt.pop("critic", None)
    write_checkpoint(target, ckpt)
    return Path(target).stat().st_size


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", help="a model.pt written by a training script")
    parser.add_argument("target", help="where the shipped model goes")
    args = parser.parse_args(argv)
    size = ship(args.source, args.target)
    print(f"{args.target}: {size / 1e6:.2f} MB, actor only")


if __name__ == "__main__":
    main()
