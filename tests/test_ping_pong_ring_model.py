"""The ping-pong tile's ring protocol (scripts/ping_pong_ring_model.py), on the CPU: with the turn barrier every random
schedule reads the right stages and ends; without it the model finds the wrong reads (what run 514's hang was)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
import ping_pong_ring_model as model  # noqa: E402


def test_turn_barrier_keeps_every_schedule_right():
    assert model.outcomes(ordered=True) == {"ok": 300}


def test_the_model_finds_the_race_without_it():
    assert model.outcomes(ordered=False).get("wrong data", 0) > 0
