"""The ping-pong tile's ring protocol (scripts/ping_pong_ring_model.py), on the CPU, each warp an actor: the kernel's
protocol reads the right stages and ends in every random schedule; the model finds wrong reads without the turn
barrier (what run 514's hang was) and without the epilogue barrier that follows the turn barrier's arrivals."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
import ping_pong_ring_model as model  # noqa: E402


def test_the_kernels_protocol_keeps_every_schedule_right():
    assert model.outcomes() == {"ok": 300}


def test_the_model_finds_the_race_without_the_turn_barrier():
    assert model.outcomes(turn_barrier=False).get("wrong data", 0) > 0


def test_the_model_finds_the_race_without_the_epilogue_barrier():
    assert model.outcomes(epilogue_barrier=False).get("wrong data", 0) > 0
