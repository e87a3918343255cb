"""What the human table shows of Mariage (``taas.envs.mariage.view``): trump, the talon and
its trump card, the trick, each player's score and tricks, the game points of the match."""

from __future__ import annotations

from taas.envs.core.cards import JOKER, RANKS, SUITS
from taas.envs.core.view import TableView
from taas.envs.mariage.actions import KIND

_ORDER = {0: 0, 9: 1, 12: 2, 11: 3, 10: 4, 8: 5, 7: 6, 6: 7}  # A 10 K Q J 9 8 7


class MariageView(TableView):
    unit = "game points (highest wins)"

    def sort_key(self, kind: int) -> tuple[int, int]:
        if kind == JOKER:
            return (len(SUITS), 0)
        return (kind // len(RANKS), _ORDER[kind % len(RANKS)])

    def facts(self, game, s) -> list[dict]:
        trump = "♠♥♦♣"[s.trump]
        open_ = s.closed_by < 0 and bool(s.talon)
        talon = (f"closed by player_{s.closed_by}" if s.closed_by >= 0
                 else f"{len(s.talon)} cards" if s.talon else "exhausted")
        facts = [{"label": "deal", "text": str(s.deal_no + 1)},
                 {"label": "trump", "text": trump},
                 {"label": "talon", "text": talon}]
        if open_:
            facts.append({"label": "trump card", "cards": [KIND[s.talon[0]]]})
        facts.append({"label": "trick", "cards": [KIND[s.lead]] if s.lead >= 0 else []})
        return facts

    def seat_notes(self, game, s, seat: int) -> list[dict]:
        return [{"label": "score", "text": str(game.score(s, seat))},
                {"label": "tricks", "text": str(s.tricks[seat])}]

    def score_sheet(self, game, s) -> dict:
        rows = [[r["game_points"] if r["winner"] == p else 0 for p in range(2)]
                for r in s.results]
        return {"unit": self.unit, "rows": rows, "totals": list(s.game_points)}

    def round_reports(self, game, s) -> list[dict]:
        return [{"title": f"deal {r['deal'] + 1}: {r['reason']}",
                 "lines": [f"scores {r['scores'][0]} - {r['scores'][1]}"], "hands": []}
                for r in s.results]
