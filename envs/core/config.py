"""Validation helpers shared by every game's frozen ``Config`` dataclass."""

from __future__ import annotations

from dataclasses import fields
from typing import Any, TypeVar

import numpy as np

T = TypeVar("T")


def plain(value: Any) -> Any:
    """A NumPy integer or bool as the Python int or bool it stands for (``num_players`` taken
    from an array is a fine rule value), anything else unchanged, so configs hold plain values
    that compare, hash and serialise to JSON like the defaults do."""
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, np.integer):
        return int(value)
    return value


def plain_fields(config: Any) -> None:
    """Apply :func:`plain` to every field of a frozen dataclass in place; a ``Config`` calls it
    first thing in ``__post_init__``, before validating."""
    for f in fields(config):
        value = getattr(config, f.name)
        if plain(value) is not value:
            object.__setattr__(config, f.name, plain(value))


def check_choice(game: str, name: str, value: Any, allowed) -> None:
    """``ValueError`` unless ``value`` is one of ``allowed`` and of the same type (so ``1`` is
    not accepted for a boolean flag, nor ``True`` for a count)."""
    first = next(iter(allowed))
    if type(value) is not type(first) or value not in allowed:
        shown = (
            f"{allowed.start}..{allowed.stop - 1}" if isinstance(allowed, range) else list(allowed)
        )
        kind = f" ({type(first).__name__}, not {type(value).__name__})" * (
            type(value) is not type(first)
        )
        raise ValueError(
            f"{name}={value!r} is not a valid {game} rule; expected one of {shown}{kind}"
        )


def check_optional_int(game: str, name: str, value: Any, minimum: int) -> None:
    """``ValueError`` unless ``value`` is ``None`` or an int >= ``minimum``."""
    if value is not None and (type(value) is not int or value < minimum):
        raise ValueError(
            f"{name}={value!r} is not a valid {game} rule; expected None or an int >= {minimum}"
        )


def build_config(cls: type[T], game: str, rules: dict[str, Any]) -> T:
    """``cls(**rules)``, but an unknown rule name is a ``ValueError`` listing the known ones;
    NumPy integers and bools are passed as plain ones (see :func:`plain`)."""
    known = [f.name for f in fields(cls)]
    unknown = sorted(set(rules) - set(known))
    if unknown:
        raise ValueError(f"unknown {game} rule(s) {unknown}; known: {known}")
    return cls(**{k: plain(v) for k, v in rules.items()})


def parse_rule(text: str) -> tuple[str, object]:
    """``NAME=VALUE`` from a command line (``--rule allow_buying=false``): true/false, none and
    integers are converted, anything else stays a string for the Config to validate."""
    name, sep, value = text.partition("=")
    if not sep:
        raise ValueError(f"--rule {text!r}: expected NAME=VALUE")
    lowered = value.lower()
    if lowered in ("true", "false"):
        return name, lowered == "true"
    if lowered == "none":
        return name, None
    try:
        return name, int(value)
    except ValueError:
        return name, value


def given(options: dict) -> dict:
    """The command-line options the user set (argparse leaves the others None)."""
    return {k: v for k, v in options.items() if v is not None}
