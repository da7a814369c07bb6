"""The one-residue forward as a fill and a stride-1 call into a strided view of the output (tconv/_phase_view.py,
TCONV_FORWARD_PHASE_VIEW, on by default since run 577), and the backward as the stride-1 problem's gradients on a
strided view of grad_output (TCONV_BACKWARD_PHASE_VIEW, on by default since session 120); skipped without CUDA.

In a fresh process per value of the switch: under 1, CASES meet the precision contract (outputs and every
gradient, against float64 and against PyTorch in the same precision, poisoned outputs, so an untapped position the
fill missed fails) in TF32, exact fp32 and bf16 and in contiguous and channels_last layouts, and the forward fills
the output first where taken_plan() takes the view (fam10's geometry: on other kernels than the strided call's; not
fam12's 2 phases); under 0 the same calls run as before, with no fill. The backward's switch the same way: the
contract under 1 and 0 (each TF32 case twice, so the second backward of a signature takes the native call), every
backward of the cases that taken_plan() takes through the view under 1 (grad_output_taps counted: the stride-1 call may
keep the strided call's kernel names) and none under 0; channels-last data gets a channels-last grad_input. Where
grad_weight runs when the taps' rows are strided (TCONV_BACKWARD_VIEW_GRAD_WEIGHT "strided" and "compact"): the
contract and the calls counted. The forward's fill modes (TCONV_PHASE_VIEW_FILL): the contract, and one fill per
untapped slab ("untapped", "overlap") or of the whole output ("full").
"""
import pytest

from conftest import cuda_ready, run_under_switch
from test_phase_split_cpu import pad3
from tconv import _args, _phase_view

pytestmark = pytest.mark.skipif(not cuda_ready(), reason="needs a CUDA GPU")

# dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, bias
CASES = [
    # fam10's geometry (k3 s2 p1 d2) at a smaller size, a bias
    (3, 2, 32, 64, 1, [3, 3, 3], [2, 2, 2], [1, 1, 1], [0, 0, 0], [2, 2, 2], [4, 8, 16], True),
    # 2D stride 3 dilation 6 with output padding (the view one longer than its stride-1 extent), groups
    (2, 2, 64, 96, 2, [3, 3], [3, 3], [2, 4], [2, 1], [6, 6], [6, 20], False),
    # 1D stride 4, one tap along W (k1, dilation 3), output padding 3
    (1, 3, 48, 32, 1, [1], [4], [0], [3], [3], [40], True),
    # fam12's geometry (1D k3 s2 p1 d2): 2 phases, fewer than MIN_PHASES, so the strided call runs
    (1, 2, 32, 64, 1, [3], [2], [1], [0], [2], [300], False),
]


def view_taken(case) -> bool:
    """Whether "auto" runs the case through the views (taken_plan(), computed here on the shapes)."""
    dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, _ = case
    out = _args.output_shape([batch, cin, *spatial], [cin, cout // groups, *kernel], stride, padding,
                             output_padding, dilation, groups)
    return _phase_view.taken_plan([batch, cin, *pad3(spatial, 1)], [cin, cout // groups, *pad3(kernel, 1)],
                                  [*out[:2], *pad3(out[2:], 1)], pad3(stride, 1), pad3(padding, 0),
                                  pad3(dilation, 1)) is not None


def forward_code(modes, seed) -> str:
    """A run_under_switch script: the contract on every case in `modes` and both layouts (1D: contiguous), then a
    profiled bias-free TF32 forward per case; saves (its tconv kernels' names, its fill launches) per case."""
    return f"""
import sys, torch, tconv
import test_conv_transpose_gpu as t
import test_phase_view_gpu as v
from conftest import poison_cuda_allocator
results = []
for i, case in enumerate(v.CASES):
    for mode in {tuple(modes)!r}:
        for layout in ('contiguous', 'channels_last'):
            if layout == 'channels_last' and case[0] == 1:
                continue
            t.run_case(*case, mode=mode, layout=layout, seed={seed} + i, poison=poison_cuda_allocator,
                       grad_like_output=layout == 'channels_last')
    dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, bias = case
    x = torch.randn(batch, cin, *spatial, device='cuda')
    w = torch.randn(cin, cout // groups, *kernel, device='cuda')
    with t.precision('tf32'), torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        t.TCONV_FN[dims](x, w, None, stride, padding, output_padding, groups, dilation)
        torch.cuda.synchronize()
    names = [e.name for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA]
    results.append((sorted(set(n for n in names if 'tconv' in n)), sum('FillFunctor' in n for n in names)))
torch.save(results, sys.argv[1])
"""


def test_phase_view_under_switch(tmp_path):
    # run_case asserts the contract inside each process; a failure there fails the run (its stderr is shown)
    runs = run_under_switch(forward_code(("tf32", "fp32", "bf16"), 190), tmp_path, "TCONV_FORWARD_PHASE_VIEW",
                            values=("1", "0"))
    assert len(runs["1"]) == len(runs["0"]) == len(CASES)
    for i, (case, (on, on_filled), (off, off_filled)) in enumerate(zip(CASES, runs["1"], runs["0"])):
        assert on and off, (case, on, off)
        # (the profiled forward has no bias: the fill is zero_)
        assert (on_filled > 0) == view_taken(case) and off_filled == 0, (case, on, off)
        if i == 0:  # the strided call's gathers against the stride-1 call's kernels
            assert on != off, (case, on, off)


BACKWARD_CODE = """
import sys, torch, tconv
import test_conv_transpose_gpu as t
import test_phase_view_gpu as v
from conftest import poison_cuda_allocator
views = []  # grad_output_taps' calls: the backwards that ran through the view
taps = tconv._phase_view.grad_output_taps
def counted_taps(*args):
    views.append(1)
    return taps(*args)
tconv._phase_view.grad_output_taps = counted_taps
compacted = []  # compact_batches' ranges where it gave some (TCONV_BACKWARD_VIEW_COMPACT=1)
batches = tconv._phase_view.compact_batches
def counted_batches(*args):
    ranges = batches(*args)
    if ranges is not None:
        compacted.append(ranges)
    return ranges
tconv._phase_view.compact_batches = counted_batches
strided = []  # grad_weight calls that keep the strided path (TCONV_BACKWARD_VIEW_GRAD_WEIGHT unset: "strided")
backward = tconv._ops._backward
def counted_backward(*args, **kwargs):
    if not kwargs.get('through_view', True):
        strided.append(1)
    return backward(*args, **kwargs)
tconv._ops._backward = counted_backward
results = []
for i, case in enumerate(v.CASES):
    views.clear()
    compacted.clear()
    strided.clear()
    for mode in ('tf32', 'tf32', 'fp32', 'bf16'):
        for layout in ('contiguous', 'channels_last'):
            if layout == 'channels_last' and case[0] == 1:
                continue
            t.run_case(*case, mode=mode, layout=layout, seed=290 + i, poison=poison_cuda_allocator,
                       grad_like_output=layout == 'channels_last')
    dims, batch, cin, cout, groups, kernel, stride, padding, output_padding, dilation, spatial, bias = case
    x = torch.randn(batch, cin, *spatial, device='cuda', requires_grad=True)
    w = torch.randn(cin, cout // groups, *kernel, device='cuda', requires_grad=True)
    with t.precision('tf32'):
        out = t.TCONV_FN[dims](x, w, None, stride, padding, output_padding, groups, dilation)
        grad = torch.randn_like(out)
        torch.cuda.synchronize()
        with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
            torch.autograd.grad(out, [x, w], grad)
            torch.cuda.synchronize()
    names = {e.name for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA}
    through_view = len(views)
    channels_last_grad = None  # channels-last x and grad_output: grad_input channels-last too (as torch gives it)
    if dims > 1:
        fmt = torch.channels_last if dims == 2 else torch.channels_last_3d
        x_cl = x.detach().contiguous(memory_format=fmt).requires_grad_()
        with t.precision('tf32'):
            out = t.TCONV_FN[dims](x_cl, w, None, stride, padding, output_padding, groups, dilation)
            grad_x, = torch.autograd.grad(out, [x_cl], torch.randn_like(out))
        channels_last_grad = grad_x.is_contiguous(memory_format=fmt)
    results.append((sorted(n for n in names if 'tconv' in n), through_view, channels_last_grad, len(compacted),
                    len(strided)))
torch.save(results, sys.argv[1])
"""


def test_phase_view_backward_under_switch(tmp_path):
    runs = run_under_switch(BACKWARD_CODE, tmp_path, "TCONV_BACKWARD_PHASE_VIEW", values=("1", "0"))
    assert len(runs["1"]) == len(runs["0"]) == len(CASES)
    for case, (on, on_views, on_cl, _, on_strided), (off, off_views, off_cl, _, off_strided) in zip(
            CASES, runs["1"], runs["0"]):
        assert on and off, (case, on, off)
        assert on_cl == off_cl == (None if case[0] == 1 else True), (case, on_cl, off_cl)
        # every backward of the case (4 modes x 2 layouts of contract runs, 1 layout in 1D, and the profiled one)
        # through the view, or none
        runs_of_case = 4 * (1 if case[0] == 1 else 2) + 1
        assert on_views == (runs_of_case if view_taken(case) else 0) and off_views == 0, (case, on_views, off_views)
        assert on_strided == off_strided == 0, (case, on_strided, off_strided)  # (grad_weight's mode "view")


def test_phase_view_grad_weight_modes(tmp_path):
    """TCONV_BACKWARD_VIEW_GRAD_WEIGHT=strided (grad_weight on the strided call where the taps' rows are strided) and
    =compact (on compact copies of the taps' view, a batch range at a time): the contract as above (TF32 twice, exact
    fp32, bf16, both layouts, poisoned), every backward of a taken case through the view, and in each contiguous one
    (4 contract runs and the profiled one) one strided grad_weight call, or the compact copies (a sample's taps are
    4-6 % of the cases' grad_outputs, so ranges of one sample); channels-last backwards keep the view (its rows are
    channels)."""
    runs = run_under_switch(BACKWARD_CODE, tmp_path, "TCONV_BACKWARD_VIEW_GRAD_WEIGHT", values=("strided", "compact"))
    for value in ("strided", "compact"):
        assert len(runs[value]) == len(CASES)
        for case, (names, views, channels_last_grad, compacted, strided) in zip(CASES, runs[value]):
            assert names, case
            assert channels_last_grad == (None if case[0] == 1 else True), case
            runs_of_case = 4 * (1 if case[0] == 1 else 2) + 1
            contiguous_runs = 5 if view_taken(case) else 0
            assert views == (runs_of_case if view_taken(case) else 0), (value, case, views)
            assert (compacted, strided) == ((contiguous_runs, 0) if value == "compact" else (0, contiguous_runs)), \
                (value, case, compacted, strided)


def test_phase_view_fill_modes(tmp_path):
    """TCONV_PHASE_VIEW_FILL (a fresh process per value): under "untapped" and "overlap" (the fill on a side stream)
    the contract holds (TF32 and bf16, both layouts, poisoned outputs: a position neither the fill nor the call writes
    fails) and a bias-free forward fills each of the untapped views once (one slab per other residue of each strided
    dimension); under "full" one fill of the whole output. Cases the view does not take fill nothing."""
    runs = run_under_switch(forward_code(("tf32", "bf16"), 390), tmp_path, "TCONV_PHASE_VIEW_FILL",
                            values=("untapped", "overlap", "full"))
    for i, case in enumerate(CASES):
        fills = {value: runs[value][i][1] for value in runs}
        slabs = sum(s - 1 for s in case[6]) if view_taken(case) else 0
        assert fills["untapped"] == fills["overlap"] == slabs, (case, fills)
        assert fills["full"] == (1 if view_taken(case) else 0), (case, fills)
