"""The operator's model folder (``taas serve --models DIR``): clients seat its checkpoints by
name, never by path, and no answer shows where the folder is."""

import shutil

import pytest
from conftest import make_client

pytest.importorskip("torch", reason="ppo agents need torch (the train extra)")

from taas.agents.learned.ppo import MODELS

HUMAN = "human"


@pytest.fixture
def folder(tmp_path):
    models = tmp_path / "operator-models"
    models.mkdir()
    shutil.copy(MODELS / "mariage.pt", models / "mine.pt")
    (models / "broken.pt").write_bytes(b"not a checkpoint")
    return models


def new_game(client, spec):
    return client.post("/api/games", json={"env_id": "mariage_v1", "agents": [HUMAN, spec]})


def test_a_model_of_the_folder_is_seated_by_its_name_and_plays(tmp_path, folder):
    with make_client(tmp_path, models=str(folder)) as client:
        listed = {e["id"]: e for e in client.get("/api/envs").json()}["mariage_v1"]["specs"]
        assert any("mine" in s and "mariage" in s for s in listed)  # offered with the shipped
        made = new_game(client, "ppo:mine")
        assert made.status_code == 201, made.text
        game = made.json()
        view = client.get(f"/api/games/{game['id']}").json()
        assert view["seats"][1]["agent"] == "ppo:mine"
        assert str(folder) not in made.text + str(view)


@pytest.mark.parametrize("spec", ["ppo:broken", "ppo:nosuch", f"ppo:{MODELS / 'mariage.pt'}",
                                  "ppo:../operator-models/mine"])
def test_no_refusal_shows_a_server_path(tmp_path, folder, spec):
    with make_client(tmp_path, models=str(folder)) as client:
        refused = new_game(client, spec)
        assert refused.status_code == 400
        detail = refused.json()["detail"]
        assert str(folder) not in detail and "\n" not in detail
        assert str(MODELS) not in detail.replace(spec, "")  # only the client's own words echoed


def test_a_folder_that_would_hide_a_shipped_model_is_refused(tmp_path, folder):
    shutil.copy(folder / "mine.pt", folder / "mariage.pt")
    with pytest.raises(ValueError, match="would hide the shipped model"):
        make_client(tmp_path, models=str(folder))
    with pytest.raises(ValueError, match="not a folder"):
        make_client(tmp_path, models=str(tmp_path / "nothing"))


def test_the_aliases_are_offered_by_default_and_seat_what_they_stand_for(tmp_path):
    """A default server seats ``learned`` (Mariage's shipped model) and ``best`` (its search),
    and a game's record keeps the client's own spec."""
    with make_client(tmp_path) as client:
        listed = {e["id"]: e for e in client.get("/api/envs").json()}["mariage_v1"]["specs"]
        assert {"learned", "best"} <= set(listed)
        for spec in ("learned", "best"):
            made = new_game(client, spec)
            assert made.status_code == 201, made.text
            view = client.get(f"/api/games/{made.json()['id']}").json()
            assert view["seats"][1]["agent"] == spec
