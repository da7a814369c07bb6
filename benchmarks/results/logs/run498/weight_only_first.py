# Run 498 (inline, H200): a fresh process per argument set; argv: profiled (1/0), x requires grad (1/0), case name of
# tests/test_grad_weight_tma_gpu.py's CASES. Run from the repository root under TCONV_GRAD_WEIGHT_WINDOW=0:
#   for a in "1 0 asym_3d" "0 0 asym_3d" "1 1 asym_3d" "1 0 one_box" "1 0 dcgan_like"; do python3 p.py $a; done
import sys, torch, tconv, contextlib
prof_first, xgrad, case = sys.argv[1] == "1", sys.argv[2] == "1", sys.argv[3]
sys.path.insert(0, "tests")
from test_grad_weight_tma_gpu import CASES
dims, batch, cin, cout, groups, kernel, stride, padding, op, dil, spatial, _ = CASES[case]
fmt = torch.channels_last if dims == 2 else torch.channels_last_3d
fn = tconv.conv_transpose2d if dims == 2 else tconv.conv_transpose3d
for i in range(2):
    x = torch.randn(batch, cin, *spatial, device="cuda").bfloat16().contiguous(memory_format=fmt).requires_grad_(xgrad)
    w = torch.randn(cin, cout // groups, *kernel, device="cuda").bfloat16().requires_grad_()
    ctx = torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) if prof_first else contextlib.nullcontext()
    try:
        with ctx:
            out = fn(x, w, None, stride, padding, op, groups, dil)
            out.backward(torch.randn(out.shape, device="cuda").bfloat16().contiguous(memory_format=fmt))
            torch.cuda.synchronize()
        print(sys.argv[1:], i, "ok", out.shape, out.stride())
    except RuntimeError as e:
        print(sys.argv[1:], i, "FAIL", str(e)[:120], out.shape, out.stride())
