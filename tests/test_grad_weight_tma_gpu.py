"""grad_weight of channels-last fp16/bf16 data by TMA boxes (conv_transpose_igemm_tma.cu, tconv_grad_weight_tma_kernel;
"auto" takes it unless TCONV_GRAD_WEIGHT_TMA=0, read once per process; on by default since run 454).

Channels-last input and grad_output (as autograd hands on a channels-last output's gradient): every case meets the
16-bit contract (float64 and torch in the same dtype, outputs and every gradient, poisoned outputs) under the switch,
the kernel runs once per backward under 1 and never under 0 or for contiguous tensors.
"""
import pytest
import torch

import tconv

from conftest import cuda_ready, run_under_switch, sixteen_bit_script_head
from test_gather_specialized_gpu import hopper_wgmma

pytestmark = pytest.mark.skipif(not cuda_ready(), reason="needs a CUDA GPU")

KERNEL = "tconv_grad_weight_tma_kernel"

# dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, bias
CASES = {
    # one tap, one box (k1 s1, 64 channels each side, 8 x 8 positions): the M/N-major descriptors alone, no shifts,
    # no partial tiles, one stage a block (if the others fail, this says whether the operand layout is the cause)
    "one_box": (2, 1, 64, 64, 1, [1, 1], [1, 1], [0, 0], [0, 0], [1, 1], [8, 8], False),
    # DCGAN-like: 16 taps, stride 2 (grad_output boxes at traversal stride 2), 16 x 16 inputs (boxes of 4 x 16)
    "dcgan_like": (2, 2, 128, 128, 1, [4, 4], [2, 2], [1, 1], [0, 0], [1, 1], [16, 16], False),
    # VAE-like kernel 2, stride 2 (one tap per phase), 256 input channels (two C_in tiles)
    "vae_like": (2, 2, 256, 128, 1, [2, 2], [2, 2], [0, 0], [0, 0], [1, 1], [16, 16], True),
    # stride 1, nine taps reaching past every edge, W of 24 (boxes of 32: partial), partial channel tiles and boxes
    # (80, 96: "auto" takes the kernel from 64 channels a side, igemm_config.h's kGradWeightTmaMinChannels)
    "stride1_partial": (2, 3, 80, 96, 1, [3, 3], [1, 1], [1, 1], [0, 0], [1, 1], [10, 24], True),
    # 3D U-Net-like up-conv, 8^3 inputs (boxes of 1 x 8 x 8)
    "unet_like": (3, 2, 64, 128, 1, [2, 2, 2], [2, 2, 2], [0, 0, 0], [0, 0, 0], [1, 1, 1], [8, 8, 8], True),
    # two groups of 64 input and 64 output channels, dilation 2, asymmetric kernel and stride, output padding
    "groups_dilated": (2, 2, 128, 128, 2, [3, 2], [2, 1], [2, 1], [1, 0], [2, 2], [9, 12], False),
    # 3D, asymmetric everything, a W of 5 (boxes of 8) and H of 3 (boxes of 8)
    "asym_3d": (3, 1, 64, 64, 1, [2, 3, 1], [1, 2, 3], [0, 1, 0], [0, 1, 2], [1, 1, 1], [4, 3, 5], True),
}


@pytest.mark.parametrize("mode", ["bf16", "fp16"])
def test_grad_weight_tma_meets_the_contract(tmp_path, mode):
    if not hopper_wgmma():
        pytest.skip("the TMA kernels are built for sm_90a and run on compute capability 9.0")
    # (the window grad_weight, which "auto" takes first at up to 64 channels a side, off: one_box and asym_3d are 64)
    code = sixteen_bit_script_head("test_grad_weight_tma_gpu", mode) + f"""
import os
os.environ["TCONV_GRAD_WEIGHT_WINDOW"] = "0"
launches = []
for i, name in enumerate(sorted(t.CASES)):
    case = t.CASES[name]
    run_case(*case, mode={mode!r}, layout="channels_last", seed=70 + i, poison=poison_cuda_allocator,
             grad_like_output=True)
    dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, _ = case
    counts = []
    for fmt in (torch.channels_last if dims == 2 else torch.channels_last_3d, torch.contiguous_format):
        x = torch.randn(batch, cin, *spatial, device="cuda", dtype=dtype).contiguous(memory_format=fmt)
        w = torch.randn(cin, cout // groups, *kernel, device="cuda", dtype=dtype, requires_grad=True)
        with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
            out = TCONV_FN[dims](x, w, None, stride, padding, output_padding, groups, dilation)
            out.backward(torch.randn_like(out))
            torch.cuda.synchronize()
        counts.append(sum(t.KERNEL in e.name for e in prof.events()
                          if e.device_type == torch.autograd.DeviceType.CUDA))
    launches.append(counts)
torch.save(launches, sys.argv[1])
"""
    saved = run_under_switch(code, tmp_path, "TCONV_GRAD_WEIGHT_TMA", values=("1", "0"))
    for name, on, off in zip(sorted(CASES), saved["1"], saved["0"]):
        assert on == [1, 0] and off == [0, 0], (name, on, off)


def _tma_form(switch, case):
    """The template arguments (kN128, kCiBoxes) of the TMA grad_weight a case runs on under `switch`=1."""
    cin, groups = case[2], case[4]
    if switch == "TCONV_GRAD_WEIGHT_TMA_N128":
        return ", true, 2>"
    return ", false, 1>" if cin // groups <= 64 else ", false, 2>"


@pytest.mark.parametrize("switch", ["TCONV_GRAD_WEIGHT_TMA_N128", "TCONV_GRAD_WEIGHT_TMA_CI64"])
@pytest.mark.parametrize("mode", ["bf16", "fp16"])
def test_grad_weight_tma_forms_meet_the_contract(tmp_path, mode, switch):
    """The TMA grad_weight's development forms (tconv_grad_weight_tma_kernel<T, kN128, kCiBoxes>), each under its
    switch: TCONV_GRAD_WEIGHT_TMA_N128=1, each k16 step one m64n128 wgmma whose B spans a stage's two grad_output
    boxes (its descriptor's leading byte offset one box, its stride byte offset one swizzle atom); and
    TCONV_GRAD_WEIGHT_TMA_CI64=1 (the default since run 499 passed this test), one x box a stage where a group has at
    most 64 input channels (both warpgroups on it, one grad_output half each); each against the two-box m64n64 form
    (CI64=0 in both processes of the N128 pair). Every case meets the 16-bit contract under the switch, the form runs
    under 1 where it applies and the two-box m64n64 form under 0, and the gradients agree bit for bit across the two
    (the same k16 steps in the same order for every accumulator; should the tensor cores order a step's 16 products
    differently by N, only that last check fails for the m64n128 form)."""
    if not hopper_wgmma():
        pytest.skip("the TMA kernels are built for sm_90a and run on compute capability 9.0")
    code = sixteen_bit_script_head("test_grad_weight_tma_gpu", mode) + f"""
import os
os.environ["TCONV_GRAD_WEIGHT_WINDOW"] = "0"
if {switch!r} == "TCONV_GRAD_WEIGHT_TMA_N128":
    os.environ["TCONV_GRAD_WEIGHT_TMA_CI64"] = "0"  # the m64n128 form is of two x boxes: both processes keep two
on = os.environ[{switch!r}] == "1"
results = []
for i, name in enumerate(sorted(t.CASES)):
    case = t.CASES[name]
    print("case", name, file=sys.stderr)  # (a failure's message names its case)
    if on:
        run_case(*case, mode={mode!r}, layout="channels_last", seed=90 + i, poison=poison_cuda_allocator,
                 grad_like_output=True)
    dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, _ = case
    gen = torch.Generator(device="cuda").manual_seed(190 + i)
    fmt = torch.channels_last if dims == 2 else torch.channels_last_3d
    x = torch.randn(batch, cin, *spatial, device="cuda", generator=gen).to(dtype).contiguous(memory_format=fmt)
    w = torch.randn(cin, cout // groups, *kernel, device="cuda", generator=gen).to(dtype).requires_grad_()
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        out = TCONV_FN[dims](x, w, None, stride, padding, output_padding, groups, dilation)
        out.backward(torch.randn(out.shape, device="cuda", generator=gen).to(dtype).contiguous(memory_format=fmt))
        torch.cuda.synchronize()
    names = [e.name for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA and t.KERNEL in e.name]
    results.append((names, w.grad.cpu()))
torch.save(results, sys.argv[1])
"""
    saved = run_under_switch(code, tmp_path, switch, values=("1", "0"))
    for name, (names_on, grad_on), (names_off, grad_off) in zip(sorted(CASES), saved["1"], saved["0"]):
        assert len(names_on) == 1 and _tma_form(switch, CASES[name]) in names_on[0], (name, names_on)
        assert len(names_off) == 1 and ", false, 2>" in names_off[0], (name, names_off)
        assert torch.equal(grad_on, grad_off), name


def test_grad_weight_tma_not_for_few_channels():
    """Fewer than 64 channels per group on either side (L1-68's 32 -> 64, L1-71's 32 -> 32): "auto" leaves the TMA
    grad_weight, whose 64-channel boxes and 128 x 128 tiles would be mostly padding (run 458: 36.4 of L1-68's 43.4 ms),
    for the window grad_weight (tests/test_grad_weight_window_gpu.py) or the igemm one."""
    if not hopper_wgmma():
        pytest.skip("the TMA kernels are built for sm_90a and run on compute capability 9.0")
    x = torch.randn(2, 32, 6, 20, device="cuda", dtype=torch.bfloat16).contiguous(memory_format=torch.channels_last)
    w = torch.randn(32, 64, 3, 3, device="cuda", dtype=torch.bfloat16, requires_grad=True)
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        out = tconv.conv_transpose2d(x, w)
        grad_out = torch.randn_like(out)
        out.backward(grad_out)
        torch.cuda.synchronize()
    assert out.is_contiguous(memory_format=torch.channels_last)
    names = [e.name for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA]
    assert not any(KERNEL in n for n in names), names
    w64 = w.detach().double().requires_grad_()
    torch.nn.functional.conv_transpose2d(x.double(), w64).backward(grad_out.double())
    err = (w.grad.double() - w64.grad).norm() / w64.grad.norm()
    assert err < 1e-2, err


def run_reporting(code: str, tmp_path, name: str):
    """Runs a sixteen_bit_script_head script in a fresh process under TCONV_REPORT_PENDING_CUDA_ERRORS=1 (its stderr's
    "tconv:" lines printed for the log: an error found pending before the TMA grad_weight's launch, or the step that
    failed); what it saved to its first argument."""
    import os
    import subprocess
    import sys
    path = tmp_path / f"{name}.pt"
    run = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, timeout=300,
                         cwd=os.path.dirname(__file__), env=dict(os.environ, TCONV_REPORT_PENDING_CUDA_ERRORS="1"))
    for line in run.stderr.splitlines():
        if line.startswith("tconv:"):
            print(name, line)
    assert run.returncode == 0, run.stderr[-3000:]
    return torch.load(path)


@pytest.mark.parametrize("cases,case,kernel", [
    ("test_grad_weight_tma_gpu", "dcgan_like", KERNEL), ("test_grad_weight_tma_gpu", "asym_3d", KERNEL),
    ("test_grad_weight_window_gpu", "l1_71_like", "tconv_grad_weight_window_kernel")])
def test_weight_only_backward_first_in_a_process(tmp_path, cases, case, kernel):
    """A process whose backwards need grad_weight alone (x without grad, as a network's first layer's input), in a
    fresh process: run 498 (H200, 7c1009a) had the TMA grad_weight fail there with "launch failed: invalid argument"
    on every call, and pass in every process where a backward with grad_input had run first (as in every other test
    of this file). The suspected cause: no CUDA context bound on the autograd engine's device thread before the
    pass's first runtime call that needs one (torch_check.h: bind_primary_context, which the entry points now call).
    The window grad_weight ("auto" at <= 64 channels a side: l1_71_like) sets its shared-memory attribute first too.
    Each call's grad_weight against float64; stderr's "tconv:" lines (TCONV_REPORT_PENDING_CUDA_ERRORS: an error found
    pending before the launch, or the step that failed) are printed for the log."""
    if not hopper_wgmma():
        pytest.skip("the TMA kernels are built for sm_90a and run on compute capability 9.0")
    code = sixteen_bit_script_head("test_grad_weight_tma_gpu", "bf16") + f"""
import os
from test_conv_transpose_gpu import TORCH_FN
import {cases} as cases
if {kernel!r} == t.KERNEL:
    os.environ["TCONV_GRAD_WEIGHT_WINDOW"] = "0"
dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, _ = cases.CASES[{case!r}]
fmt = torch.channels_last if dims == 2 else torch.channels_last_3d
errors, names = [], []
for i in range(3):
    gen = torch.Generator(device="cuda").manual_seed(300 + i)
    x = torch.randn(batch, cin, *spatial, device="cuda", generator=gen).to(dtype).contiguous(memory_format=fmt)
    w = torch.randn(cin, cout // groups, *kernel, device="cuda", generator=gen).to(dtype).requires_grad_()
    args = (stride, padding, output_padding, groups, dilation)
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        out = TCONV_FN[dims](x, w, None, *args)
        grad = torch.randn(out.shape, device="cuda", generator=gen).to(dtype).contiguous(memory_format=fmt)
        out.backward(grad)
        torch.cuda.synchronize()
    names.append(sum({kernel!r} in e.name for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA))
    w64 = w.detach().double().requires_grad_()
    TORCH_FN[dims](x.double(), w64, None, *args).backward(grad.double())
    errors.append(((w.grad.double() - w64.grad).norm() / w64.grad.norm()).item())
torch.save((errors, names), sys.argv[1])
"""
    errors, launches = run_reporting(code, tmp_path, case)
    assert launches == [1, 1, 1], launches  # the intended grad_weight kernel, once a backward
    assert all(e < 1e-2 for e in errors), errors


def test_calls_from_a_fresh_thread(tmp_path):
    """tconv's first calls in a thread that has run no CUDA work (a serving framework's worker thread), in a fresh
    process, channels-last bf16, each against float64: the forward (its weight packing launches first, so a
    launch precedes the gather's shared-memory attribute call) and a weight-only backward (on the autograd engine's
    device thread, fresh too: the TMA grad_weight's attribute call comes first). The mechanism suspected in run 498:
    no CUDA context bound on such a thread (torch_check.h: bind_primary_context)."""
    if not hopper_wgmma():
        pytest.skip("the TMA kernels are built for sm_90a and run on compute capability 9.0")
    code = sixteen_bit_script_head("test_grad_weight_tma_gpu", "bf16") + """
import threading
from test_conv_transpose_gpu import TORCH_FN
dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, _ = t.CASES["dcgan_like"]
gen = torch.Generator(device="cuda").manual_seed(400)
x = torch.randn(batch, cin, *spatial, device="cuda", generator=gen).to(dtype).contiguous(
    memory_format=torch.channels_last)
w = torch.randn(cin, cout // groups, *kernel, device="cuda", generator=gen).to(dtype)
args = (stride, padding, output_padding, groups, dilation)
grad = torch.randn(x.shape[0], cout, 2 * spatial[0], 2 * spatial[1], device="cuda", generator=gen).to(dtype)
grad = grad.contiguous(memory_format=torch.channels_last)
torch.cuda.synchronize()
found = {}

def work():
    try:
        with torch.no_grad():
            found["forward"] = TCONV_FN[dims](x, w, None, *args)
        w_leaf = w.clone().requires_grad_()
        TCONV_FN[dims](x, w_leaf, None, *args).backward(grad)
        found["grad_weight"] = w_leaf.grad
        torch.cuda.synchronize()
    except RuntimeError as error:
        found["error"] = str(error)

thread = threading.Thread(target=work)
thread.start()
thread.join()
errors = {}
if "error" not in found:
    w64 = w.double().requires_grad_()
    ref = TORCH_FN[dims](x.double(), w64, None, *args)
    ref.backward(grad.double())
    errors = {"forward": ((found["forward"].double() - ref).norm() / ref.norm()).item(),
              "grad_weight": ((found["grad_weight"].double() - w64.grad).norm() / w64.grad.norm()).item()}
torch.save((found.get("error"), errors), sys.argv[1])
"""
    error, errors = run_reporting(code, tmp_path, "fresh_thread")
    assert error is None, error
    assert errors["forward"] < 1e-2 and errors["grad_weight"] < 1e-2, errors


# Cases for the pair form (clusters of two blocks sharing one operand's boxes): C_out tiles in pairs (x shared) or one
# C_out tile and C_in tiles in pairs (grad_output shared); dims, batch, cin, cout, groups, kernel, stride, padding,
# output_padding, dilation, spatial, bias
PAIR_CASES = {
    # DCGAN-like with 256 output channels: two C_out tiles share x
    "share_x": (2, 2, 128, 256, 1, [4, 4], [2, 2], [1, 1], [0, 0], [1, 1], [8, 8], False),
    # two groups of 128 -> 256: per group two C_out tiles (pairs never cross a group: C_out tiles are fastest)
    "share_x_groups": (2, 1, 256, 512, 2, [3, 3], [1, 1], [1, 1], [0, 0], [1, 1], [6, 10], True),
    # 64 input channels (one x box under CI64, which rank 0 loads for both) against 256 outputs
    "share_x_one_box": (2, 2, 64, 256, 1, [3, 3], [1, 1], [1, 1], [0, 0], [1, 1], [8, 12], True),
    # VAE-like: 256 -> 128, two C_in tiles share grad_output
    "share_dy": (2, 2, 256, 128, 1, [2, 2], [2, 2], [0, 0], [0, 0], [1, 1], [16, 16], True),
    # 3D, 192 -> 96: a partial second C_in tile and a partial C_out tile, grad_output shared
    "share_dy_partial_3d": (3, 1, 192, 96, 1, [2, 2, 2], [2, 2, 2], [0, 0, 0], [0, 0, 0], [1, 1, 1], [4, 4, 6], True),
    # 128 -> 128: one tile each way, no pair (the single form runs under the switch)
    "no_pair": (2, 2, 128, 128, 1, [3, 3], [1, 1], [1, 1], [0, 0], [1, 1], [8, 8], False),
}
PAIR_KERNEL = "tconv_grad_weight_tma_pair_kernel"


@pytest.mark.parametrize("ci64", ["0", "1"])
@pytest.mark.parametrize("mode", ["bf16", "fp16"])
def test_grad_weight_tma_pair_meets_the_contract(tmp_path, mode, ci64):
    """TCONV_GRAD_WEIGHT_TMA_PAIR=1: clusters of two blocks, each loading half of the shared operand's boxes for both
    by TMA multicast, released by both CTAs' MMA threads. Every case meets the 16-bit contract under the switch, the
    pair kernel runs once a backward where the tiles pair up (the single one elsewhere and under 0), and grad_weight is
    bit for bit the single form's (the same MMAs in the same order). Each process has 120 s: a pipeline that never
    completes shows as a timeout, not a hung call."""
    if not hopper_wgmma():
        pytest.skip("the TMA kernels are built for sm_90a and run on compute capability 9.0")
    code = sixteen_bit_script_head("test_grad_weight_tma_gpu", mode) + f"""
import os
os.environ["TCONV_GRAD_WEIGHT_WINDOW"] = "0"
os.environ["TCONV_GRAD_WEIGHT_TMA_CI64"] = {ci64!r}
on = os.environ["TCONV_GRAD_WEIGHT_TMA_PAIR"] == "1"
results = []
for i, name in enumerate(sorted(t.PAIR_CASES)):
    case = t.PAIR_CASES[name]
    print("case", name, file=sys.stderr)
    if on:
        run_case(*case, mode={mode!r}, layout="channels_last", seed=500 + i, poison=poison_cuda_allocator,
                 grad_like_output=True)
    dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, _ = case
    gen = torch.Generator(device="cuda").manual_seed(600 + i)
    fmt = torch.channels_last if dims == 2 else torch.channels_last_3d
    x = torch.randn(batch, cin, *spatial, device="cuda", generator=gen).to(dtype).contiguous(memory_format=fmt)
    x.requires_grad_()
    w = torch.randn(cin, cout // groups, *kernel, device="cuda", generator=gen).to(dtype).requires_grad_()
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        out = TCONV_FN[dims](x, w, None, stride, padding, output_padding, groups, dilation)
        out.backward(torch.randn(out.shape, device="cuda", generator=gen).to(dtype).contiguous(memory_format=fmt))
        torch.cuda.synchronize()
    names = [e.name for e in prof.events()
             if e.device_type == torch.autograd.DeviceType.CUDA and "tconv_grad_weight_tma" in e.name]
    results.append((names, w.grad.cpu()))
torch.save(results, sys.argv[1])
"""
    saved = run_under_switch(code, tmp_path, "TCONV_GRAD_WEIGHT_TMA_PAIR", values=("1", "0"), timeout=120)
    for name, (names_on, grad_on), (names_off, grad_off) in zip(sorted(PAIR_CASES), saved["1"], saved["0"]):
        paired = name != "no_pair"
        assert len(names_on) == 1 and (PAIR_KERNEL in names_on[0]) == paired, (name, names_on)
        assert len(names_off) == 1 and KERNEL in names_off[0], (name, names_off)
        assert torch.equal(grad_on, grad_off), name


def test_grad_weight_tma_probes_say_what_they_are(tmp_path):
    """The timing probes (TCONV_PROBE_GRAD_WEIGHT_TMA=1: the bf16 TMA grad_weight's loads alone; =2: its MMAs alone)
    run their own kernels on the one- and two-box tiles, write NaN in every element of grad_weight (a probe's output
    must never pass for a gradient) and leave grad_input exact (the other passes do not see the probe)."""
    if not hopper_wgmma():
        pytest.skip("the TMA kernels are built for sm_90a and run on compute capability 9.0")
    code = sixteen_bit_script_head("test_grad_weight_tma_gpu", "bf16") + """
import os
os.environ["TCONV_GRAD_WEIGHT_WINDOW"] = "0"
results = []
for name in ("dcgan_like", "asym_3d"):  # two x boxes (128 input channels), one (64)
    dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, _ = t.CASES[name]
    gen = torch.Generator(device="cuda").manual_seed(7)
    fmt = torch.channels_last if dims == 2 else torch.channels_last_3d
    x = torch.randn(batch, cin, *spatial, device="cuda", generator=gen).to(dtype).contiguous(memory_format=fmt)
    w = torch.randn(cin, cout // groups, *kernel, device="cuda", generator=gen).to(dtype)
    x.requires_grad_()
    w.requires_grad_()
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        out = TCONV_FN[dims](x, w, None, stride, padding, output_padding, groups, dilation)
        grad = torch.randn(out.shape, device="cuda", generator=gen).to(dtype).contiguous(memory_format=fmt)
        out.backward(grad)
        torch.cuda.synchronize()
    names = [e.name for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA
             and "grad_weight_tma" in e.name]
    results.append((name, names, bool(torch.isnan(w.grad).all()), x.grad.float().cpu()))
torch.save(results, sys.argv[1])
"""
    saved = run_under_switch(code, tmp_path, "TCONV_PROBE_GRAD_WEIGHT_TMA", values=("1", "2", "0"))
    for value in ("1", "2"):
        for (name, names, all_nan, grad_x), (_, _, off_nan, grad_x_off) in zip(saved[value], saved["0"]):
            boxes = 2 if name == "dcgan_like" else 1
            assert len(names) == 1 and f"probe_kernel<{boxes}, {value}>" in names[0], (value, name, names)
            assert all_nan and not off_nan, (value, name)
            assert torch.equal(grad_x, grad_x_off), (value, name)
