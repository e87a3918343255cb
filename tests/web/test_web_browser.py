"""The web table in a real browser: Debian's Chromium, headless, driven by Playwright.

A whole Mariage deal, a whole Marriage round and a whole Nepali Marriage round (4 seats, 3
agents) are played by clicking cards and named actions only; the final score on the page must
equal the engine's (the game's replay file re-played by :func:`taas.arena.replay.replay`).
Screenshots go to ``$TAAS_SCREENSHOTS`` (default: the test's temporary folder).

Chromium comes from the system (``apt-get install -y chromium``); Playwright's own browser
download is never used. Without it (or without the playwright package) the tests skip.
"""

import json
import os
import re
import socket
import threading
import time
from pathlib import Path

import pytest
from play_helpers import greedy_choice, seat

from taas.arena import replay as replays

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]

if not Path(CHROMIUM).exists():
    pytest.skip(f"no Chromium at {CHROMIUM}: apt-get install -y chromium", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="pip install playwright (dev extra)")
uvicorn = pytest.importorskip("uvicorn", reason="the web table needs the web extra")
httpx = pytest.importorskip("httpx", reason="the test reads the game through httpx")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """``taas serve``'s app on a free loopback port, in a thread of this process."""
    from taas.web.app import create_app
    from taas.web.guard import Limits

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    db = tmp_path_factory.mktemp("web") / "games.sqlite"
    config = uvicorn.Config(create_app(str(db), limits=Limits(rate=1000, burst=10_000)),
                            host="127.0.0.1", port=port, log_level="warning")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not srv.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def shots(tmp_path):
    folder = Path(os.environ.get("TAAS_SCREENSHOTS", tmp_path))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def deal(page, server, env_id, agents, seed, pace):
    """Fill in the new-game form and start (``seed=None``: the server's secret deal); the
    game id and the person's token."""
    page.goto(f"{server}/?pace={pace}")
    page.select_option("#env", env_id)
    for i, spec in enumerate(agents):
        page.fill(f"input[name=seat-{i}]", spec)
    if seed is not None:
        page.fill("#seed", str(seed))
    page.click("#start")
    page.wait_for_url("**/game/**")
    game_id = page.url.split("/game/")[1].split("?")[0].split("#")[0]
    return game_id, page.url.split("#token=")[1]


def moves_shown(page) -> int:
    return int(page.get_attribute("#status", "data-moves"))


def wait_for_my_turn(page, after: int) -> bool:
    """Wait until the page shows my turn after move ``after``, or the end; True at my turn."""
    page.wait_for_function(
        """after => document.querySelector('#final') ||
             (document.querySelector('#status.yours') &&
              Number(document.querySelector('#status').dataset.moves) > after)""",
        arg=after, timeout=20000)
    return page.query_selector("#final") is None


def check_final(page, server, game_id):
    """The page's final scores are the engine's: the replay file re-played from its seed."""
    record = httpx.get(f"{server}/api/games/{game_id}/replay").json()
    engine = replays.replay(record, render=False).returns
    shown = json.loads(page.get_attribute("#final", "data-returns"))
    assert shown == engine
    text = page.inner_text("#final-scores")
    assert text.split() == [x for i, r in enumerate(engine) for x in (f"player_{i}", f"{r:+g}"
                                                                        if r else "0")]
    return record


def test_a_mariage_deal_by_clicking_cards(server, browser, shots, tmp_path):
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    game_id, _ = deal(page, server, "mariage_v1", ["human", "heuristic"], 4, pace=300)
    waits, after = [], -1
    while wait_for_my_turn(page, after):
        after = moves_shown(page)
        start = time.perf_counter()
        page.click("#hand .card.playable >> nth=0")
        page.wait_for_function(
            "n => Number(document.querySelector('#status').dataset.moves) > n", arg=after)
        if page.query_selector("#final, #status.yours") is None:  # the agent answers
            page.wait_for_function(
                "n => Number(document.querySelector('#status').dataset.moves) >= n + 2",
                arg=after, timeout=10000)
            waits.append(time.perf_counter() - start)
    page.screenshot(path=str(shots / "mariage-final.png"), full_page=True)
    record = check_final(page, server, game_id)
    assert page.inner_text("#rounds").startswith("deal 1: player_")
    print(f"agent answers after a click: {', '.join(f'{w:.2f}' for w in waits)} s")
    assert sorted(waits)[len(waits) // 2] < 0.5  # the median; every answer is logged above
    # and the finished game steps back through its moves
    page.click("text=step through it")
    page.wait_for_selector("#step")
    page.click("#next")
    page.click("#next")
    assert page.inner_text("#step").strip().startswith("move 2 of")
    # and so does its replay file, opened from disk
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(record))
    page.goto(f"{server}/replay")
    page.set_input_files("#replay-file", str(path))
    page.wait_for_selector("#step")
    assert page.inner_text("#step").strip() == f"move 0 of {len(record['moves'])}:"
    page.close()


def test_a_marriage_round_by_clicking_cards_and_actions(server, browser, shots):
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    agents = ["human", "random", "random", "random"]
    game_id, token = deal(page, server, "marriage_v1", agents, 6, pace=0)
    after, shot = -1, False
    while wait_for_my_turn(page, after):
        after = moves_shown(page)
        view = httpx.get(f"{server}/api/games/{game_id}", headers=seat(token)).json()
        choice = greedy_choice(view)
        card = page.query_selector(f"#hand .card.playable[data-action='{choice['id']}']")
        if card is not None:
            card.click()
        else:
            if not shot and choice["name"] == "draw" and after > 8:
                page.screenshot(path=str(shots / "marriage-table.png"), animations="disabled")
                shot = True
            page.click(f"#action-{choice['id']}")
    page.screenshot(path=str(shots / "marriage-final.png"), full_page=True)
    record = check_final(page, server, game_id)
    assert record["final_info"]["rounds"][0]["winner"] == 0  # the scripted person showed
    assert len(page.query_selector_all("#rounds .arrangement")) == 4
    totals = [c.inner_text() for c in page.query_selector_all("#sheet tr.totals td")][1:]
    assert totals == [str(t) for t in record["final_info"]["totals"]]
    page.close()


def test_a_hot_seat_game_links_each_persons_seat(server, browser):
    page = browser.new_page()
    game_id, token = deal(page, server, "mariage_v1", ["human", "human"], None, pace=0)
    page.wait_for_selector(".seat-links a")
    seen = httpx.get(f"{server}/api/games/{game_id}", headers=seat(token)).json()["seat"]
    assert page.inner_text(".mine .who").startswith(f"player_{seen} ")
    page.click(".seat-links a")
    # The page reloads meanwhile. A locator assertion, not wait_for_function: that one polls
    # by eval, which the page's CSP forbids, and Playwright's exemption can miss a poll.
    sync_api.expect(page.locator(".mine .who")).to_have_text(re.compile(f"^player_{1 - seen} "))
    page.close()


def test_a_nepali_round_by_clicking_to_its_end(server, browser, shots):
    """Traditional Nepali Marriage at the web table: a person plays a whole round by clicking
    (its last legal action each turn) against three heuristics; the page's final scores are
    the engine's, and the tiplu is on the page only once the person may know it."""
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    agents = ["human", "heuristic", "heuristic", "heuristic"]
    game_id, token = deal(page, server, "marriage_nepali_v0", agents, 3, pace=0)
    after = -1
    while wait_for_my_turn(page, after):
        after = moves_shown(page)
        view = httpx.get(f"{server}/api/games/{game_id}", headers=seat(token)).json()
        knows = "my maal" in [f["label"] for f in view["facts"]]  # the seat's own, once seen
        assert ("my maal" in page.inner_text("#facts")) == knows
        choice = view["actions"][-1]
        card = page.query_selector(f"#hand .card.playable[data-action='{choice['id']}']")
        if card is not None:
            card.click()
        else:
            page.click(f"#action-{choice['id']}")
    page.screenshot(path=str(shots / "nepali-final.png"), full_page=True)
    record = check_final(page, server, game_id)
    assert record["env_id"] == "marriage_nepali_v0"
    assert page.inner_text("#rounds").startswith("deal 1: ")
    page.close()
