"""Maal counting (spec 2N.9.2-2N.9.4, 2N.14 items 5, 6, 13): the points a holding is worth once
the tiplu is known.

Values are "for holding 1/2/3 of the item", not per card; past a table's last step each further
starting tunnela adds 10, and so does a third tiplu or marriage (**ASSUMPTION**: they exist only
under ``man_tiplu="spades_ace"``, where all three A♠ are tiplus: 3/8/18, pagat 3/7/17; a starting
tunnela of the tiplu face then earns no bonus and counts as three tiplus). The marriage count is
optimised, not maximised: with one tiplu and three each of poplu and jhiplu, no marriage
(3 + 10 + 10) beats one (10 + 5 + 5).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from taas.envs.core.cards import JOKER, card_str
from taas.envs.marriage_nepali.config import Config
from taas.envs.marriage_nepali.wilds import Roles

# item -> values for holding 1, 2, 3 of it (spec 2N.9.3)
TABLES = {
    "common": {
        "tiplu": (3, 8),
        "poplu": (2, 5, 10),
        "jhiplu": (2, 5, 10),
        "alter": (5, 15, 25),
        "marriage": (10, 30),
        "man": (5, 15, 25),
        "tunnela": (5, 15, 25),
        "joker_tunnela": (10, 20, 30),
        "maal_tunnela": (15, 35),
        "alter_tunnela": (35,),
        "man_tunnela": (45,),
    },
    "pagat": {
        "tiplu": (3, 7),
        "poplu": (2, 5, 10),
        "jhiplu": (2, 5, 10),
        "alter": (0, 0, 0),
        "marriage": (10, 30),
        "man": (0, 0, 0),
        # "5 each" etc.: listed up to 7 (a 21-card holding holds at most 7 tunnelas)
        "tunnela": (5, 10, 15, 20, 25, 30, 35),
        "joker_tunnela": (10, 20),
        "maal_tunnela": (20, 40),
        "alter_tunnela": (10,),  # as an ordinary-joker tunnela (spec 2N.14 item 5)
        "man_tunnela": (0,),
    },
}


def value(values: tuple[int, ...], count: int) -> int:
    """The value of holding ``count`` of an item (0 for none; +10 per step past the table)."""
    if count <= 0:
        return 0
    if count <= len(values):
        return values[count - 1]
    return values[-1] + 10 * (count - len(values))


def tunnela_category(face: int, roles: Roles) -> str:
    """The starting-tunnela category of ``face`` once the tiplu is known."""
    if face == JOKER:
        return "man_tunnela"
    if face in (roles.poplu, roles.jhiplu):
        return "maal_tunnela"
    if face == roles.alter:
        return "alter_tunnela"
    if face in roles.ordinary_jokers:
        return "joker_tunnela"
    return "tunnela"


def scoped_tunnelas(config: Config, holding: np.ndarray, exposed: Iterable[int],
                    shown: Iterable[Iterable[int]] = ()) -> list[int]:
    """Faces of the tunnelas that earn the tunnela bonus under ``tunnela_bonus_scope``:
    ``exposed`` are the starting tunnelas exposed at the deal, ``shown`` the primary
    combinations shown (exposed tunnelas count among them)."""
    scope = config.tunnela_bonus_scope
    exposed = list(exposed)
    if scope == "initial":
        return exposed
    if scope == "shown":
        return exposed + [c[0] for c in map(list, shown) if len(set(c)) == 1 and len(c) == 3]
    if scope == "hand":
        return [int(k) for k in np.flatnonzero(np.asarray(holding) >= 3)]
    return []


def count_maal(holding: np.ndarray, roles: Roles, config: Config,
               tunnelas: Iterable[int] = (), seen: bool = True,
               shown_marriages: int = 0) -> dict:
    """Maal of a holding (count vector of every card the player owns at the end) as if counted
    (spec 2N.9.4 steps 2-5), with the items behind it, JSON-ready.

    ``tunnelas``: faces of starting tunnelas in scope (:func:`scoped_tunnelas`); their cards are
    removed before counting. ``shown_marriages``: marriages shown as primary combinations,
    scored with ``shown_marriage_values`` when that flag is on. ``seen=False`` applies only
    ``tunnel_pachaunu`` (count mode); murder and kidnap belong to the settlement.
    """
    table = TABLES[config.maal_table]
    rest = np.array(holding, np.int16)
    items: list[dict] = []
    by_category: dict[str, list[int]] = {}
    for face in tunnelas:
        if rest[face] < 3:
            raise ValueError(f"tunnela {card_str(face)}: the holding has no three of it")
        if face == roles.tiplu:  # three A♠ (spades-ace rule): counted as tiplus, see above
            continue
        rest[face] -= 3
        by_category.setdefault(tunnela_category(face, roles), []).append(face)
    pachaunu = not seen and config.tunnel_pachaunu and config.unseen_maal == "count"
    for category, faces in by_category.items():
        points = 0 if pachaunu else value(table[category], len(faces))
        items.append({"item": category, "cards": [card_str(f) for f in faces], "points": points})
    marriages = 0
    if config.shown_marriage_values is not None and shown_marriages:
        for face in (roles.tiplu, roles.poplu, roles.jhiplu):
            rest[face] -= shown_marriages
        if (rest < 0).any():
            raise ValueError("a shown marriage needs its tiplu, poplu and jhiplu in the holding")
        marriages = shown_marriages
        items.append({"item": "shown_marriage", "count": marriages,
                      "points": value(config.shown_marriage_values, marriages)})
    c_t, c_p, c_j = (int(rest[f]) for f in (roles.tiplu, roles.poplu, roles.jhiplu))

    def total(m: int) -> int:
        return (value(table["marriage"], m) + value(table["tiplu"], c_t - m)
                + value(table["poplu"], c_p - m) + value(table["jhiplu"], c_j - m))

    best = max(range(min(c_t, c_p, c_j) + 1), key=lambda m: (total(m), -m))
    counts = {"marriage": best, "tiplu": c_t - best, "poplu": c_p - best,
              "jhiplu": c_j - best, "alter": int(rest[roles.alter]),
              "man": int(rest[JOKER])}
    for item, n in counts.items():
        if n:
            items.append({"item": item, "count": n, "points": value(table[item], n)})
    return {"maal": sum(i["points"] for i in items), "items": items}
