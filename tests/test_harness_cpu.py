"""Tests of the verify/bench harness (tconv/harness) on tiny problems.

Runs on CPU without the CUDA extension (the solutions in tests/cheats/ use PyTorch only). Each
deliberately cheating solution in tests/cheats/ must be caught by the named check it targets; the
honest ones must pass. A few tests at the end need CUDA and are skipped without it.
"""

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
import torch

import tconv.harness.bench as bench
import tconv.harness.sources as sources
import tconv.harness.summary as summary
import tconv.harness.verify as verify_module
from tconv.harness.compare import compare_to_reference, judge, measure, pool_baselines, round_to_tf32, scaled_error
from tconv.harness.conv_detect import is_conv_kernel
from tconv.harness.precision import (
    PRECISIONS,
    global_state_differences,
    precision_mode,
    preserved_global_state,
    snapshot_global_state,
)
from tconv.harness.problem import load_problem
from tconv.harness.roofline import floor_ms, measure_work, peaks_for_gpu
from tconv.harness.timing import TimingStats, percentile
from tconv.harness.verify import CHECK_NAMES, verify

CHEATS = Path(__file__).resolve().parent / "cheats"
TINY = CHEATS / "tiny_problem.py"
HAS_CUDA = torch.cuda.is_available()


def run_verify(solution, problem=TINY, precision="fp32", check_torch_conv=False, trials=2, device="cpu"):
    return verify(problem, CHEATS / solution, trials=trials, precision=precision, device=device,
                  check_torch_conv=check_torch_conv)


def statuses(report):
    return {check.name: check.status for check in report.checks}


# --------------------------------------------------------------------------------------------------
# Honest solutions pass


@pytest.mark.parametrize("precision", ["fp32", "tf32"])
def test_honest_torch_stand_in_passes_every_check(precision):
    report = run_verify("honest_torch.py", precision=precision, trials=5)
    assert report.passed, report.format_table()
    assert [check.name for check in report.checks] == list(CHECK_NAMES)
    skipped = {name for name, status in statuses(report).items() if status == "SKIP"}
    assert skipped == {"nan_poison", "no_torch_conv"}  # CPU, and the torch-conv check disabled


@pytest.mark.parametrize(
    "problem, solution",
    [
        ("tiny_problem_1d.py", "honest_torch.py"),
        ("tiny_problem_3d.py", "honest_torch.py"),
        ("tiny_fused_problem.py", "honest_fused_torch.py"),
    ],
)
@pytest.mark.parametrize("precision", PRECISIONS)
def test_honest_solutions_pass_in_every_precision(problem, solution, precision):
    report = run_verify(solution, problem=CHEATS / problem, precision=precision)
    assert report.passed, report.format_table()


@pytest.mark.parametrize("problem", ["tiny_problem.py", "tiny_problem_1d.py", "tiny_problem_3d.py"])
def test_solution_without_torch_conv_passes_with_the_conv_check_on(problem):
    report = run_verify("honest_einsum.py", problem=CHEATS / problem, check_torch_conv=True)
    assert report.passed, report.format_table()
    assert report.check("no_torch_conv").status == "PASS"


def test_cpu_fallback_scope_is_not_flagged_on_cpu():
    report = run_verify("fallback_scope.py", check_torch_conv=True)
    assert report.passed, report.format_table()
    assert report.check("no_torch_conv").status == "PASS"


# --------------------------------------------------------------------------------------------------
# Cheats are caught by the check they target


@pytest.mark.parametrize(
    "solution, precision, check_torch_conv, caught_by, exactly",
    [
        ("cheat_cached_output.py", "fp32", False, "cached_output", False),
        ("cheat_cached_weights.py", "fp32", False, "perturbed_params", True),
        ("cheat_bf16.py", "fp32", False, "forward", False),
        ("cheat_bf16.py", "tf32", False, "forward", False),
        ("cheat_flag_benchmark.py", "tf32", False, "global_state", True),
        ("cheat_flag_matmul_precision.py", "fp32", False, "global_state", True),
        ("cheat_flag_at_construction.py", "tf32", False, "global_state", True),
        ("honest_torch.py", "fp32", True, "no_torch_conv", True),
        ("cheat_hidden_conv.py", "fp32", True, "no_torch_conv", True),
        ("cheat_partial.py", "fp32", False, "forward", False),
        ("cheat_mutates_input.py", "fp32", False, "inputs_unmutated", False),
        ("cheat_wrong_grad.py", "fp32", False, "grad_params", False),
        ("cheat_param_mismatch.py", "fp32", False, "params_match", True),
    ],
)
def test_cheat_is_caught(solution, precision, check_torch_conv, caught_by, exactly):
    report = run_verify(solution, precision=precision, check_torch_conv=check_torch_conv)
    assert not report.passed
    assert caught_by in report.failed_checks(), report.format_table()
    if exactly:  # the cheat is otherwise correct, so nothing else may fail
        assert report.failed_checks() == [caught_by], report.format_table()


def test_tf32_operands_pass_in_tf32_mode_and_fail_in_exact_fp32_mode():
    assert run_verify("cheat_tf32_operands.py", precision="tf32").passed
    exact = run_verify("cheat_tf32_operands.py", precision="fp32")
    assert "forward" in exact.failed_checks(), exact.format_table()


def test_wrong_weight_gradient_leaves_forward_and_input_gradient_passing():
    report = run_verify("cheat_wrong_grad.py")
    status = statuses(report)
    assert status["grad_params"] == "FAIL"
    assert status["forward"] == "PASS" and status["grad_input"] == "PASS"
    assert "conv_transpose.weight" in report.check("grad_params").message


def test_cached_output_report_names_the_identical_outputs():
    report = run_verify("cheat_cached_output.py")
    assert "identical outputs" in report.check("cached_output").message


def test_verify_leaves_global_state_as_it_found_it():
    before = snapshot_global_state()
    rng_before = torch.get_rng_state()
    run_verify("cheat_flag_matmul_precision.py", precision="tf32")
    run_verify("cheat_flag_at_construction.py", precision="fp32")
    assert global_state_differences(before, snapshot_global_state()) == []
    assert torch.equal(rng_before, torch.get_rng_state())


def test_broken_solution_file_fails_load_and_skips_the_rest(tmp_path):
    broken = tmp_path / "broken.py"
    broken.write_text("raise RuntimeError('cannot import me')\n")
    report = verify(TINY, broken, device="cpu")
    assert report.failed_checks() == ["load"]
    assert "cannot import me" in report.check("load").message
    assert all(check.status == "SKIP" for check in report.checks if check.name != "load")


def test_default_solution_path_is_repo_solutions_stem(tmp_path):
    (tmp_path / "problems").mkdir()
    (tmp_path / "solutions").mkdir()
    shutil.copy(TINY, tmp_path / "problems" / "tiny.py")
    shutil.copy(CHEATS / "honest_einsum.py", tmp_path / "solutions" / "tiny.py")
    loaded = load_problem(tmp_path / "problems" / "tiny.py")
    assert loaded.solution_path == (tmp_path / "solutions" / "tiny.py").resolve()
    assert loaded.ModelNew.__name__ == "ModelNew" and loaded.stem == "tiny"
    assert verify(tmp_path / "problems" / "tiny.py", device="cpu", trials=1).passed


def test_cuda_kernel_names_that_count_as_torch_convolution():
    assert is_conv_kernel("sm90_xmma_fprop_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nchw")
    assert is_conv_kernel("sm80_xmma_wgrad_implicit_gemm_indexed_f32f32_tf32f32_f32")
    assert is_conv_kernel("void cudnn::engines_precompiled::nchwToNhwcKernel<float>")
    assert is_conv_kernel("void implicit_convolve_sgemm<float, float, 128, 5, 5>")
    # cuBLAS GEMMs (torch.matmul) carry "xmma" too, but are not convolutions; tconv's kernels are clean.
    assert not is_conv_kernel("sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize32x32x8_stage3_execute_kernel__5x_cublas")
    assert not is_conv_kernel("void tconv_direct_grad_weight_kernel<float>")


# --------------------------------------------------------------------------------------------------
# CLI


def test_verify_cli_exit_codes_and_json(tmp_path, capsys):
    json_path = tmp_path / "report.json"
    code = verify_module.main([str(TINY), "--solution", str(CHEATS / "honest_einsum.py"), "--precision", "fp32",
                               "--device", "cpu", "--trials", "2", "--json", str(json_path)])
    assert code == 0
    assert "RESULT: PASS" in capsys.readouterr().out
    saved = json.loads(json_path.read_text())
    assert saved["passed"] is True and saved["precision"] == "fp32"
    assert [check["name"] for check in saved["checks"]] == list(CHECK_NAMES)

    assert verify_module.main([str(TINY), "--solution", str(CHEATS / "cheat_partial.py"), "--device", "cpu",
                               "--trials", "1"]) == 1
    assert "RESULT: FAIL" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv",
    [
        [],  # no problem
        ["does_not_exist.py"],
        [str(TINY)],  # default solution tests/solutions/tiny_problem.py does not exist
        [str(TINY), "--solution", str(CHEATS / "honest_einsum.py"), "--precision", "fp64"],
        [str(TINY), "--solution", str(CHEATS / "honest_einsum.py"), "--trials", "0"],
    ],
)
def test_verify_cli_usage_errors_exit_2(argv, capsys):
    assert verify_module.main(argv) == 2
    assert capsys.readouterr().err


@pytest.mark.skipif(HAS_CUDA, reason="needs a machine without CUDA")
def test_verify_cli_cuda_without_gpu_is_a_usage_error(capsys):
    argv = [str(TINY), "--solution", str(CHEATS / "honest_einsum.py"), "--device", "cuda"]
    assert verify_module.main(argv) == 2
    assert "CUDA" in capsys.readouterr().err


@pytest.mark.skipif(HAS_CUDA, reason="needs a machine without CUDA")
def test_bench_without_gpu_exits_2_with_a_clear_message(capsys):
    assert bench.main(["--suite", "core"]) == 2
    message = capsys.readouterr().err
    assert "no CUDA GPU" in message and "tconv verify" in message


def test_bench_cli_rejects_bad_arguments():
    assert bench.main(["--precision", "fp64"]) == 2
    assert bench.main(["--suite", "nonexistent"]) == 2


# --------------------------------------------------------------------------------------------------
# Precision modes and global state

_FLAG_CHANGES = {
    "cudnn.benchmark": lambda: setattr(torch.backends.cudnn, "benchmark", True),
    "cudnn.allow_tf32": lambda: setattr(torch.backends.cudnn, "allow_tf32", False),
    "cudnn.deterministic": lambda: setattr(torch.backends.cudnn, "deterministic", True),
    "matmul precision": lambda: torch.set_float32_matmul_precision("medium"),
    "cuda.matmul.allow_tf32": lambda: setattr(torch.backends.cuda.matmul, "allow_tf32", True),
    "deterministic algorithms": lambda: torch.use_deterministic_algorithms(True, warn_only=True),
    "default dtype": lambda: torch.set_default_dtype(torch.float64),
    "bf16 reduced reduction": lambda: setattr(
        torch.backends.cuda.matmul, "allow_bf16_reduced_precision_reduction", False),
}
# torch >= 2.9 keeps per-backend precision strings beside the legacy flags; mixing both is the hard case.
if hasattr(torch.backends.cudnn, "conv") and hasattr(torch.backends.cudnn.conv, "fp32_precision"):
    _FLAG_CHANGES.update({
        "cudnn.conv.fp32_precision": lambda: setattr(torch.backends.cudnn.conv, "fp32_precision", "ieee"),
        "cudnn.fp32_precision": lambda: setattr(torch.backends.cudnn, "fp32_precision", "ieee"),
        "fp32_precision": lambda: setattr(torch.backends, "fp32_precision", "tf32"),
        "cuda.matmul.fp32_precision": lambda: setattr(torch.backends.cuda.matmul, "fp32_precision", "tf32"),
        "mkldnn.conv.fp32_precision": lambda: setattr(torch.backends.mkldnn.conv, "fp32_precision", "bf16"),
    })


@pytest.mark.parametrize("change", sorted(_FLAG_CHANGES))
@pytest.mark.parametrize("mode", PRECISIONS)
def test_precision_mode_restores_every_flag(mode, change):
    before = snapshot_global_state()
    with precision_mode(mode, cudnn_benchmark=True):
        _FLAG_CHANGES[change]()
        assert global_state_differences(before, snapshot_global_state())  # something did change
    assert global_state_differences(before, snapshot_global_state()) == []


@pytest.mark.parametrize("change", sorted(_FLAG_CHANGES))
def test_precision_mode_sets_its_flags_from_any_starting_state(change):
    baseline = snapshot_global_state()
    with preserved_global_state():
        _FLAG_CHANGES[change]()
        changed = snapshot_global_state()
        for mode in PRECISIONS:
            with precision_mode(mode):
                assert torch.backends.cudnn.benchmark is False
                assert torch.backends.cudnn.allow_tf32 is (mode != "fp32")
                assert torch.get_float32_matmul_precision() == "highest"
                assert torch.are_deterministic_algorithms_enabled() is False
            assert global_state_differences(changed, snapshot_global_state()) == []
    assert global_state_differences(baseline, snapshot_global_state()) == []


def test_precision_mode_restores_after_an_exception():
    before = snapshot_global_state()
    with pytest.raises(RuntimeError):
        with precision_mode("fp32", cudnn_benchmark=True):
            torch.set_float32_matmul_precision("medium")
            raise RuntimeError("inside")
    assert global_state_differences(before, snapshot_global_state()) == []


def test_snapshot_reports_which_flag_changed():
    before = snapshot_global_state()
    with precision_mode("tf32", cudnn_benchmark=True):
        differences = global_state_differences(before, snapshot_global_state())
    assert any(line.startswith("cudnn.benchmark: False -> True") for line in differences)


# --------------------------------------------------------------------------------------------------
# Tolerance metric


def test_round_to_tf32_keeps_ten_mantissa_bits():
    values = torch.randn(10_000) * 100
    rounded = round_to_tf32(values)
    assert (rounded.view(torch.int32) & 0x1FFF).eq(0).all()  # 13 low mantissa bits cleared
    assert ((rounded - values).abs() <= values.abs() * 2.0**-11).all()  # at most half a TF32 ulp
    assert torch.equal(round_to_tf32(rounded), rounded)
    assert round_to_tf32(torch.tensor([float("inf"), -float("inf")])).isinf().all()


def test_compare_rules():
    reference = torch.randn(1000, dtype=torch.float64)
    exact = reference.float()
    tf32_like = round_to_tf32(exact)
    # fp32 exact mode: allclose 1e-4 catches TF32-level error on values of this size ...
    assert compare_to_reference(exact, exact, reference, "fp32").ok
    assert not compare_to_reference(exact * (1 + 1e-3), exact, reference, "fp32").ok
    # ... tf32 mode accepts ideal-TF32 error even beside an exact original, but not 8x more
    assert compare_to_reference(tf32_like, exact, reference, "tf32", ideal_tf32=tf32_like.double()).ok
    bf16_like = exact.bfloat16().float()
    assert not compare_to_reference(bf16_like, exact, reference, "tf32", ideal_tf32=tf32_like.double()).ok
    # NaN anywhere fails, with the position in the message
    poisoned = exact.clone()
    poisoned[17] = float("nan")
    result = compare_to_reference(poisoned, exact, reference, "tf32", ideal_tf32=tf32_like.double())
    assert not result.ok and "[17]" in result.message
    assert scaled_error(torch.zeros(3), torch.zeros(3)) == 0.0


def _noisy(reference, generator, noise=1e-6, spikes=(), spike_size=0.0):
    values = reference + noise * torch.randn(reference.shape, generator=generator, dtype=torch.float64)
    for index in spikes:
        values[index] += spike_size
    return values.float()


def test_relative_rule_tolerates_discontinuity_spikes_but_not_bugs():
    generator = torch.Generator().manual_seed(0)
    reference = torch.randn(100_000, generator=generator, dtype=torch.float64)
    # The original has two spikes (e.g. ReLU decisions flipped by rounding); an honest solution
    # has its own two, elsewhere and somewhat higher: passes on the discontinuity allowance.
    original = _noisy(reference, generator, spikes=(10, 20_000), spike_size=0.1)
    honest = _noisy(reference, generator, spikes=(5, 70_000), spike_size=0.3)
    result = compare_to_reference(honest, original, reference, "tf32")
    assert result.ok and "discontinuity" in result.message
    # More spikes than the baseline has, or a systematic error, still fail.
    assert not compare_to_reference(_noisy(reference, generator, spikes=range(0, 50), spike_size=0.3),
                                     original, reference, "tf32").ok
    assert not compare_to_reference(_noisy(reference, generator, noise=1e-3), original, reference, "tf32").ok
    # Without spikes in the baseline, a single wrong element fails.
    clean = _noisy(reference, generator)
    assert not compare_to_reference(_noisy(reference, generator, spikes=(123,), spike_size=1e-4),
                                    clean, reference, "tf32").ok


def test_runs_are_judged_against_the_baseline_pooled_over_runs():
    generator = torch.Generator().manual_seed(1)
    reference = torch.randn(10_000, generator=generator, dtype=torch.float64)
    # Run A: the original happened to be accurate, the solution 3x less so; run B: the original
    # shows the same rounding noise at a larger amplitude (as downstream of a big reduction).
    lucky = measure(_noisy(reference, generator, noise=1e-6), _noisy(reference, generator, noise=3e-7), reference, "tf32")
    unlucky = measure(_noisy(reference, generator, noise=1e-6), _noisy(reference, generator, noise=2e-6), reference, "tf32")
    assert not judge(lucky).ok
    assert judge(lucky, pool_baselines([lucky.baseline, unlucky.baseline])).ok


# --------------------------------------------------------------------------------------------------
# Bench pieces: work estimate, timing statistics, rows, JSON and chart


def test_flops_and_bytes_count_the_transposed_convolutions_only():
    loaded = load_problem(TINY, CHEATS / "honest_torch.py")
    model = loaded.Model(*loaded.get_init_inputs())
    work = measure_work(model, loaded.get_inputs(), element_size=4)
    # 2 * N * input positions * C_in * (C_out / groups) * kernel volume
    assert work.flops_fwd == 2 * 2 * (5 * 7) * 4 * (6 // 2) * 9
    assert work.bytes_fwd == 4 * (2 * 4 * 5 * 7 + 2 * 6 * 10 * 14 + 4 * 3 * 3 * 3)
    assert work.flops_fwdbwd == 3 * work.flops_fwd

    fused = load_problem(CHEATS / "tiny_fused_problem.py", CHEATS / "honest_fused_torch.py")
    fused_work = measure_work(fused.Model(*fused.get_init_inputs()), fused.get_inputs(), element_size=2)
    assert len(fused_work.calls) == 1  # GroupNorm and ReLU are not counted
    assert fused_work.flops_fwd == 2 * 2 * (3 * 4 * 4) * 3 * 4 * 27


def test_gpu_peak_table_and_floor():
    assert peaks_for_gpu("NVIDIA H200")["tf32"] == 408e12
    # the exact-fp32 roof is 3xTF32's (a third of the TF32 rate), above the FFMA SGEMM rate
    assert peaks_for_gpu("NVIDIA H200")["fp32"] == pytest.approx(136e12)
    assert peaks_for_gpu("NVIDIA H100 80GB HBM3")["fp32"] == pytest.approx(400e12 / 3)
    assert peaks_for_gpu("NVIDIA H100 80GB HBM3")["bandwidth"] == 3.0e12
    assert peaks_for_gpu("NVIDIA H100 PCIe") is None and peaks_for_gpu("NVIDIA A100-SXM4-80GB") is None
    assert floor_ms(408e12, 1.0, 408e12, 4.2e12) == pytest.approx(1e3)  # compute-bound: 1 s
    assert floor_ms(1.0, 4.2e12, 408e12, 4.2e12) == pytest.approx(1e3)  # memory-bound: 1 s
    assert floor_ms(1.0, 1.0, None, 4.2e12) is None


def test_timing_statistics():
    stats = TimingStats.from_samples([float(v) for v in range(10, 0, -1)])
    assert (stats.median_ms, stats.runs) == (5.5, 10)
    assert stats.p20_ms == pytest.approx(2.8) and stats.p80_ms == pytest.approx(8.2)
    assert percentile([3.0], 80) == 3.0
    assert stats.host_ms is None and not stats.host_bound  # CPU timings: the time is the host's own


@pytest.mark.parametrize("host_samples, host_ms, bound", [
    ([0.2, 0.9, 0.3], 0.3, False),  # the host far ahead of a 1-ms GPU run
    ([0.95, 0.85, 0.92], 0.92, True),  # issuing a run took about as long as running it
    ([0.9, 0.9, 0.9], 0.9, True),  # HOST_BOUND_FRACTION itself
])
def test_timing_statistics_say_when_the_host_bound_them(host_samples, host_ms, bound):
    stats = TimingStats.from_samples([1.0, 1.0, 1.0], host_samples)
    assert stats.host_ms == pytest.approx(host_ms) and stats.host_bound is bound
    row = {}
    bench._store_timings(row, "tconv", {"fwdbwd": stats})
    assert row["tconv_fwdbwd_host_ms"] == pytest.approx(host_ms) and row["tconv_fwdbwd_host_bound"] is bound
    assert TimingStats(**stats.to_dict()) == stats  # as the cuDNN-benchmark child hands its timings back


def test_table_marks_host_bound_times():
    row = {"problem": "p", "precision": "bf16", "verified": True, "error": None, "tconv_fwd_ms": 0.2,
           "tconv_fwd_host_bound": False, "tconv_fwdbwd_ms": 0.8, "tconv_fwdbwd_host_bound": True,
           "eager_fwdbwd_ms": 0.7}
    table = bench.format_table([row])
    assert f"0.800{bench.HOST_BOUND_MARK}" in table and f"0.200{bench.HOST_BOUND_MARK}" not in table
    assert "0.700" in table and f"0.700{bench.HOST_BOUND_MARK}" not in table
    assert table.splitlines()[-1].startswith(f"{bench.HOST_BOUND_MARK}: host-bound")
    row["tconv_fwdbwd_host_bound"] = False
    assert "host-bound" not in bench.format_table([row])


def test_bench_rows_json_and_chart_on_cpu(tmp_path):
    failing_problem = tmp_path / "raises.py"
    failing_problem.write_text(
        "import torch\n"
        "class Model(torch.nn.Module):\n"
        "    def forward(self, x):\n"
        "        raise RuntimeError('CUDA out of memory (simulated)')\n"
        "def get_inputs():\n    return [torch.rand(2)]\n"
        "def get_init_inputs():\n    return []\n"
    )
    specs = [
        bench.ProblemSpec("tiny_ok", TINY, CHEATS / "fallback_scope.py"),
        bench.ProblemSpec("tiny_cheat", TINY, CHEATS / "cheat_partial.py"),
        bench.ProblemSpec("raises", failing_problem, CHEATS / "honest_torch.py"),
        bench.ProblemSpec("tiny_no_solution", TINY, CHEATS / "no_such_solution.py"),
    ]
    settings = bench.BenchSettings(runs=3, warmup=1, compile_mode=False,
                                   peaks={"tf32": 1e12, "fp32": 1e11, "bandwidth": 1e10})
    progress, rows_seen = [], []
    rows = bench.run_benchmarks(specs, ["tf32"], settings, torch.device("cpu"), progress=progress.append,
                                on_row=lambda so_far: rows_seen.append(len(so_far)))
    assert len(progress) == 4 and progress[0].startswith("[1/4] tiny_ok tf32: verified")
    assert rows_seen == [1, 2, 3, 4]  # the partial JSON is rewritten after every row
    ok, cheat, raises, no_solution = rows

    assert ok["verified"] and ok["error"] is None
    for variant in ("eager", "cudnn_bench", "tconv"):
        for pass_name in ("fwd", "fwdbwd"):
            assert ok[f"{variant}_{pass_name}_p20_ms"] <= ok[f"{variant}_{pass_name}_ms"] <= ok[f"{variant}_{pass_name}_p80_ms"]
    assert ok["compile_fwd_ms"] is None and ok["tconv_fwd_speedup_vs_compile"] is None
    assert ok["tconv_fwd_speedup_vs_eager"] == pytest.approx(ok["eager_fwd_ms"] / ok["tconv_fwd_ms"])
    assert ok["flops"] == 15120 and ok["floor_fwd_ms"] is not None and ok["tconv_fwd_pct_of_floor"] > 0

    assert cheat["verified"] is False and "forward" in cheat["verify_failures"]
    assert cheat["eager_fwd_ms"] is not None  # baselines still timed ...
    assert all(cheat[key] is None for key in cheat if key.startswith("tconv_"))  # ... tconv not

    assert "out of memory (simulated)" in raises["error"] and not raises["verified"]  # recorded ...
    assert no_solution["verified"] is False and "load" in no_solution["verify_failures"]  # ... run continued
    assert no_solution["eager_fwd_ms"] is not None and no_solution["error"] is None

    table = bench.format_table(rows)
    assert "tiny_ok" in table and "ERR" in table and "NO" in table
    env = bench.environment(torch.device("cpu"), settings.peaks, settings, CHEATS.parent.parent)
    json_path, chart_path = bench.write_results(rows, env, tmp_path)
    assert json_path.name.startswith("bench_") and json_path.suffix == ".json"
    saved = json.loads(json_path.read_text())
    assert set(saved["env"]) >= {"gpu", "torch", "cuda", "cudnn", "tconv_commit", "tconv_sources", "date", "python",
                                 "peaks", "tconv_autotune"}
    assert saved["env"]["tconv_sources"] == sources.tree_digest(CHEATS.parent.parent)
    assert saved["env"]["tconv_autotune"] is False
    assert saved["env"]["tconv_switches"] == bench.tconv_switches()
    assert saved["rows"][0]["problem"] == "tiny_ok" and saved["complete"] is True
    partial = bench.write_json(rows[:1], env, tmp_path / "partial.json", complete=False)
    assert json.loads(partial.read_text())["complete"] is False
    if chart_path is not None:  # matplotlib is optional
        assert chart_path == json_path.with_suffix(".png") and chart_path.stat().st_size > 0


def test_bench_time_budget_and_resume(tmp_path, capsys):
    settings = bench.BenchSettings(runs=3, warmup=1, compile_mode=False)
    env = bench.environment(torch.device("cpu"), settings.peaks, settings, CHEATS.parent.parent)
    ok = bench.ProblemSpec("tiny_ok", TINY, CHEATS / "fallback_scope.py")
    cheat = bench.ProblemSpec("tiny_cheat", TINY, CHEATS / "cheat_partial.py")
    lines = []
    # A spent budget measures nothing and leaves an incomplete file to resume.
    assert bench.bench_to_files([ok, cheat], ["tf32"], settings, torch.device("cpu"), env, tmp_path,
                                time_budget=0.0, progress=lines.append) == 3
    path, = tmp_path.glob("bench_*.json")
    saved = json.loads(path.read_text())
    assert saved["complete"] is False and saved["rows"] == [] and any("time budget" in line for line in lines)
    # Resuming measures what is missing (here one problem), keeps the file's date and lists the continuation.
    assert bench.bench_to_files([ok], ["tf32"], settings, torch.device("cpu"), env, tmp_path, resume=path,
                                progress=lines.append) == 0
    saved = json.loads(path.read_text())
    assert saved["complete"] is True and [r["problem"] for r in saved["rows"]] == ["tiny_ok"]
    assert saved["env"]["date"] == env["date"] and len(saved["env"]["resumed"]) == 1
    first = saved["rows"][0]
    # Again with both problems: the kept row is not measured again, the new one is appended.
    assert bench.bench_to_files([ok, cheat], ["tf32"], settings, torch.device("cpu"), env, tmp_path, resume=path,
                                progress=lines.append) == 1  # the cheat fails verification
    saved = json.loads(path.read_text())
    assert [r["problem"] for r in saved["rows"]] == ["tiny_ok", "tiny_cheat"] and saved["rows"][0] == first
    assert len(saved["env"]["resumed"]) == 2 and len(list(tmp_path.glob("bench_*.json"))) == 1
    # A file of other conditions is refused with the differences named.
    other = dict(env, runs=99, tconv_commit="abc")
    assert bench.bench_to_files([ok], ["tf32"], settings, torch.device("cpu"), other, tmp_path, resume=path) == 2
    err = capsys.readouterr().err
    assert "cannot resume" in err and "runs" in err and "tconv_commit" in err
    not_results = tmp_path / "x.json"
    not_results.write_text("[1, 2]")
    assert bench.bench_to_files([ok], ["tf32"], settings, torch.device("cpu"), env, tmp_path, resume=not_results) == 2


def test_bench_autotune_covers_the_tconv_timings_only(monkeypatch):
    from tconv import _autotune

    seen = []
    real = bench.time_model

    def recording(model, *args, **kwargs):
        seen.append((type(model).__name__, _autotune.autotune_enabled()))
        return real(model, *args, **kwargs)

    monkeypatch.setattr(bench, "time_model", recording)
    settings = bench.BenchSettings(runs=3, warmup=1, compile_mode=False, autotune=True)
    spec = bench.ProblemSpec("tiny_ok", TINY, CHEATS / "fallback_scope.py")
    row, = bench.run_benchmarks([spec], ["tf32"], settings, torch.device("cpu"))
    assert row["verified"] and seen[-1] == ("ModelNew", True)
    assert all(not enabled for name, enabled in seen[:-1]) and len(seen) >= 2
    assert not _autotune.autotune_enabled()


def test_cudnn_benchmark_child_starts_after_the_cache_is_emptied(monkeypatch):
    """The child shares the card with this process: eager's cached blocks are released before it starts."""
    import subprocess
    from types import SimpleNamespace

    events = []
    monkeypatch.setattr(torch.cuda, "empty_cache", lambda: events.append("empty_cache"))
    stats = {"median_ms": 1.0, "p20_ms": 0.9, "p80_ms": 1.1, "runs": 3}

    def fake_run(args, **kwargs):
        events.append("child")
        return SimpleNamespace(returncode=0, stdout=json.dumps({"fwd": stats}) + "\n", stderr="")

    monkeypatch.setattr(subprocess, "run", fake_run)
    spec = bench.ProblemSpec("tiny_ok", TINY, CHEATS / "fallback_scope.py")
    timings = bench._time_cudnn_benchmark_in_child(spec, "tf32", bench.BenchSettings(runs=3, warmup=1))
    assert events == ["empty_cache", "child"]
    assert timings["fwd"].median_ms == 1.0


# --------------------------------------------------------------------------------------------------
# CUDA only: NaN poisoning and the CUDA side of the torch-conv check

gpu = pytest.mark.skipif(not HAS_CUDA, reason="needs CUDA")


@pytest.mark.gpu
@gpu
def test_nan_poison_catches_unwritten_output_on_cuda():
    report = run_verify("cheat_uninitialized.py", device="cuda")
    assert "nan_poison" in report.failed_checks(), report.format_table()
    assert "NaN" in report.check("forward").message


@pytest.mark.gpu
@gpu
@pytest.mark.parametrize("precision", ["tf32", "fp32"])
def test_honest_solution_passes_on_cuda(precision):
    report = run_verify("honest_einsum.py", device="cuda", precision=precision, check_torch_conv=True)
    assert report.passed, report.format_table()
    assert report.check("nan_poison").status == "PASS"


@pytest.mark.gpu
@gpu
def test_cpu_fallback_scope_is_flagged_on_cuda():
    report = run_verify("fallback_scope.py", device="cuda", check_torch_conv=True)
    assert report.failed_checks() == ["no_torch_conv"], report.format_table()


def test_git_commit_prefers_tconv_commit_variable(monkeypatch, tmp_path):
    """A copy of the tree on a GPU machine may sit under some other repository: the commit passed
    in TCONV_COMMIT is the one recorded, else git's HEAD (with -dirty), else 'unknown'."""
    monkeypatch.setenv("TCONV_COMMIT", "0123abc")
    assert bench.git_commit(Path(__file__).resolve().parent.parent) == "0123abc"
    monkeypatch.delenv("TCONV_COMMIT")
    assert bench.git_commit(tmp_path) == "unknown"  # tmp_path is in no repository


def test_tconv_commit_naming_other_code_is_flagged(monkeypatch, tmp_path):
    """A TCONV_COMMIT whose code git knows and which is not the tree that runs (a stale copy of the repository on the
    GPU machine answered `git rev-parse`) is recorded as '<commit>-mismatch'; one git cannot resolve is kept as given."""
    monkeypatch.setattr(bench.sources, "tree_digest", lambda root: "aaaa")
    monkeypatch.setattr(bench.sources, "commit_digest", lambda commit, root: {"old": "bbbb", "same": "aaaa"}[commit])
    monkeypatch.setenv("TCONV_COMMIT", "old")
    assert bench.git_commit(tmp_path) == "old-mismatch"
    monkeypatch.setenv("TCONV_COMMIT", "same")
    assert bench.git_commit(tmp_path) == "same"

    def unknown(commit, root):
        raise subprocess.CalledProcessError(128, ["git", "ls-tree", commit])

    monkeypatch.setattr(bench.sources, "commit_digest", unknown)
    monkeypatch.setenv("TCONV_COMMIT", "abc1234")
    assert bench.git_commit(tmp_path) == "abc1234"


def test_results_names_never_collide(tmp_path):
    """Two bench runs writing into one folder in the same second get different files."""
    env = {"gpu": "NVIDIA H200"}
    first, second = bench.results_stem(env, tmp_path), bench.results_stem(env, tmp_path)
    assert first != second and second.startswith(first) and (tmp_path / f"{first}.json").exists()


def test_bench_records_development_switches(tmp_path, monkeypatch):
    """A results file says which TCONV_* switches were set (not TCONV_COMMIT or TCONV_BUILD_DIR, which name the
    sources and the build); a file with other switches does not resume or merge with it."""
    for key in [k for k in os.environ if k.startswith("TCONV_")]:
        monkeypatch.delenv(key)
    monkeypatch.setenv("TCONV_COMMIT", "abc1234")
    monkeypatch.setenv("TCONV_BUILD_DIR", str(tmp_path / "build"))
    assert bench.tconv_switches() is None  # what older files hold: they resume as before
    settings = bench.BenchSettings(runs=3, warmup=1, compile_mode=False)
    plain = bench.environment(torch.device("cpu"), settings.peaks, settings, CHEATS.parent.parent)
    monkeypatch.setenv("TCONV_TMA_DIRECT_AUTO", "1")
    monkeypatch.setenv("TCONV_GATHER_TMA", "0")
    assert bench.tconv_switches() == {"TCONV_GATHER_TMA": "0", "TCONV_TMA_DIRECT_AUTO": "1"}
    switched = bench.environment(torch.device("cpu"), settings.peaks, settings, CHEATS.parent.parent)
    assert switched["tconv_switches"] == {"TCONV_GATHER_TMA": "0", "TCONV_TMA_DIRECT_AUTO": "1"}
    path = bench.write_json([], plain, tmp_path / "plain.json", complete=False)
    with pytest.raises(ValueError, match="tconv_switches"):
        bench.load_resumable(path, switched)
    assert "development switches set" in summary.format_summary(switched, {})
    assert "development switches" not in summary.format_summary(plain, {})


# --------------------------------------------------------------------------------------------------
# Input layouts (tconv verify / bench --layout)

_LAYOUT_CHECKING_SOLUTION = '''
import importlib.util

import torch

# fallback_scope.py's ModelNew (PyTorch's convolution in tconv's CPU-fallback scope, which verify exempts on CPU)
_spec = importlib.util.spec_from_file_location("layout_checked_fallback_scope", {fallback!r})
_base = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_base)
_FORMATS = {4: torch.channels_last, 5: torch.channels_last_3d}


class ModelNew(_base.ModelNew):
    """Refuses inputs whose 4-D or 5-D layout is not {layout}."""
    def forward(self, x):
        if x.dim() in _FORMATS:
            wanted = _FORMATS[x.dim()] if "{layout}" == "channels_last" else torch.contiguous_format
            if not x.is_contiguous(memory_format=wanted) or x.is_contiguous() == ("{layout}" == "channels_last"):
                raise RuntimeError("input not in {layout} layout: strides " + str(x.stride()))
        return super().forward(x)
'''


def _layout_checking_solution(folder, layout):
    path = folder / f"only_{layout}.py"
    path.write_text(_LAYOUT_CHECKING_SOLUTION.replace("{layout}", layout)
                    .replace("{fallback!r}", repr(str(CHEATS / "fallback_scope.py"))))
    return path


def test_to_layout_keeps_values_and_lays_out_4d_and_5d_tensors_only():
    from tconv.harness.tensors import layout_applies, strided_like, to_layout

    x2, x3, x1 = torch.rand(2, 3, 4, 5), torch.rand(2, 3, 4, 5, 6), torch.rand(2, 3, 4)
    got = to_layout([x2, x3, x1, 7], "channels_last")
    assert got[0].is_contiguous(memory_format=torch.channels_last) and not got[0].is_contiguous()
    assert got[1].is_contiguous(memory_format=torch.channels_last_3d) and not got[1].is_contiguous()
    assert got[2] is x1 and got[3] == 7
    assert all(torch.equal(a, b) for a, b in zip(got[:3], [x2, x3, x1]))
    assert to_layout([x2], "contiguous")[0] is x2
    assert layout_applies([x2], "channels_last") and not layout_applies([x1, 7], "channels_last")
    assert not layout_applies([x2], "contiguous")
    with pytest.raises(ValueError, match="unknown layout"):
        to_layout([x2], "nhwc")
    grad, out = torch.rand(2, 3, 4, 5), got[0]
    matched, = strided_like([grad], [out])
    assert matched.stride() == out.stride() and torch.equal(matched, grad)
    assert strided_like([grad], [x2])[0] is grad


@pytest.mark.parametrize("problem", ["tiny_problem.py", "tiny_problem_3d.py"])
def test_verify_runs_every_comparison_in_the_layout_asked_for(tmp_path, problem):
    """Under layout="channels_last" every input ModelNew sees is channels-last (a solution that refuses anything
    else passes), under the default every input is contiguous (the same solution fails), and the report says which."""
    for layout in ("channels_last", "contiguous"):
        solution = _layout_checking_solution(tmp_path, layout)
        for asked in ("channels_last", "contiguous"):
            report = verify(CHEATS / problem, solution, trials=1, precision="fp32", device="cpu",
                            check_torch_conv=False, layout=asked)
            assert report.layout == asked and f"layout={asked}" in report.format_table()
            assert report.passed == (asked == layout), (layout, asked, report.failed_checks())
    with pytest.raises(ValueError, match="unknown layout"):
        verify(TINY, CHEATS / "honest_torch.py", device="cpu", layout="nhwc")


def test_bench_layout_reaches_rows_env_child_and_resume(tmp_path, monkeypatch):
    """bench --layout channels_last: 2-D and 3-D problems' rows run (verify included) channels-last, a 1-D problem's row
    says contiguous; the env says channels_last (a contiguous run's env says nothing, as before the option), so the
    two do not resume or merge; the cuDNN-benchmark child is asked for the same layout."""
    settings = bench.BenchSettings(runs=3, warmup=1, compile_mode=False, layout="channels_last")
    solution = _layout_checking_solution(tmp_path, "channels_last")
    specs = [bench.ProblemSpec("tiny_2d", TINY, solution),
             bench.ProblemSpec("tiny_3d", CHEATS / "tiny_problem_3d.py", solution),
             bench.ProblemSpec("tiny_1d", CHEATS / "tiny_problem_1d.py", CHEATS / "fallback_scope.py")]
    rows = bench.run_benchmarks(specs, ["fp32"], settings, torch.device("cpu"), progress=lambda line: None)
    assert [row["layout"] for row in rows] == ["channels_last", "channels_last", "contiguous"]
    assert all(row["verified"] and row["error"] is None and row["tconv_fwdbwd_ms"] for row in rows), rows
    prepared = bench.prepare_problem(TINY, "fp32", torch.device("cpu"), layout="channels_last")
    assert prepared.inputs[0].is_contiguous(memory_format=torch.channels_last) and not prepared.inputs[0].is_contiguous()
    output = prepared.model(*prepared.inputs)
    assert prepared.grad_outputs[0].stride() == output.stride()
    plain = bench.prepare_problem(TINY, "fp32", torch.device("cpu"))
    assert torch.equal(plain.inputs[0], prepared.inputs[0]) and torch.equal(plain.grad_outputs[0], prepared.grad_outputs[0])

    root = CHEATS.parent.parent
    channels_last_env = bench.environment(torch.device("cpu"), None, settings, root)
    contiguous_env = bench.environment(torch.device("cpu"), None, bench.BenchSettings(runs=3, warmup=1), root)
    assert channels_last_env["layout"] == "channels_last" and "layout" not in contiguous_env
    path = bench.write_json(rows, channels_last_env, tmp_path / "cl.json", complete=False)
    with pytest.raises(ValueError, match="layout"):
        bench.load_resumable(path, contiguous_env)
    assert bench.load_resumable(path, channels_last_env)[0] == rows
    assert "channels_last" in bench._progress_summary(rows[0])

    import subprocess
    from types import SimpleNamespace

    requests = []
    stats = {"median_ms": 1.0, "p20_ms": 0.9, "p80_ms": 1.1, "runs": 3}

    def fake_run(args, **kwargs):
        requests.append(json.loads(args[-1]))
        return SimpleNamespace(returncode=0, stdout=json.dumps({"fwd": stats}) + "\n", stderr="")

    monkeypatch.setattr(subprocess, "run", fake_run)
    monkeypatch.setattr(torch.cuda, "empty_cache", lambda: None)
    bench._time_cudnn_benchmark_in_child(specs[0], "fp32", settings)
    assert requests[-1]["layout"] == "channels_last"


def test_bench_cli_takes_a_layout():
    args = bench.build_parser().parse_args(["fam04", "--layout", "channels_last"])
    assert args.layout == "channels_last" and bench.build_parser().parse_args(["fam04"]).layout == "contiguous"
    with pytest.raises(SystemExit):
        bench.build_parser().parse_args(["fam04", "--layout", "nhwc"])
