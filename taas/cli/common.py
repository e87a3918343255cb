"""Argument helpers the subcommands share (``taas.cli.common``)."""

from __future__ import annotations

import argparse
import json

import numpy as np


def _at_least(least: int, text: str) -> int:
    """``text`` as a whole number of at least ``least``, or argparse's one-line refusal (named
    here, not deep in NumPy or the engine)."""
    try:
        value = int(text)
    except ValueError:
        value = least - 1
    if value < least:
        raise argparse.ArgumentTypeError(f"expected a whole number, {least} or more (got {text!r})")
    return value


def positive(text: str) -> int:
    """A count: 1 or more."""
    return _at_least(1, text)


def seed_arg(text: str) -> int:
    """A seed: 0 or more."""
    return _at_least(0, text)


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
