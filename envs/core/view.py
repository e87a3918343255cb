"""What the human table shows of a game (``taas.envs.core.view``), beside the hand and the
legal moves that every game has.

The terminal and web tables (:mod:`taas.play.session`) ask a game's view, named by its
:class:`~taas.envs.core.spec.GameSpec`, for the public facts (trump, wild rank, stock), what
the table knows of each seat, what only one seat may see beyond its hand, the score sheet and
the end-of-round reports. Every answer is JSON-ready (ints, strings, card kinds as ints), and
everything but :meth:`TableView.private_facts` and :meth:`TableView.private` is public: a view
must never put in it what some seat's observation would not show.
"""

from __future__ import annotations

from taas.envs.core.cards import JOKER, RANKS, SUITS


class TableView:
    """The defaults: cards sorted by suit then rank (A 2 .. K, jokers last), no facts, no
    notes, the episode's returns as the only score. Games override what they show."""

    unit = "points"
    series_title = "points per round"

    def sort_key(self, kind: int) -> tuple[int, int]:
        if kind == JOKER:
            return (len(SUITS), 0)
        return (kind // len(RANKS), kind % len(RANKS))

    def facts(self, game, state) -> list[dict]:
        """The public table: ``{"label", "text"?, "cards"?}`` entries."""
        return []

    def seat_notes(self, game, state, seat: int) -> list[dict]:
        """What every seat knows about ``seat`` beyond its number of cards."""
        return []

    def private_facts(self, game, state, seat: int) -> list[dict]:
        """Facts only ``seat`` may see (the tiplu once it has seen), after the public ones."""
        return []

    def private(self, game, state, seat: int) -> dict:
        """Extra fields of ``seat``'s own view (e.g. its wild kinds), merged into it."""
        return {}

    def melds(self, game, state, seat: int) -> dict | None:
        """The engine's arrangement of ``seat``'s hand while the game is on, if it has one:
        ``{"melds": [{"cards", "life"}], "deadwood", "penalty"}``."""
        return None

    def score_sheet(self, game, state) -> dict:
        """Per finished round what each seat scored, and the totals."""
        totals = [float(r) + 0.0 for r in game.returns(state)]
        return {"unit": self.unit, "rows": [], "totals": totals}

    def round_reports(self, game, state) -> list[dict]:
        """Each finished round explained: ``{"title", "lines", "hands"}``."""
        return []
