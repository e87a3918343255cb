"""Shared fixtures of the web table tests: an app over a fresh games store."""

import pytest


def make_client(tmp_path, **options):
    """A TestClient (enter it with ``with``) of an app over a new store in ``tmp_path``; by
    default its rate limit is out of the way of tests that play whole games quickly."""
    pytest.importorskip("fastapi", reason="the web table needs the web extra: pip install '.[web]'")
    pytest.importorskip("httpx", reason="FastAPI's TestClient needs httpx (the dev extra)")
    from fastapi.testclient import TestClient

    from taas.web.app import create_app
    from taas.web.guard import Limits

    options.setdefault("limits", Limits(rate=1000, burst=10_000))
    return TestClient(create_app(str(tmp_path / "games.sqlite"), **options))


@pytest.fixture
def client(tmp_path):
    """A TestClient of the app over a new store; skips without the web extra."""
    with make_client(tmp_path) as c:
        yield c
