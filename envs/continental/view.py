"""What the human table shows of Continental Rummy (``taas.envs.continental.view``)."""

from __future__ import annotations

from taas.envs.rummy.view import RummyView, kinds


class ContinentalView(RummyView):
    def report(self, h: dict) -> dict:
        w = h["went_out"]
        hands = []
        for q, charge in enumerate(h["penalties"]):
            if q == w:
                melds = [{"cards": kinds(g.split()), "life": False} for g in h["groups"]]
                hands.append({"seat": q, "melds": melds, "deadwood": [], "penalty": charge,
                              "note": "went out"})
            elif q in h["hands"]:  # seats sitting out a tie-break have no hand
                hands.append({"seat": q, "melds": [], "deadwood": kinds(h["hands"][q].split()),
                              "penalty": charge, "note": ""})
        return {"title": f"round {h['round']}: player_{w} went out", "lines": [], "hands": hands}
