"""Fixtures every test shares."""

import sys

import pytest


@pytest.fixture(autouse=True)
def restore_torch_threads():
    """The training scripts set torch's thread count (``--threads``); put it back after each
    test, so one test's setting never oversubscribes the cores for the next. Only where torch
    is already imported: the fixture never imports it for the tests that do not need it."""
    torch = sys.modules.get("torch")
    threads = torch.get_num_threads() if torch is not None else None
    yield
    if threads is not None:
        torch.set_num_threads(threads)
