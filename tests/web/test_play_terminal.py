"""``taas play ENV --human SEAT``: whole games driven through scripted standard input."""

import io
import json

import pytest
from play_helpers import greedy_choice

from taas.arena import replay as replays
from taas.cli import main
from taas.play.session import HUMAN, Session


def scripted_answers(env_id: str, seed: int, agents: list[str], forms) -> list[str]:
    """The answers a scripted person gives in this seeded game, each written in one of
    ``forms`` in turn (the session is deterministic, so the CLI game goes the same way)."""
    session, answers = Session(env_id, {}, seed, agents), []
    while not session.over:
        if session.current in session.humans():
            view = session.view(session.current)
            choice = greedy_choice(view)
            number = view["actions"].index(choice) + 1
            answers.append(forms[len(answers) % len(forms)](choice, number))
            session.play(session.current, choice["id"])
        else:
            session.agent_move()
    return answers


def run(monkeypatch, capsys, argv: list[str], answers: list[str]) -> tuple[int, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(a + "\n" for a in answers)))
    code = main(argv)
    return code, capsys.readouterr().out


def test_a_marriage_round_by_name_number_and_card_with_the_scoring_explained(
    monkeypatch, capsys, tmp_path
):
    agents = [HUMAN, "random", "random", "random"]
    forms = [
        lambda a, n: a["name"],  # "draw", "discard 7H"
        lambda a, n: str(n),
        lambda a, n: a["name"].split()[-1].lower() if a["card"] is not None else a["name"],
    ]
    answers = scripted_answers("marriage_v1", 6, agents, forms)
    record = tmp_path / "round.json"
    argv = ["play", "marriage_v1", "--human", "0", "--agents", "random,random,random",
            "--seed", "6", "--record", str(record)]
    code, out = run(monkeypatch, capsys, argv, ["", "tell me", "0", *answers])
    assert code == 0
    assert out.count("is not a legal action here") == 3  # "", "tell me", "0" were re-asked
    assert "=== player_0 (you) to move: marriage_v1" in out
    assert "wild rank" in out and "top discard" in out and "melds: [" in out
    report = out[out.index("--- round 1: player_0 showed"):].splitlines()
    for seat in range(4):
        line = next(x for x in report if x.startswith(f"player_{seat} "))
        assert "deadwood" in line and "penalty" in line
    result = replays.replay(json.loads(record.read_text()), render=False)
    final = out.strip().splitlines()[-2]  # before "recorded ..."
    assert final == "final: " + "  ".join(f"player_{i} {r + 0.0:+g}" for i, r in
                                          enumerate(result.returns))


def test_a_mariage_deal_in_the_second_seat(monkeypatch, capsys):
    answers = scripted_answers("mariage_v1", 4, ["heuristic", HUMAN], [lambda a, n: str(n)])
    argv = ["play", "mariage_v1", "--human", "1", "--agents", "heuristic", "--seed", "4"]
    code, out = run(monkeypatch, capsys, argv, answers)
    assert code == 0
    assert "=== player_1 (you) to move: mariage_v1" in out and "trump" in out
    assert "player_0 (heuristic):" in out
    assert "--- deal 1: player_" in out and out.strip().splitlines()[-1].startswith("final: ")


def test_input_that_ends_early_abandons_the_game(monkeypatch, capsys):
    argv = ["play", "mariage_v1", "--human", "0", "--agents", "heuristic", "--seed", "4"]
    code, out = run(monkeypatch, capsys, argv, ["1"])
    assert code == 1 and "input ended before the game did" in out


@pytest.mark.parametrize(
    ("human", "message"), [("x", "expected seat numbers"), ("2", "seats are 0..1")]
)
def test_bad_human_seats(capsys, human, message):
    assert main(["play", "mariage_v1", "--human", human, "--agents", "heuristic"]) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(
    ("env_id", "agents"),
    [("continental_v1", [HUMAN, "greedy", "random"]), ("romme_v1", [HUMAN, "heuristic", "random"])],
)
def test_the_other_rummies_play_to_the_end_at_the_terminal(env_id, agents):
    from taas.play import terminal

    session, shown = Session(env_id, {}, 2, agents), []
    returns = terminal.play(session, ask=lambda prompt: "1", show=shown.append)
    assert session.over and returns == session.view()["returns"]
    assert any(s.startswith("=== player_0 (you) to move") and "top discard" in s for s in shown)
    report = next(s for s in shown if s.startswith("--- round 1: "))
    assert all(f"player_{q} (" in report for q in range(3)) and "penalty" in report


def test_a_terminal_that_cannot_print_suit_symbols_gets_letters():
    from taas.play import terminal

    session, shown = Session("mariage_v1", {}, 4, [HUMAN, "heuristic"]), []
    terminal.play(session, ask=lambda prompt: "1", show=shown.append, symbols=False)
    text = "\n".join(shown)
    text.encode("ascii")  # raises if a symbol got through
    assert "trump " in text and "play " in text
