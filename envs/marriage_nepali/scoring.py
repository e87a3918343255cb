"""Score helpers behind ``taas score marriage_nepali`` and ``taas settle``: JSON-ready answers
for players checking a round by hand, built only from the pure rule functions (wilds, combos,
maal, settlement), so the helpers and the engine cannot disagree.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from taas.envs.core.cards import JOKER, card_str, check_hand, parse_card, parse_cards, shoe
from taas.envs.core.config import build_config
from taas.envs.marriage_nepali import combos, maal, settlement, wilds
from taas.envs.marriage_nepali.config import DECKS, GAME, HAND_SIZE, Config


def in_play(config: Config, tiplu: int) -> np.ndarray:
    """Count vector of the cards a holding can come from: the shoe less the tiplu card."""
    cards = shoe(DECKS, config.printed_jokers)
    cards[tiplu] -= 1
    return cards


def score_hand(hand: str, tiplu: str, seen: bool = False, exposed: str = "",
               route: str = "sequence", **flags) -> dict:
    """Maal of a holding and, for a seen player's concealed cards after a draw, the finishing
    discards (spec 2N.7, 2N.9.4), JSON-ready.

    ``hand``: the player's cards (``exposed`` starting tunnelas included); ``maal`` is S with
    ``unseen_maal`` applied when ``seen`` is false ("murder" and "kidnap" leave 0). With
    ``seen`` and at most 13 cards (3k+1) on the sequence route, ``finish_discards`` lists the
    faces whose discard leaves cards that split into valid combinations and ``combinations``
    one arrangement after the first; on the dublee route with at most 8 cards, the faces whose
    discard leaves a dublee. ``tiplu`` is the tiplu card: ``JK`` under ``printed_jokers=3``
    and ``man_tiplu="spades_ace"`` (A♠ plays as tiplu; ``tiplu_card`` then says ``JK``).
    """
    config = build_config(Config, GAME, flags)
    if route not in ("sequence", "dublee"):
        raise ValueError(f"route {route!r}: expected 'sequence' or 'dublee'")
    t = parse_card(tiplu)
    role = wilds.roles(t, config.printed_jokers, config.man_tiplu)
    cards = parse_cards(hand)
    check_hand(cards, in_play(config, t), range(1, HAND_SIZE + 2), GAME)
    holding = np.bincount(cards, minlength=JOKER + 1).astype(np.int8)
    tunnelas = _tunnelas(parse_cards(exposed), holding)
    counted = maal.count_maal(holding, role, config,
                              maal.scoped_tunnelas(config, holding, tunnelas), seen)
    raw = counted["maal"]
    out = {
        **role.as_json(),
        "seen": seen,
        "raw_maal": raw,
        "maal": raw if seen or config.unseen_maal == "count" else 0,
        "maal_items": counted["items"],
        "finish_discards": None,
        "combinations": None,
    }
    concealed = holding.copy()
    for face in tunnelas:
        concealed[face] -= 3
    size = int(concealed.sum())
    if seen and route == "sequence" and size <= 13 and size % 3 == 1:
        splitter = combos.Splitter(role.wild, config.ace_sequence == "both_ends",
                                   config.max_meld_size)
        found = splitter.closing_discards(concealed)
        out["finish_discards"] = [card_str(c) for c in found]
        if found:
            concealed[found[0]] -= 1
            out["combinations"] = [[card_str(c) for c in combo]
                                   for combo in splitter.split(concealed)]
    elif seen and route == "dublee" and size <= 8:
        found = combos.dublee_discards(concealed, config.dublee_kinds)
        out["finish_discards"] = [card_str(c) for c in found]
    return out


def _tunnelas(cards: list[int], holding: np.ndarray) -> list[int]:
    """The faces of exposed starting tunnelas given as their cards (``"4D 4D 4D"``)."""
    counts = np.bincount(cards, minlength=JOKER + 1) if cards else np.zeros(JOKER + 1, int)
    if (counts % 3).any():
        raise ValueError("--exposed: expected whole tunnelas, three identical cards each")
    faces = [int(k) for k in np.flatnonzero(counts)]
    missing = [card_str(k) for k in faces if holding[k] < 3]
    if missing:
        raise ValueError(f"exposed tunnela {missing[0]} is not in the hand three times")
    return faces


def settle_round(maal_values: Sequence[int], seen: Sequence[bool], winner: int,
                 winner_route: str = "sequence", dublee_losers: Iterable[int] = (),
                 **flags) -> dict:
    """Every player's ``net`` (and ``money`` = net × stake) for a finished round, JSON-ready;
    ``maal_values`` are raw (an unseen player's as if counted, spec 2N.14 item 8)."""
    n = len(maal_values)
    config = build_config(Config, GAME, {"num_players": max(2, min(n, 6)),
                                         "max_players": 6 if n == 6 else 5, **flags})
    dublee = list(dublee_losers)
    net = settlement.settle(maal_values, seen, winner, config, winner_route, dublee)
    return {
        "maal": settlement.effective_maal(maal_values, seen, winner, config),
        "payments": settlement.game_payments(seen, winner, config, winner_route, dublee),
        "net": net,
        "money": [x * config.stake for x in net],
    }
