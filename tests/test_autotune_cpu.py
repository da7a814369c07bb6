"""tconv's opt-in autotune (tconv/_autotune.py): choice, refusal, caching and switches, on CPU with fake
kernels and a fake clock (the GPU test runs the real kernels through it)."""
import os
import subprocess
import sys

import pytest
import torch

import tconv
from tconv import _autotune, _ops


class FakeKernels:
    """launch(name) writes `outputs[name]` into the result (or raises like a refused forced algorithm);
    measure(fn, repeats) runs fn and reports `times[name]` for the kernel it launched."""

    def __init__(self, times, outputs=None, refuse=()):
        self.times, self.refuse = times, set(refuse)
        self.result = torch.zeros(4)
        self.outputs = outputs or {}
        self.launches = []
        self.last = None

    def launch(self, name):
        if name in self.refuse:
            raise RuntimeError(f"tconv: the {name} algorithm does not support this call\nmore detail")
        self.launches.append(name)
        self.last = name
        self.result.copy_(self.outputs.get(name, torch.arange(4.0)))

    def measure(self, fn, repeats):
        fn()
        return self.times[self.last] * (3.0 if repeats == 1 else 1.0)  # a first run is slower


@pytest.fixture(autouse=True)
def fresh_autotune():
    previous = _autotune.autotune_enabled()
    _autotune.clear_autotune_cache()
    yield
    _autotune.set_autotune(previous)
    _autotune.clear_autotune_cache()


def test_tune_picks_the_fastest_and_leaves_its_result():
    k = FakeKernels({"auto": 2.0, "igemm": 1.0, "direct": 1.2},
                    outputs={"igemm": torch.arange(4.0) * (1 + 1e-3)})
    tuning = _autotune.tune(("auto", "igemm", "direct"), k.launch, k.result, 3e-2, k.measure)
    assert tuning.winner == "igemm" and set(tuning.times_ms) == {"auto", "igemm", "direct"}
    assert k.launches[-1] == "igemm"
    torch.testing.assert_close(k.result, torch.arange(4.0) * (1 + 1e-3))


def test_tune_refuses_unsupported_candidates_with_the_first_line_of_their_error():
    k = FakeKernels({"auto": 2.0, "igemm": 1.0}, refuse=["grouped"])
    tuning = _autotune.tune(("auto", "grouped", "igemm"), k.launch, k.result, 3e-2, k.measure)
    assert tuning.winner == "igemm"
    assert tuning.refused == {"grouped": "tconv: the grouped algorithm does not support this call"}
    assert k.launches[-1] == "igemm" and torch.equal(k.result, torch.arange(4.0))


def test_tune_never_picks_a_candidate_whose_result_disagrees():
    wrong = torch.tensor([0.0, 1.0, 2.0, 30.0])
    k = FakeKernels({"auto": 2.0, "igemm": 0.1, "igemm_mma": 1.5}, outputs={"igemm": wrong})
    with pytest.warns(RuntimeWarning, match="igemm"):
        tuning = _autotune.tune(("auto", "igemm", "igemm_mma"), k.launch, k.result, 3e-2, k.measure)
    assert tuning.winner == "igemm_mma" and "igemm" not in tuning.times_ms and "differs" in tuning.refused["igemm"]
    torch.testing.assert_close(k.result, torch.arange(4.0))


def test_tune_catches_a_candidate_that_leaves_elements_unwritten():
    k = FakeKernels({"auto": 2.0, "igemm": 0.1})
    real_launch = k.launch

    def lazy_launch(name):  # "igemm" writes only the first half
        if name == "igemm":
            k.launches.append(name)
            k.last = name
            k.result[:2] = torch.arange(2.0)
        else:
            real_launch(name)

    with pytest.warns(RuntimeWarning):
        tuning = _autotune.tune(("auto", "igemm"), lazy_launch, k.result, 3e-2, k.measure)
    assert tuning.winner == "auto" and torch.equal(k.result, torch.arange(4.0))


def test_tune_refuses_nan_results():
    nan = torch.tensor([0.0, float("nan"), 2.0, 3.0])
    k = FakeKernels({"auto": 2.0, "igemm": 0.1}, outputs={"igemm": nan})
    with pytest.warns(RuntimeWarning):
        tuning = _autotune.tune(("auto", "igemm"), k.launch, k.result, 3e-2, k.measure)
    assert tuning.winner == "auto"
    assert k.launches[-1] == "auto" and torch.isfinite(k.result).all()  # the winner ran again


def test_error_measure_accepts_shared_overflow_and_nan_but_not_new_ones():
    inf, nan = float("inf"), float("nan")
    ref = torch.tensor([1.0, inf, -inf, nan, 2.0])
    assert _autotune.normalised_error(torch.tensor([1.0, inf, -inf, nan, 2.001]), ref) < 1e-3
    assert _autotune.normalised_error(torch.tensor([1.0, inf, inf, nan, 2.0]), ref) == inf
    assert _autotune.normalised_error(torch.tensor([1.0, inf, -inf, 3.0, 2.0]), ref) == inf
    assert _autotune.normalised_error(torch.tensor([1.0, nan]), torch.tensor([1.0, 2.0])) == inf
    assert _autotune.normalised_error(torch.tensor([inf]), torch.tensor([inf])) == 0.0
    assert _autotune.normalised_error(torch.zeros(3), torch.zeros(3)) == 0.0


def test_tune_stops_timing_a_far_slower_candidate():
    k = FakeKernels({"auto": 1.0, "direct": 100.0})
    tuning = _autotune.tune(("auto", "direct"), k.launch, k.result, 3e-2, k.measure)
    assert tuning.winner == "auto" and "direct" in tuning.refused and "direct" not in tuning.times_ms
    assert k.launches.count("direct") == 2  # a second first run, in case the first carried one-time costs


def test_tune_times_a_candidate_whose_first_run_alone_was_slow():
    """Lazy module loading or the allocator growing can make one first run slow (run 371: 85.6 ms for a 4.7 ms
    kernel)."""
    k = FakeKernels({"auto": 2.0, "igemm": 1.0})
    warm = iter([50.0, 1.1])

    def measure(fn, repeats):
        fn()
        return next(warm) if repeats == 1 else k.times[k.last]

    tuning = _autotune.tune(("auto", "igemm"), k.launch, k.result, 3e-2, measure)
    assert tuning.winner == "igemm" and not tuning.refused


@pytest.mark.parametrize("memory_bytes, winner", [(None, "igemm_tma"), (1000, "igemm"), (5000, "igemm_tma")])
def test_tune_refuses_a_candidate_that_allocates_past_the_memory_contract(memory_bytes, winner):
    """A candidate may allocate what the heuristic does or memory_bytes, whichever is more (run 371: the forced TMA
    gather's whole-batch copy of grad_output, twice the output's bytes, won DCGAN's grad_input)."""
    k = FakeKernels({"auto": 2.0, "igemm": 1.5, "igemm_tma": 1.0})
    per_run = {"auto": 800, "igemm": 800, "igemm_tma": 4000}
    total = [0]

    def launch(name):
        total[0] += per_run[name]
        k.launch(name)

    tuning = _autotune.tune(("auto", "igemm", "igemm_tma"), launch, k.result, 3e-2, k.measure, memory_bytes,
                            allocated=lambda: total[0])
    assert tuning.winner == winner and k.last == winner
    if winner == "igemm":
        assert set(tuning.times_ms) == {"auto", "igemm"}
        assert tuning.refused["igemm_tma"].startswith("allocates 0.00381 MiB in a run, over the 0.000954 MiB")
    else:
        assert not tuning.refused


def test_tune_allows_what_the_heuristic_allocates():
    k = FakeKernels({"auto": 2.0, "igemm": 1.0})
    total = [0]

    def launch(name):
        total[0] += 3000
        k.launch(name)

    tuning = _autotune.tune(("auto", "igemm"), launch, k.result, 3e-2, k.measure, 100, allocated=lambda: total[0])
    assert tuning.winner == "igemm" and not tuning.refused


def test_run_is_off_by_default_and_caches_when_on():
    k = FakeKernels({"auto": 2.0, "igemm": 1.0})
    assert not _autotune.autotune_enabled() or os.environ.get("TCONV_AUTOTUNE") == "1"
    _autotune.set_autotune(False)
    assert _autotune.run("forward", "key", ("auto", "igemm"), k.launch, k.result, False, False, k.measure) == "auto"
    assert k.launches == ["auto"] and not _autotune.autotune_cache()
    with tconv.autotune():
        assert _autotune.run("forward", "key", ("auto", "igemm"), k.launch, k.result, False, False, k.measure) == "igemm"
        k.launches.clear()
        assert _autotune.run("forward", "key", ("auto", "igemm"), k.launch, k.result, False, False, k.measure) == "igemm"
        assert k.launches == ["igemm"]  # cached: the winner only
        assert _autotune.autotune_cache()["key"].winner == "igemm"
    assert not _autotune.autotune_enabled()
    k.launches.clear()  # off again: the heuristic, the cache kept but unused
    assert _autotune.run("forward", "key", ("auto", "igemm"), k.launch, k.result, False, False, k.measure) == "auto"


def test_run_does_not_tune_under_graph_capture_or_on_empty_results():
    k = FakeKernels({"auto": 2.0, "igemm": 1.0})
    _autotune.set_autotune(True)
    assert _autotune.run("forward", "a", ("auto", "igemm"), k.launch, k.result, False, True, k.measure) == "auto"
    empty = FakeKernels({"auto": 2.0, "igemm": 1.0})
    empty.result = torch.zeros(0)
    empty.outputs = {"auto": torch.zeros(0)}
    assert _autotune.run("forward", "b", ("auto", "igemm"), empty.launch, empty.result, False, False,
                         empty.measure) == "auto"
    assert not _autotune.autotune_cache()
    _autotune.run("forward", "a", ("auto", "igemm"), k.launch, k.result, False, False, k.measure)
    k.launches.clear()  # once tuned, a capture uses the cached winner
    assert _autotune.run("forward", "a", ("auto", "igemm"), k.launch, k.result, False, True, k.measure) == "igemm"


def test_exact_modes_use_the_tight_tolerance():
    off = torch.arange(4.0) * (1 + 1e-3)  # fine for TF32, not for exact fp32
    k = FakeKernels({"auto": 2.0, "igemm": 1.0}, outputs={"igemm": off})
    _autotune.set_autotune(True)
    with pytest.warns(RuntimeWarning):
        assert _autotune.run("forward", "exact", ("auto", "igemm"), k.launch, k.result, True, False, k.measure) == "auto"
    assert _autotune.run("forward", "tf32", ("auto", "igemm"), k.launch, k.result, False, False, k.measure) == "igemm"


def test_candidates_follow_size_and_phase_split():
    small = _autotune.candidates_for("grad_input", 1e6, phase_split_possible=True)
    assert small[0] == "auto" and "direct" in small and "igemm_phase_split" in small
    big = _autotune.candidates_for("grad_input", 1e12)
    assert "direct" not in big and "igemm_phase_split" not in big
    assert "igemm_phase_split" not in _autotune.candidates_for("forward", 1e6, phase_split_possible=True)
    # the W fold: forward candidates only where the W stride is above 1
    assert {"igemm_fold", "igemm_nofold"} <= set(_autotune.candidates_for("forward", 1e6, fold_possible=True))
    assert not {"igemm_fold", "igemm_nofold"} & set(_autotune.candidates_for("forward", 1e6))
    assert "igemm_fold" not in _autotune.candidates_for("grad_input", 1e6, fold_possible=True)
    assert "igemm_nofold" in _autotune.candidates_for("grad_weight", 1e6, fold_possible=True)
    for op, names in _autotune.CANDIDATES.items():
        assert names[0] == "auto" and set(names) <= set(_ops.ALGORITHMS), op
        # the strip and unit-stride kernels are timed too (run 318's autotune had missed fam04's unit-stride forward)
        assert "igemm_strip" in _autotune.candidates_for(op, 1e12), op


def test_signature_separates_layouts_dtypes_and_modes():
    x = torch.rand(2, 4, 5, 6)
    w = torch.rand(4, 3, 3, 3)
    base = _autotune.signature("forward", (x, w, None), [1, 1], [0, 0], [1, 1], 1, True)
    assert base == _autotune.signature("forward", (x.clone(), w, None), [1, 1], [0, 0], [1, 1], 1, True)
    assert base != _autotune.signature("forward", (x.contiguous(memory_format=torch.channels_last), w, None),
                                       [1, 1], [0, 0], [1, 1], 1, True)
    assert base != _autotune.signature("forward", (x.double(), w.double(), None), [1, 1], [0, 0], [1, 1], 1, True)
    assert base != _autotune.signature("forward", (x, w, None), [1, 1], [0, 0], [1, 1], 1, False)
    assert base != _autotune.signature("forward", (x, w, torch.rand(3)), [1, 1], [0, 0], [1, 1], 1, True)


def test_forced_algorithm_takes_precedence(monkeypatch):
    launched = []
    monkeypatch.setattr(_ops.torch.cuda, "is_current_stream_capturing", lambda: False)
    _autotune.set_autotune(True)
    with _ops.use_algorithm("igemm_mma"):
        _ops._run("forward", launched.append, torch.zeros(3), (torch.zeros(3),), (1,), True, ((1, 1, 1), (1, 1, 1)),
                  torch.zeros(3))
    assert launched == ["igemm_mma"] and not _autotune.autotune_cache()


# (input, weight) shapes whose FLOPs (2 x 10^12) rule out the direct kernel (_autotune.DIRECT_MAX_FLOPS).
_SHAPES_OF_2E12_FLOPS = ((1, 1000, 1000, 1000), (1000, 1000, 1))


def test_ops_run_tunes_through_the_cache(monkeypatch):
    result = torch.zeros(3)
    launched = []

    def launch(name):
        launched.append(name)
        result.fill_(1.0)

    monkeypatch.setattr(_ops.torch.cuda, "is_current_stream_capturing", lambda: False)
    monkeypatch.setattr(_autotune, "cuda_median_ms", lambda fn, repeats=5: fn() or {"auto": 2.0}.get(launched[-1], 1.0))
    _autotune.set_autotune(True)
    _ops._run("grad_weight", launch, result, (torch.zeros(3),), (1,), True, _SHAPES_OF_2E12_FLOPS, torch.zeros(30))
    (key, tuning), = _autotune.autotune_cache().items()
    assert key[0] == "grad_weight" and tuning.winner != "auto" and "direct" not in launched
    launched.clear()
    _ops._run("grad_weight", launch, result, (torch.zeros(3),), (1,), True, _SHAPES_OF_2E12_FLOPS, torch.zeros(30))
    assert launched == [tuning.winner]


def test_environment_variable_turns_it_on():
    code = "import tconv; print(tconv.autotune_enabled())"
    env = dict(os.environ, TCONV_AUTOTUNE="1")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True"
    env["TCONV_AUTOTUNE"] = "0"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
