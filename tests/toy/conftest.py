"""The web table fixture, for the toy game's web test (the same as tests/web's)."""

import pytest


@pytest.fixture
def client(tmp_path):
    """A TestClient of the app over a new store; skips without the web extra."""
    pytest.importorskip("fastapi", reason="the web table needs the web extra: pip install '.[web]'")
    pytest.importorskip("httpx", reason="FastAPI's TestClient needs httpx (the dev extra)")
    from fastapi.testclient import TestClient

    from taas.web.app import create_app

    with TestClient(create_app(str(tmp_path / "games.sqlite"))) as c:
        yield c
