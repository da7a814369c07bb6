import pytest
import torch


def cuda_ready() -> bool:
    return torch.cuda.is_available() and torch.version.cuda is not None


def wgmma_kernels_run() -> bool:
    """Whether this device runs tconv's Hopper (sm_90a, wgmma) kernels: asked of the build through one planning
    function (grad_input's strip kernel, TF32 mode, on a call it supports). The compiled_arch_list string names
    virtual architectures only, so a check on it is always false (it skipped test_fused_gpu's conv-store tests until
    run 257)."""
    import tconv
    go, w, gi = (torch.zeros(s, device="cuda") for s in ([1, 8, 1, 1, 24], [8, 8, 1, 1, 16], [1, 8, 1, 1, 2]))
    return tconv._build.load().grad_input_strip_possible(go, w, gi, [1, 1, 8], [0, 0, 0], [1, 1, 1], 1, True)


def unit_stride_flags(name):
    """The boolean template arguments of a unit-stride forward kernel's name, by name (kWeightsAsA, kTapPairs,
    kGroupStats, kXPairs, in the kernel's order): read by position, so that a new argument at the end does not break
    the tests that read them (runs 249 and 261 failed on patterns that ended at the last argument)."""
    args = [a.strip() for a in name.split("unit_stride_forward_kernel<", 1)[1].split(">", 1)[0].split(",")]
    flags = [a in ("true", "(bool)1") for a in args[7:]]
    return dict(zip(("weights_as_a", "tap_pairs", "group_stats", "x_pairs"), flags))


def run_under_switch(code: str, tmp_path, switch: str, values=("1", "0"), timeout: int = 900, args=()) -> dict:
    """Runs `code` (which saves its results to sys.argv[1]; `args` follow it) in a fresh process per value of the
    development switch `switch` (tconv reads its switches once per process), from the tests folder; {value: what it
    saved}."""
    import os
    import subprocess
    import sys
    results = {}
    for value in values:
        path = tmp_path / f"{switch.lower()}_{value}.pt"
        run = subprocess.run([sys.executable, "-c", code, str(path), *args], capture_output=True, text=True,
                             timeout=timeout,
                             cwd=os.path.dirname(__file__), env=dict(os.environ, **{switch: value}))
        assert run.returncode == 0, f"{switch}={value}: " + run.stderr[-3000:]
        results[value] = torch.load(path)
    return results


def sixteen_bit_script_head(module: str, mode: str) -> str:
    """The head of a run_under_switch script over 16-bit cases: the imports (`t` is the test module `module`),
    TCONV_FN, run_case, poison_cuda_allocator, and `dtype` for `mode` ("bf16" or "fp16")."""
    return (f"import sys, torch, tconv\nimport {module} as t\n"
            "from test_conv_transpose_gpu import TCONV_FN, run_case\n"
            "from conftest import poison_cuda_allocator\n"
            f"dtype = {{'bf16': torch.bfloat16, 'fp16': torch.float16}}[{mode!r}]\n")


def assert_bitwise_equal(tensors, references, label=""):
    """Every tensor of one run equals the other run's, bit for bit."""
    assert len(tensors) == len(references), label
    for i, (a, b) in enumerate(zip(tensors, references)):
        assert torch.equal(a, b), f"{label} tensor {i}: max difference {(a - b).abs().max().item()}"


def run_host_cpp(name: str, tmp_path):
    """Compiles tests/cpp/<name>.cpp against tconv/csrc with the host compiler (tconv's plain C++ headers: no CUDA, no
    torch) and runs it; the completed process, after asserting it exited 0."""
    import os
    import subprocess
    here = os.path.dirname(os.path.abspath(__file__))
    exe = tmp_path / name
    subprocess.run([os.environ.get("CXX", "g++"), "-std=c++17", "-O2", "-I", os.path.join(here, "..", "tconv", "csrc"),
                    os.path.join(here, "cpp", f"{name}.cpp"), "-o", str(exe)], check=True)
    result = subprocess.run([str(exe)], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    return result


def host_cpp_compiler_missing() -> bool:
    import os
    import shutil
    return shutil.which(os.environ.get("CXX", "g++")) is None


def poison_cuda_allocator(nbytes: int = 256 << 20):
    """Fill the CUDA caching allocator's free blocks with NaN so an element a kernel never writes
    shows up as NaN instead of a stale plausible value."""
    block = torch.empty(nbytes // 4, dtype=torch.float32, device="cuda")
    block.fill_(float("nan"))
    del block


@pytest.fixture
def poison_allocator():
    """poison_cuda_allocator, for tests that take it as a fixture."""
    return poison_cuda_allocator


# Every activation the fused epilogue takes (kind, arguments), shared by its CPU and GPU tests.
FUSED_ACTIVATIONS = [
    ("identity", {}),
    ("relu", {}),
    ("leaky_relu", {"negative_slope": 0.1}),
    ("gelu", {"approximate": "none"}),
    ("gelu", {"approximate": "tanh"}),
    ("silu", {}),
    ("hardswish", {}),
    ("tanh", {}),
    ("sigmoid", {}),
    ("hardtanh", {"min_val": -0.5, "max_val": 0.75}),
    ("hardtanh", {"min_val": 0.0, "max_val": 6.0}),  # ReLU6
]
FUSED_ACTIVATION_IDS = [k + ("" if not a else "-" + "-".join(str(v) for v in a.values()))
                        for k, a in FUSED_ACTIVATIONS]
