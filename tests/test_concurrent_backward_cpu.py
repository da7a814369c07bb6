"""The concurrent backward's memory rule and signature (tconv/_ops.py, TCONV_CONCURRENT_BACKWARD), on CPU: which
measured workspaces let grad_input and grad_weight run at once, what tells two calls' plans apart, and that CPU calls
never take the side-stream path or the native backward. The GPU tests (test_concurrent_backward_matches_serial,
test_native_backward_matches_the_python_path) run the paths themselves."""
import os
import subprocess
import sys

import pytest
import torch
import torch.nn.functional as F

import tconv
from tconv import _ops

MB = 1 << 20


@pytest.mark.parametrize("grad_input_extra, grad_weight_extra, output_bytes, weight_bytes, fits", [
    (0, 0, 100 * MB, 1 * MB, True),  # nothing beside the gradients
    (0, 30 * MB, 100 * MB, 1 * MB, True),  # one pass alone holds memory: running at once adds none
    (4 * MB, 5 * MB, 100 * MB, 1 * MB, True),  # within a tenth of the output together
    (6 * MB, 6 * MB, 100 * MB, 1 * MB, False),  # two copies of 6 %: 12 % at once
    (8 * MB, 8 * MB, 64 * MB, 8 * MB, True),  # DCGAN-like: packed weights beside one split-K buffer
    (8 * MB, 16 * MB, 64 * MB, 8 * MB, True),
    (16 * MB, 16 * MB, 64 * MB, 8 * MB, False),  # two weights past the larger pass
    (-1, 0, 100 * MB, 1 * MB, False),  # the counter did not see the gradient: no statistics
    (0, -5, 100 * MB, 1 * MB, False),
])
def test_concurrent_backward_fits(grad_input_extra, grad_weight_extra, output_bytes, weight_bytes, fits):
    assert _ops.concurrent_backward_fits(grad_input_extra, grad_weight_extra, output_bytes, weight_bytes) is fits


def _ops_attribute_at_import(variable, value, attribute):
    """_ops.<attribute> in a fresh interpreter whose environment sets `variable` to `value` (None: unset), as text."""
    env = {k: v for k, v in os.environ.items() if k != variable}
    if value is not None:
        env[variable] = value
    code = f"from tconv import _ops; print(_ops.{attribute})"
    completed = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
    assert completed.returncode == 0, completed.stderr
    return completed.stdout.strip().splitlines()[-1]


@pytest.mark.parametrize("value, on", [(None, True), ("1", True), ("0", False)])
def test_concurrent_backward_is_the_default(value, on):
    """On unless TCONV_CONCURRENT_BACKWARD=0 (read at import: a fresh interpreter per value)."""
    assert _ops_attribute_at_import("TCONV_CONCURRENT_BACKWARD", value, "_CONCURRENT_BACKWARD") == str(on)


def test_backward_signature_tells_plans_apart():
    x, w, g = torch.zeros(2, 4, 5, 6), torch.zeros(4, 3, 3, 3), torch.zeros(2, 3, 7, 8)
    args = ([1, 1], [0, 0], [1, 1], 1, True)
    same = _ops._backward_signature(g.clone(), x.clone(), w.clone(), *args)
    assert _ops._backward_signature(g, x, w, *args) == same
    assert _ops._backward_signature(g.contiguous(memory_format=torch.channels_last), x, w, *args) != same
    assert _ops._backward_signature(g.double(), x.double(), w.double(), *args) != same
    assert _ops._backward_signature(g, x, w, [1, 1], [0, 0], [1, 1], 1, False) != same
    with _ops.use_algorithm("igemm"):
        assert _ops._backward_signature(g, x, w, *args) != same


def test_cpu_backward_never_takes_the_concurrent_path(monkeypatch):
    """Nor the native backward's (a C++ call into CUDA kernels): no plan is recorded for CPU calls."""
    monkeypatch.setattr(_ops, "_CONCURRENT_BACKWARD", True)
    monkeypatch.setattr(_ops, "_NATIVE_BACKWARD", True)
    monkeypatch.setattr(_ops, "_concurrent_fits", {})
    monkeypatch.setattr(_ops, "_native_plans", {})
    gen = torch.Generator().manual_seed(61)
    x = torch.randn(2, 4, 5, 6, generator=gen, dtype=torch.float64, requires_grad=True)
    w = torch.randn(4, 3, 3, 3, generator=gen, dtype=torch.float64, requires_grad=True)
    b = torch.randn(3, generator=gen, dtype=torch.float64, requires_grad=True)
    dy = torch.randn(2, 3, 11, 13, generator=gen, dtype=torch.float64)
    tconv.conv_transpose2d(x, w, b, stride=2).backward(dy)
    ours = [t.grad for t in (x, w, b)]
    for t in (x, w, b):
        t.grad = None
    F.conv_transpose2d(x, w, b, stride=2).backward(dy)
    for mine, theirs in zip(ours, (x.grad, w.grad, b.grad)):
        torch.testing.assert_close(mine, theirs)
    assert _ops._concurrent_fits == {}
    assert _ops._native_plans == {}


@pytest.mark.parametrize("needs, fits, concurrent_on, split, plan, dense", [
    ((True, True), True, True, False, True, False),  # both passes, the rule admitted them at once: at once
    ((True, True), False, True, False, False, False),  # the rule refused: one after the other
    ((True, True), None, True, False, False, False),  # no entry (the first call did not measure): one after the other
    ((True, True), True, False, False, False, False),  # TCONV_CONCURRENT_BACKWARD=0 at the first call
    ((False, True), True, True, False, False, False),  # one pass: nothing to run beside it
    ((True, False), True, True, False, False, False),
    ((True, True), True, True, True, None, False),  # "auto" split grad_input by phases: the Python path keeps it
    ((False, True), True, True, True, False, False),  # no grad_input, so no split to keep
    ((True, True), True, True, False, None, True),  # grad_input ran dense (_grouped_dense): the Python path keeps it
    ((False, True), True, True, False, False, True),  # no grad_input, so nothing dense to keep
])
def test_native_plan_follows_the_python_paths_choices(monkeypatch, needs, fits, concurrent_on, split, plan, dense):
    """What a signature's first backward leaves for its later ones (_remember_native_plan): no native call where
    grad_input was split by phases or ran dense on the block-diagonal weight; else the passes at once exactly where
    the concurrency rule admitted them."""
    signature = ("signature",)
    key = (signature,) + needs
    monkeypatch.setattr(_ops, "_native_plans", {})
    monkeypatch.setattr(_ops, "_concurrent_fits", {} if fits is None else {signature: (fits, 0, 0)})
    monkeypatch.setattr(_ops, "_CONCURRENT_BACKWARD", concurrent_on)
    monkeypatch.setattr(_ops, "_grad_input_split_taken", lambda *args: split)
    monkeypatch.setattr(_ops, "_grad_input_dense_taken", lambda *args: dense)
    grad_input = torch.zeros(1) if needs[0] else None
    _ops._remember_native_plan(key, None, None, grad_input, [1], [0], [1], 1)
    assert _ops._native_plans.get(key) is plan


@pytest.mark.parametrize("value, on", [(None, True), ("1", True), ("0", False)])
def test_native_backward_is_the_default(value, on):
    """The native backward (one C++ call for a signature's later backwards) is on unless TCONV_NATIVE_BACKWARD=0
    (read at import: a fresh interpreter per value)."""
    assert _ops_attribute_at_import("TCONV_NATIVE_BACKWARD", value, "_NATIVE_BACKWARD") == str(on)


@pytest.mark.parametrize("value, on", [(None, True), ("1", True), ("0", False)])
def test_grouped_dense_grad_input_is_the_default(value, on):
    """The dense grouped grad_input's rule applies unless TCONV_GROUPED_DENSE_GRAD_INPUT=0 (read at import)."""
    assert _ops_attribute_at_import("TCONV_GROUPED_DENSE_GRAD_INPUT", value,
                                    "_grouped_dense.DENSE_GRAD_INPUT") == str(on)


@pytest.mark.parametrize("value, beside", [(None, False), ("0", False), ("1", True)])
def test_persistent_grad_input_keeps_the_passes_serial_by_default(value, beside):
    """A persistent grad_input keeps the passes one after the other unless TCONV_CONCURRENT_PERSISTENT_GRAD_INPUT=1
    (read at import: a fresh interpreter per value)."""
    assert _ops_attribute_at_import("TCONV_CONCURRENT_PERSISTENT_GRAD_INPUT", value,
                                    "_CONCURRENT_PERSISTENT_GRAD_INPUT") == str(beside)
