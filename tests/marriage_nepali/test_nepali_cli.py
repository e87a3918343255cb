"""``taas score marriage_nepali`` and ``taas settle``: the issue's interfaces, JSON out."""

from __future__ import annotations

import json

import pytest

from taas.cli import main

E4 = "KH KS KC 4H 5H 8H 10D JD AC AD 7C 3S 7H"


def run(capsys, argv: list[str]) -> dict:
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def test_score_finish_of_e4(capsys):
    out = run(capsys, ["score", "marriage_nepali", "--tiplu", "7H", "--hand", E4, "--seen",
                       "--json"])
    assert out["maal"] == 5 and out["finish_discards"] == ["3S"]
    combos = out["combinations"]
    assert len(combos) == 4 and sorted(c for combo in combos for c in combo) == sorted(
        E4.replace(" 3S", "").split()
    )


def test_score_unseen_maal_follows_the_flag(capsys):
    argv = ["score", "marriage_nepali", "--tiplu", "7H", "--hand", "8H 7D 2C", "--json"]
    assert run(capsys, argv)["maal"] == 0  # E6(e): murder
    assert run(capsys, [*argv, "--rule", "unseen_maal=count"])["maal"] == 7
    assert run(capsys, [*argv, "--seen"])["maal"] == 7
    assert run(capsys, argv)["finish_discards"] is None  # unseen: no finish question


def test_score_exposed_tunnela_and_dublee_route(capsys):
    e6a = "6H 7H 8H 7D 4D 4D 4D 2C 3C 4C 9S 10S JS QD"
    out = run(capsys, ["score", "marriage_nepali", "--tiplu", "7H", "--hand", e6a,
                       "--exposed", "4D 4D 4D", "--seen", "--json"])
    assert out["maal"] == 20
    out = run(capsys, ["score", "marriage_nepali", "--tiplu", "7H", "--seen", "--route",
                       "dublee", "--hand", "10C 10C 4S QS 8D 2D AH 10H", "--json"])
    assert sorted(out["finish_discards"]) == sorted(["4S", "QS", "AH", "10H", "2D", "8D"])
    argv = ["score", "marriage_nepali", "--tiplu", "7H", "--seen", "--route", "dublee",
            "--hand", "JK JK 4S", "--rule", "printed_jokers=3", "--json"]
    assert run(capsys, argv)["finish_discards"] == []  # Man cards never pair by default
    assert run(capsys, [*argv, "--rule", "joker_dublee=true"])["finish_discards"] == ["4S"]


def test_settle_e7_e8_and_variants(capsys):
    base = ["settle", "--maal", "5,20,5,7", "--seen", "1,1,1,0", "--json"]
    assert run(capsys, [*base, "--winner", "0", "--dublee-losers", "2"])["net"] == [
        3, 47, -10, -40]
    kidnap = [*base, "--winner", "0", "--dublee-losers", "2", "--rule", "unseen_maal=kidnap"]
    assert run(capsys, kidnap)["net"] == [24, 40, -17, -47]
    assert run(capsys, [*base, "--winner", "2", "--winner-route", "dublee"])["net"] == [
        -18, 42, 21, -45]
    staked = run(capsys, [*base, "--winner", "0", "--dublee-losers", "2", "--rule", "stake=2"])
    assert staked["money"] == [6, 94, -20, -80]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["settle", "--maal", "5,x", "--seen", "1,1", "--winner", "0"], "--maal"),
        (["settle", "--maal", "5,6", "--seen", "1,2", "--winner", "0"], "--seen"),
        (["settle", "--maal", "5,6", "--seen", "1,0", "--winner", "1"], "unseen"),
        (["score", "marriage_nepali", "--tiplu", "JK", "--hand", "2C"], "tiplu"),
        (["score", "marriage_nepali", "--tiplu", "7H", "--hand", "7H 7H 7H"], "3 copies of 7H"),
        (["score", "marriage_nepali", "--tiplu", "7H", "--hand", "2C", "--exposed", "2C"],
         "whole tunnelas"),
        (["score", "marriage_nepali", "--tiplu", "7H", "--hand", "2C", "--rule", "bad=1"],
         "unknown marriage_nepali rule"),
    ],
)
def test_bad_input_is_one_line_error(capsys, argv, message):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
