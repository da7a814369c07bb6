"""Verify-then-benchmark harness for KernelBench-format problems and tconv solutions.

    from tconv.harness.verify import verify, main as verify_main   # `tconv verify`
    from tconv.harness.bench import main as bench_main             # `tconv bench`

Modules: problem (load files), precision (modes, global flags), compare (tolerance rules),
poison (NaN-filled allocator), conv_detect (torch-convolution profiler check), timing,
roofline (FLOPs, bytes, floors), chart, tensors (shared helpers). Nothing is imported here, so
`tconv.harness.verify` stays the module (not a function of the same name).
"""
