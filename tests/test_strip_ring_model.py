"""The persistent warp-specialized unit-stride forward's ring and row table (scripts/strip_ring_model.py), on the
CPU, each warp an actor: the kernel's protocol reads the right stages and tables and ends in every random schedule;
the model finds the deadlock without the release of a tile's last stage and the race with one row table; the store
staged through a tile's last two stage slots keeps every schedule right, and the model finds its mutants' races."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
import strip_ring_model as model  # noqa: E402


def test_the_kernels_protocol_keeps_every_schedule_right():
    assert model.outcomes() == {"ok": 300}


def test_the_model_finds_the_deadlock_without_the_last_release():
    assert model.outcomes(release_last=False).get("deadlock", 0) > 0


def test_the_model_finds_the_race_with_one_row_table():
    assert model.outcomes(tables=1).get("wrong data", 0) > 0


def test_the_staged_store_keeps_every_schedule_right():
    """The store staged through the tile's last two stage slots (the persistent kernel's since session 103)."""
    assert model.outcomes(staged=True) == {"ok": 300}


def test_the_model_finds_the_staged_stores_races():
    for mutant in ({"hold": False}, {"slots": 1}, {"half_barrier": False}):
        assert model.outcomes(staged=True, **mutant).get("wrong data", 0) > 0, mutant
