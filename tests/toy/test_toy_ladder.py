"""The strength ladder end to end on the toy game: its default players (what a game with
search but no heuristic or model offers), every pair dueled once at two seats, a page with
ratings, the cross table and the plot."""

from taas.benchmarks import ladder

ENV = "highcard_v0"


def test_the_toy_ladder_is_its_baseline_and_its_search(tmp_path):
    assert ladder.default_ladder(ENV, (2, 8)) == ["random", "ismcts:2", "ismcts:8", "oracle:8"]
    out = tmp_path / "strength" / f"{ENV}.md"
    result = ladder.main([ENV, "--budgets", "2,8", "--deals", "3", "--out", str(out)])
    assert sorted(result.duels) == [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]  # once each
    text = out.read_text()
    assert f"`python -m taas.benchmarks.ladder {ENV} --budgets 2,8 --deals 3 --out {out}`" in text
    assert (tmp_path / "strength" / f"{ENV}.png").stat().st_size > 1000
    assert "| row vs column |" in text
    assert f"![Ratings and paired score differences]({ENV}.png)" in text
    rows = [line for line in text.splitlines() if line.startswith("| `")]
    assert len(rows) == 4  # the cross table: one row per player
