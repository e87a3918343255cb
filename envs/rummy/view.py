"""What the human table shows of a rummy (``taas.envs.rummy.view``): the round, the stock and
the top discard, the cards each seat took from the pile, and a score sheet of penalty points.
Continental, Marriage and Rommé extend it with their own facts and round reports."""

from __future__ import annotations

from taas.envs.core.cards import from_counts, parse_card
from taas.envs.core.view import TableView


def kinds(names) -> list[int]:
    """Card names (``"7H"``) as card kinds, for reports built from a round's record."""
    return [parse_card(n) for n in names]


class RummyView(TableView):
    """A multi-round rummy whose state keeps ``rounds_played``, ``table``, ``history`` (one
    record per finished round) and ``totals``."""

    unit = "penalty points (lowest wins)"
    series_title = "penalty points per round (lowest total wins)"

    def facts(self, game, state) -> list[dict]:
        return [{"label": "round", "text": str(state.rounds_played + (not state.over))},
                *self.round_facts(state), *self.table_facts(state)]

    def round_facts(self, state) -> list[dict]:
        """Facts of the round between its number and the stock (Marriage: the wild rank)."""
        return []

    def table_facts(self, state) -> list[dict]:
        table = state.table
        return [{"label": "stock", "text": f"{len(table.stock)} cards"},
                {"label": "top discard", "cards": [int(c) for c in table.discard[-1:]]}]

    def seat_notes(self, game, state, seat: int) -> list[dict]:
        return [{"label": "took", "cards": from_counts(state.table.taken_by[seat])}]

    def score_sheet(self, game, state) -> dict:
        rows = [self.charges(h) for h in state.history]
        return {"unit": self.unit, "rows": rows, "totals": [int(t) for t in state.totals]}

    def charges(self, record: dict) -> list[int]:
        """What each seat was charged in one finished round."""
        return [int(p) for p in record["penalties"]]

    def round_reports(self, game, state) -> list[dict]:
        return [self.report(h) for h in state.history]

    def report(self, record: dict) -> dict:
        """One finished round explained (see :meth:`TableView.round_reports`)."""
        raise NotImplementedError
