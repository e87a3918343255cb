"""What the human table shows of Marriage (``taas.envs.marriage.view``): the indicator and the
wild rank, dublees set aside, and the engine's own meld arrangement of one's hand."""

from __future__ import annotations

import numpy as np

from taas.envs.core.cards import RANKS, from_counts
from taas.envs.rummy.view import RummyView, kinds


class MarriageView(RummyView):
    def round_facts(self, state) -> list[dict]:
        wild = "printed jokers only" if state.wild_rank < 0 else RANKS[state.wild_rank]
        return [{"label": "indicator", "cards": [int(state.indicator)]},
                {"label": "wild rank", "text": wild}]

    def seat_notes(self, game, state, seat: int) -> list[dict]:
        notes = super().seat_notes(game, state, seat)
        if state.set_aside[seat].any():
            notes.append({"label": "set aside", "cards": from_counts(state.set_aside[seat])})
        return notes

    def private(self, game, state, seat: int) -> dict:
        return {"wild": [int(k) for k in np.flatnonzero(state.wild)]}

    def melds(self, game, state, seat: int) -> dict | None:
        report = game.scorer(state).report(state.hands[seat])
        return {
            "melds": [{"cards": kinds(m["cards"]), "life": m["life"]} for m in report["melds"]],
            "deadwood": kinds(report["deadwood"]),
            "penalty": report["penalty"],
        }

    def report(self, h: dict) -> dict:
        if h["void"]:
            title = f"round {h['round']}: void, nothing left to draw"
        else:
            title = f"round {h['round']}: player_{h['winner']} showed"
        hands = []
        for q, p in sorted(h["players"].items()):
            if "melds" not in p:
                note = "invalid show: out of the round" if p.get("invalid_show") else "void round"
                hands.append({"seat": q, "melds": [], "deadwood": kinds(p["hand"]),
                              "penalty": p["penalty"], "note": note})
                continue
            hands.append({
                "seat": q,
                "melds": [{"cards": kinds(m["cards"]), "life": m["life"]} for m in p["melds"]],
                "deadwood": kinds(p["deadwood"]),
                "penalty": p["penalty"],
                "note": "showed" if q == h["winner"] else "",
            })
        wild = h["wild_rank"] or "none (printed jokers)"
        return {"title": title, "lines": [f"indicator {h['indicator']}, wild rank {wild}"],
                "hands": hands}
