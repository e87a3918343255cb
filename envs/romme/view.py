"""What the human table shows of Rommé (``taas.envs.romme.view``): the melds on the table too."""

from __future__ import annotations

from taas.envs.rummy.view import RummyView, kinds


class RommeView(RummyView):
    def table_facts(self, state) -> list[dict]:
        melds = [{"label": f"meld of player_{m.owner}", "cards": list(m.cards())}
                 for m in state.melds]
        return [*super().table_facts(state), *melds]

    def charges(self, record: dict) -> list[int]:
        return [int(p["charge"]) for p in record["players"]]

    def report(self, h: dict) -> dict:
        title = (f"round {h['round']}: player_{h['went_out']} went out" if h["went_out"] >= 0
                 else f"round {h['round']}: blocked")
        lines = [f"table: {m['cards']} (player_{m['owner']})" for m in h["melds"]]
        hands = [{"seat": q, "melds": [], "deadwood": kinds(p["hand"].split()),
                  "penalty": p["charge"], "note": p["reason"]}
                 for q, p in enumerate(h["players"])]
        return {"title": title, "lines": lines, "hands": hands}
