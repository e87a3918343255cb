"""The Continental expert agent on hand-built positions (docs/rules/continental.md)."""

from continental_helpers import arrange, discard_phase

from taas.agents.heuristic.continental import ContinentalHeuristicAgent
from taas.envs.continental import actions as A
from taas.envs.continental.observation import ContinentalObserver
from taas.envs.continental.rules import DRAW
from taas.envs.core.cards import parse_card


def decide(game, state, player: int = 0) -> int:
    obs = ContinentalObserver(game.config).encode(state, player)
    agent = ContinentalHeuristicAgent(0, {"num_players": game.num_players})
    return agent.act(obs, game.legal_mask(state))


def test_goes_out_when_it_can():
    """Example C1: discarding 2H leaves four groups, so the agent goes out at once."""
    game, state = discard_phase("7C 7C 7H 7D 9D 9D 9S 9H 9C 4H 4C 4S KS KD JK 2H")
    assert decide(game, state) == A.GO_OUT + parse_card("2H")


def test_discards_the_highest_loose_card():
    """Four groups, one pair and two loose cards: whichever loose card goes, the same draws (a
    five or a joker) let the rest go out, so the king (10 points) goes before the three (3)."""
    game, state = discard_phase("7C 7C 7H 9D 9S 9H 4H 4C 4S QS QD QC 5H 5D KS 3D")
    assert decide(game, state) == A.DISCARD + parse_card("KS")


def test_counts_the_copies_seen():
    """Four groups and two pairs: one card must go, and a third card of the kept pair then
    lets the hand go out. Six of the eight fives lie in the discard pile, so it keeps the
    kings (six live copies) and breaks the fives, although a king costs more."""
    game, state = discard_phase("7C 7C 7H 9D 9S 9H 4H 4C 4S QS QD QC 5H 5D KS KH")
    arrange(game, state, {0: "7C 7C 7H 9D 9S 9H 4H 4C 4S QS QD QC 5H 5D KS KH"},
            discard="5S 5S 5H 5D 5C 5C 3D")
    assert decide(game, state) in (A.DISCARD + parse_card("5H"), A.DISCARD + parse_card("5D"))


def test_takes_the_discard_that_completes_a_group():
    game, state = discard_phase("7C 7H 9D 9S 9H 4H 4C 4S QS QD QC 5H 5D KS 3D")
    arrange(game, state, {0: "7C 7H 9D 9S 9H 4H 4C 4S QS QD QC 5H 5D KS 3D"}, discard="7D")
    state.phase = DRAW
    state.mask = None
    assert decide(game, state) == A.DRAW_DISCARD
    arrange(game, state, {0: "7C 7H 9D 9S 9H 4H 4C 4S QS QD QC 5H 5D KS 3D"}, discard="8D")
    state.mask = None
    assert decide(game, state) == A.DRAW_STOCK  # no eight in hand: nothing to build on
