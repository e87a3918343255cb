"""The Rommé expert agent on hand-built positions (docs/rules/romme.md): it opens as soon as
40 is reachable, lays off, and sheds high cards when an opponent is about to go out."""

from romme_helpers import setup

from taas.agents.heuristic.romme import RommeHeuristicAgent
from taas.envs.core.cards import parse_card
from taas.envs.romme import actions as A
from taas.envs.romme.observation import RommeObserver
from taas.envs.romme.rules import DRAW


def decide(game, state, player: int = 0) -> int:
    obs = RommeObserver(game.config).encode(state, player)
    return RommeHeuristicAgent(0, game.config).act(obs, game.legal_mask(state))


def play_turn(game, state) -> None:
    """Let the agent in seat 0 play until its turn ends."""
    agent = RommeHeuristicAgent(0, game.config)
    observer = RommeObserver(game.config)
    while state.current == 0 and state.phase != DRAW:
        game.apply_action(state, agent.act(observer.encode(state, 0), game.legal_mask(state)))


def test_opens_as_soon_as_forty_is_reachable():
    """Example R1: Q-K-A of hearts (31) and three sevens (21) make 52 >= 40."""
    game, state = setup({0: "QH KH AH 7S 7D 7C 2C 9D 4S KS"}, num_players=3)
    play_turn(game, state)
    assert state.opened[0]
    assert state.hands[0].sum() == 3  # 2C 9D 4S KS less the discard


def test_does_not_meld_below_the_minimum():
    """Example R2's first part: A-2-3 of spades (6) and three tens (30) make only 36."""
    game, state = setup({0: "AS 2S 3S 10C 10D 10H 8C JD"}, num_players=3)
    action = decide(game, state)
    assert A.DISCARD <= action < A.LAY_OFF


def test_lays_off_before_discarding():
    game, state = setup(
        {0: "5H 9C KD"}, melds=((1, "2H 3H 4H"),), opened=(0, 1), num_players=3
    )
    action = decide(game, state)
    assert A.LAY_OFF <= action < A.EXCHANGE


def test_sheds_the_dearest_card_when_an_opponent_is_about_to_go_out():
    """9S and 10S partner each other, 3D and 2C have no partner. Normally the least connected
    card goes, the dearer first (3D); with an opened opponent down to two cards the ten goes,
    as a loser pays what is left in hand."""
    hand = "9S 10S 3D 2C"
    game, state = setup({0: hand, 1: "4H 9H"}, opened=(0, 1), num_players=3)
    assert decide(game, state) == A.DISCARD + parse_card("10S")
    game, state = setup({0: hand}, opened=(0, 1), num_players=3)
    assert decide(game, state) == A.DISCARD + parse_card("3D")

