"""The toy game is a game only while the tests of this folder run: other tests list the
built-in games."""

import highcard
import pytest

import taas.envs


@pytest.fixture(autouse=True, scope="module")
def registered():
    taas.envs.register(highcard.SPEC)
    yield
    taas.envs.unregister(highcard.SPEC.name)
