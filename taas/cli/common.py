"""Argument helpers the subcommands share (``taas.cli.common``)."""

from __future__ import annotations

import argparse
import json

import numpy as np


def positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number, 1 or more (got {text!r})")
    return value


def seed_arg(text: str) -> int:
    """A seed from the command line: a whole number, 0 or more (named here, not deep in NumPy)."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a whole number, 0 or more (got {text!r})")
    return value


def add_rule_option(parser: argparse.ArgumentParser, example: str = "allow_buying=true",
                    what: str = "a rule flag") -> None:
    parser.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                        help=f"{what}, e.g. --rule {example} (repeatable)")


def parse_agents(text: str) -> list[str]:
    """Comma-separated agent specs; spaces around them are ignored."""
    specs = [s.strip() for s in text.split(",")]
    if not all(specs):
        raise ValueError(f"--agents {text!r}: an empty agent spec; give one spec per seat")
    return specs


def random_seed(seed: int | None) -> int:
    """``seed``, or a fresh one (printed by the caller, so the game can be replayed)."""
    return int(np.random.SeedSequence().entropy % 2**31) if seed is None else seed


def print_result(result: dict, as_json: bool) -> None:
    if as_json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            shown = " ".join(map(str, value)) if isinstance(value, list) else value
            print(f"{key}: {shown}")
