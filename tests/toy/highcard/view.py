"""What the human table shows of High Card: the card led and the tricks won."""

from taas.envs.core.view import TableView


class HighCardView(TableView):
    def facts(self, game, state):
        from highcard.rules import KINDS

        return [{"label": "led", "cards": [int(KINDS[state.lead])] if state.lead >= 0 else []}]

    def seat_notes(self, game, state, seat):
        return [{"label": "tricks", "text": str(state.tricks[seat])}]
