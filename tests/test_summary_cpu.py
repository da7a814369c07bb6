"""`tconv summary`: suite geomeans over several `tconv bench` results files (CPU only, synthetic files)."""
import json
import math

import pytest

from tconv.__main__ import main as tconv_main
from tconv.harness import summary

ENV = {"gpu": "NVIDIA H200", "torch": "2.11.0+cu130", "cuda": "13.0", "cudnn": 91900, "tconv_commit": "abc1234",
       "runs": 20, "warmup": 3, "tconv_autotune": False, "peaks": None, "date": "2026-11-23T00:00:00+00:00"}


def row(problem, precision, fwd, fwdbwd, cudnn_fwd=None, verified=True, error=None):
    return {"problem": problem, "precision": precision, "verified": verified, "error": error,
            "tconv_fwd_speedup_vs_eager": fwd, "tconv_fwdbwd_speedup_vs_eager": fwdbwd,
            "tconv_fwd_speedup_vs_cudnn_bench": cudnn_fwd, "tconv_fwdbwd_speedup_vs_cudnn_bench": None,
            "tconv_fwd_speedup_vs_compile": None, "tconv_fwdbwd_speedup_vs_compile": None}


def write(path, rows, **env_changes):
    path.write_text(json.dumps({"env": dict(ENV, **env_changes), "complete": True, "rows": rows}))
    return str(path)


@pytest.fixture
def root(tmp_path):
    """A checkout with a three-shape suite."""
    (tmp_path / "problems").mkdir()
    (tmp_path / "problems" / "suites.py").write_text('ALL = ["a", "b", "c"]\nCORE = ["a"]\n')
    return tmp_path


def test_files_split_by_shape_and_precision_combine(root, tmp_path, capsys):
    first = write(tmp_path / "one.json", [row("a", "tf32", 2.0, 1.0, 1.5), row("b", "tf32", 8.0, 4.0, 0.5)])
    second = write(tmp_path / "two.json", [row("c", "tf32", 1.0, 0.25), row("a", "bf16", 0.5, 0.5)])
    out = tmp_path / "summary.json"
    assert summary.main([first, second, "--json", str(out)], root=root) == 1  # bf16 lacks b and c
    text = capsys.readouterr().out
    assert "tf32: 3/3 suite rows verified" in text and "bf16: 1/3" in text
    saved = json.loads(out.read_text())["summary"]
    assert saved["tf32"]["geomean_fwd_vs_eager"] == pytest.approx((2.0 * 8.0 * 1.0) ** (1 / 3))
    assert saved["tf32"]["geomean_fwdbwd_vs_eager"] == pytest.approx(1.0)
    # cuDNN-benchmark speedups exist for two of the rows: the mean says over how many
    assert saved["tf32"]["geomean_fwd_vs_cudnn_bench"] == pytest.approx(math.sqrt(1.5 * 0.5))
    assert "0.87x (over 2 rows) vs cudnn-bench" in text
    assert saved["tf32"]["below_1_fwdbwd_vs_eager"] == [["c", 0.25]]
    assert saved["tf32"]["below_1_fwd_vs_cudnn_bench"] == [["b", 0.5]]
    assert saved["bf16"]["missing"] == ["b", "c"]
    assert summary.main([first, second, "--suite", "core"], root=root) == 0


def test_host_bound_rows_are_listed(root, tmp_path, capsys):
    """Rows whose tconv time followed the host (bench's *_host_bound) are named per pass: their speedups are lower
    bounds."""
    rows = [dict(row("a", "bf16", 2.0, 0.8), tconv_fwdbwd_host_bound=True, tconv_fwd_host_bound=False),
            row("b", "bf16", 1.5, 1.2), dict(row("c", "bf16", 1.1, 1.0), tconv_fwdbwd_host_bound=True)]
    out = tmp_path / "summary.json"
    assert summary.main([write(tmp_path / "r.json", rows), "--json", str(out)], root=root) == 0
    text = capsys.readouterr().out
    assert "fwd+bwd  host-bound tconv times (the CPU set them): a, c" in text
    assert "forward  host-bound" not in text
    saved = json.loads(out.read_text())["summary"]["bf16"]
    assert saved["host_bound_fwdbwd"] == ["a", "c"] and saved["host_bound_fwd"] == []


def test_unverified_and_failed_rows_are_listed_and_left_out(root, tmp_path, capsys):
    path = write(tmp_path / "r.json", [row("a", "tf32", 2.0, 2.0), row("b", "tf32", 100.0, 100.0, verified=False),
                                       row("c", "tf32", None, None, verified=False, error="RuntimeError: boom"),
                                       row("x", "tf32", 3.0, 3.0)])
    assert summary.main([path], root=root) == 1
    text = capsys.readouterr().out
    assert "tf32: 1/3 suite rows verified" in text
    assert "geomean 2.00x vs eager" in text  # neither the unverified 100x nor the extra shape counts
    assert "not verified or failed: b, c" in text and "not in the suite: x" in text


@pytest.mark.parametrize("change", [{"tconv_commit": "def5678"}, {"gpu": "NVIDIA H100 80GB HBM3"}, {"runs": 50},
                                    {"cudnn": 90800}])
def test_files_from_different_conditions_are_refused(root, tmp_path, capsys, change):
    first = write(tmp_path / "one.json", [row("a", "tf32", 2.0, 1.0)])
    second = write(tmp_path / "two.json", [row("b", "tf32", 2.0, 1.0)], **change)
    assert summary.main([first, second], root=root) == 2
    err = capsys.readouterr().err
    assert "different conditions" in err and next(iter(change)) in err


def test_a_row_in_two_files_is_refused(root, tmp_path, capsys):
    first = write(tmp_path / "one.json", [row("a", "tf32", 2.0, 1.0)])
    second = write(tmp_path / "two.json", [row("a", "tf32", 3.0, 1.0)])
    assert summary.main([first, second], root=root) == 2
    assert "a (tf32) is in both" in capsys.readouterr().err


def test_unreadable_or_foreign_files_exit_2(root, tmp_path, capsys):
    (tmp_path / "bad.json").write_text("{not json")
    (tmp_path / "other.json").write_text(json.dumps({"rows": "no"}))
    assert summary.main([str(tmp_path / "bad.json")], root=root) == 2
    assert summary.main([str(tmp_path / "other.json")], root=root) == 2
    assert summary.main([str(tmp_path / "missing.json")], root=root) == 2
    assert summary.main([write(tmp_path / "ok.json", [row("a", "tf32", 1.0, 1.0)]), "--suite", "nope"], root=root) == 2


def test_cli_routes_to_summary(tmp_path, capsys):
    # the repository's own suites: one row of the 22 is incomplete on purpose
    path = write(tmp_path / "r.json", [row("l1_68_convt3d_square_input_asym_kernel", "tf32", 3.9, 1.9)])
    assert tconv_main(["summary", path]) == 1
    assert "tf32: 1/22 suite rows verified" in capsys.readouterr().out


def test_merge_writes_one_results_file_in_suite_order(root, tmp_path, capsys):
    first = write(tmp_path / "one.json", [row("c", "tf32", 1.0, 0.25)], date="2026-11-23T01:00:00+00:00")
    second = write(tmp_path / "two.json", [row("b", "tf32", 8.0, 4.0), row("a", "tf32", 2.0, 1.0)],
                   resumed=["2026-11-23T03:00:00+00:00"])
    merged_path = tmp_path / "merged.json"
    assert summary.main([first, second, "--merge", str(merged_path)], root=root) == 0
    assert "merged 3 rows" in capsys.readouterr().out
    merged = json.loads(merged_path.read_text())
    assert merged["complete"] is True
    assert [r["problem"] for r in merged["rows"]] == ["a", "b", "c"]
    assert merged["env"]["tconv_commit"] == ENV["tconv_commit"]
    assert merged["env"]["merged_from"] == [
        {"file": "one.json", "date": "2026-11-23T01:00:00+00:00", "resumed": []},
        {"file": "two.json", "date": ENV["date"], "resumed": ["2026-11-23T03:00:00+00:00"]}]
    # the merged file is itself a results file: it summarises to the same means
    assert summary.main([str(merged_path)], root=root) == 0
    # a precision lacking a suite shape leaves it incomplete
    assert summary.main([first, "--merge", str(merged_path)], root=root) == 1
    assert json.loads(merged_path.read_text())["complete"] is False
