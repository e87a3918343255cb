"""A game's flat action layout declared once, as a table of named id ranges.

Each game's ``actions.py`` lists its ranges as ``(name, first id, count)`` (optionally with a
label function for the index inside the range); the table checks that they tile ``0..N-1``
and answers ``action_to_str`` and range lookups, so no game writes an ``if`` ladder.

    LAYOUT = ActionTable([("draw", 0, 1), ("take", 1, 1), ("discard", 2, 53)])
    LAYOUT.to_str(9)        # "discard 8S"
    LAYOUT.lookup(9)        # ("discard", 7)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from taas.envs.core.cards import card_str

Label = Callable[[int], str]
Range = tuple[str, int, int] | tuple[str, int, int, Label]


class ActionTable:
    """Named, contiguous id ranges covering ``0..size-1``.

    A range of one id prints as its name; a longer range prints ``"name label(i)"`` for the
    ``i``-th id in it, the label being the card name of kind ``i`` unless the range gives its
    own (e.g. a meld shape, a suit).
    """

    def __init__(self, ranges: Sequence[Range]):
        self.ranges = [(r[0], r[1], r[2]) for r in ranges]
        expected = 0
        for name, first, count in self.ranges:
            if first != expected or count < 1:
                raise ValueError(
                    f"action range {name!r} starts at {first} with {count} ids; ranges must "
                    f"tile the ids in order, so it should start at {expected} with >= 1 id"
                )
            expected = first + count
        self.size = expected
        self._names: list[str] = []
        self._lookup: list[tuple[str, int]] = []
        for name, _first, count, *label in ranges:
            show = label[0] if label else card_str
            for i in range(count):
                self._names.append(name if count == 1 else f"{name} {show(i)}")
                self._lookup.append((name, i))

    def _check(self, action: int) -> int:
        a = int(action)
        if not 0 <= a < self.size:
            raise ValueError(f"action {action} is outside 0..{self.size - 1}")
        return a

    def to_str(self, action: int) -> str:
        """``"draw"``, ``"discard 7H"``: the range's name and, in a longer range, the label."""
        return self._names[self._check(action)]

    def lookup(self, action: int) -> tuple[str, int]:
        """The range name of ``action`` and its index inside the range."""
        return self._lookup[self._check(action)]
