"""Validation helpers shared by every game's frozen ``Config`` dataclass."""

from __future__ import annotations

from dataclasses import fields
from typing import Any, TypeVar

T = TypeVar("T")


def check_choice(game: str, name: str, value: Any, allowed) -> None:
    """``ValueError`` unless ``value`` is one of ``allowed`` and of the same type (so ``1`` is
    not accepted for a boolean flag, nor ``True`` for a count)."""
    first = next(iter(allowed))
    if type(value) is not type(first) or value not in allowed:
        shown = (
            f"{allowed.start}..{allowed.stop - 1}" if isinstance(allowed, range) else list(allowed)
        )
        raise ValueError(f"{name}={value!r} is not a valid {game} rule; expected one of {shown}")


def check_optional_int(game: str, name: str, value: Any, minimum: int) -> None:
    """``ValueError`` unless ``value`` is ``None`` or an int >= ``minimum``."""
    if value is not None and (type(value) is not int or value < minimum):
        raise ValueError(
            f"{name}={value!r} is not a valid {game} rule; expected None or an int >= {minimum}"
        )


def build_config(cls: type[T], game: str, rules: dict[str, Any]) -> T:
    """``cls(**rules)``, but an unknown rule name is a ``ValueError`` listing the known ones."""
    known = [f.name for f in fields(cls)]
    unknown = sorted(set(rules) - set(known))
    if unknown:
        raise ValueError(f"unknown {game} rule(s) {unknown}; known: {known}")
    return cls(**rules)
