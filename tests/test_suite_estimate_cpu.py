"""scripts/suite_estimate.py: the newest verified row of each (problem, precision) across results files, by the
files' dates and on one GPU model, and the geometric means over the suite."""
import json
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
import suite_estimate  # noqa: E402


def row(problem, precision, fwd, fwdbwd, verified=True):
    return {"problem": problem, "precision": precision, "verified": verified, "tconv_fwd_ms": 1.0,
            "tconv_fwdbwd_ms": 2.0, "tconv_fwd_speedup_vs_eager": fwd, "tconv_fwdbwd_speedup_vs_eager": fwdbwd,
            "tconv_fwd_speedup_vs_cudnn_bench": fwd / 2, "tconv_fwdbwd_speedup_vs_cudnn_bench": fwdbwd / 2}


def write(tmp_path, name, gpu, date, commit, rows):
    path = tmp_path / name
    path.write_text(json.dumps({"env": {"gpu": gpu, "date": date, "tconv_commit": commit}, "rows": rows}))
    return path


def test_the_newest_verified_row_wins_on_the_chosen_gpu(tmp_path):
    # written in an order unlike their dates: the dates decide, not the file names or the order given
    newer = write(tmp_path, "a.json", "NVIDIA H200", "2026-11-29T10:00:00", "bbbbbbbbbbbb",
                  [row("p1", "tf32", 4.0, 2.0), row("p2", "tf32", 9.0, 9.0, verified=False)])
    older = write(tmp_path, "b.json", "NVIDIA H200", "2026-11-28T10:00:00", "aaaaaaaaaaaa",
                  [row("p1", "tf32", 1.0, 1.0), row("p2", "tf32", 0.5, 2.0), row("p1", "bf16", 2.0, 2.0)])
    other_gpu = write(tmp_path, "c.json", "NVIDIA H100 80GB HBM3", "2026-11-30T10:00:00", "cccccccccccc",
                      [row("p1", "tf32", 8.0, 8.0)])
    unreadable = tmp_path / "d.json"
    unreadable.write_text("{ not json")
    newest = suite_estimate.newest_rows([newer, older, other_gpu, unreadable], "H200")
    assert newest[("p1", "tf32")]["tconv_fwd_speedup_vs_eager"] == 4.0
    assert newest[("p1", "tf32")]["_commit"] == "bbbbbbbbb"
    assert newest[("p2", "tf32")]["_file"] == "b.json"  # the newer row failed verification
    assert newest[("p1", "bf16")]["_date"].startswith("2026-11-28")

    result = suite_estimate.estimate(newest, ["p1", "p2", "p3"], "tf32")
    assert result["missing"] == ["p3"]
    assert math.isclose(result["geomeans"]["fwd x eager"], math.sqrt(4.0 * 0.5))
    assert math.isclose(result["geomeans"]["f+b x cudnnB"], math.sqrt(1.0 * 1.0))
    assert result["below_1x"] == ["p2"]  # 0.5x forward; p1's cuDNN-benchmark f+b is exactly 1.0x


def test_rows_of_one_layout_only(tmp_path):
    """Files of `tconv bench --layout channels_last` (env "layout") stay out of the default (contiguous) estimate,
    and make the channels_last one; files without the key are contiguous."""
    contiguous = write(tmp_path, "a.json", "NVIDIA H200", "2026-11-29T10:00:00", "aaaaaaaaaaaa",
                       [row("p1", "bf16", 2.0, 2.0)])
    channels_last = tmp_path / "b.json"
    channels_last.write_text(json.dumps({"env": {"gpu": "NVIDIA H200", "date": "2026-11-30T10:00:00",
                                                 "tconv_commit": "bbbbbbbbbbbb", "layout": "channels_last"},
                                         "rows": [row("p1", "bf16", 3.0, 3.0)]}))
    plain = suite_estimate.newest_rows([contiguous, channels_last], "H200")
    assert plain[("p1", "bf16")]["tconv_fwd_speedup_vs_eager"] == 2.0
    laid_out = suite_estimate.newest_rows([contiguous, channels_last], "H200", "channels_last")
    assert laid_out[("p1", "bf16")]["tconv_fwd_speedup_vs_eager"] == 3.0 and len(laid_out) == 1
