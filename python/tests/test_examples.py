"""The Python examples run and do what they say (examples/, docs/python.md)."""

import runpy
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_session_fold_loop(capsys):
    # The optimizer loop of docs/python.md: folds Shape of static values and Identity nodes,
    # re-infers after each fold and checks the session against a fresh inference each time.
    path = EXAMPLES / "session" / "fold_loop.py"
    if not path.exists():
        pytest.skip("examples/ is not beside the tests (an installed package)")
    module = runpy.run_path(str(path))
    assert module["main"](["fold_loop.py"]) == 0
    out = capsys.readouterr().out
    assert "fold: Shape(i) -> initializer 's' [2, 3, 8]" in out
    assert "fold: Identity(r) -> 'j' reads r" in out
    assert "fold: Shape(w) -> initializer 'sw' [2, 24]" in out
    assert "output z: float[2, 24]" in out
    assert "3 folds;" in out
