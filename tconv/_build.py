"""Building and loading tconv's CUDA extension.

The extension is compiled on first use through torch.utils.cpp_extension.load (ninja), from the
sources shipped in tconv/csrc, into a cache directory keyed by torch/CUDA/Python versions and the
target architectures; `python -m tconv build` does the same ahead of time. Later loads reuse the
cached build (ninja sees nothing to do).
"""
import glob
import hashlib
import os
import sys
import threading
import time
from typing import List, Optional

import torch

CSRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "csrc")
# conv_transpose_igemm.cu's units, one per part and (for three parts) per data type, and conv_transpose_grouped.cu's
# two: their heads say why.
SOURCES = ["conv_transpose.cpp", "conv_transpose_direct.cu", "conv_transpose_igemm.cu", "conv_transpose_igemm_fp16.cu",
           "conv_transpose_igemm_bf16.cu", "conv_transpose_igemm_strip.cu", "conv_transpose_igemm_unit_stride.cu",
           "conv_transpose_igemm_unit_stride_fp16.cu", "conv_transpose_igemm_unit_stride_bf16.cu",
           "conv_transpose_igemm_grad_weight.cu", "conv_transpose_igemm_grad_weight_fp16.cu",
           "conv_transpose_igemm_grad_weight_bf16.cu", "conv_transpose_igemm_tma.cu", "conv_transpose_grouped.cu",
           "conv_transpose_grouped_16bit.cu", "conv_transpose_grouped_mma.cu", "conv_transpose_unit_stride_mma.cu",
           "conv_transpose_one_tap.cu", "tf32_split.cu",
           "group_norm_act.cpp", "group_norm_act.cu"]
DEFAULT_ARCH_LIST = "8.0;9.0"
EXTENSION_NAME = "tconv_C"

_lock = threading.Lock()
_extension = None


def _torch_at_least(major: int, minor: int) -> bool:
    parts = torch.__version__.split("+")[0].split(".")
    return (int(parts[0]), int(parts[1])) >= (major, minor)


def arch_list() -> List[str]:
    """Target architectures, e.g. ['8.0', '9.0+PTX'], from TORCH_CUDA_ARCH_LIST (default 8.0;9.0)."""
    raw = os.environ.get("TORCH_CUDA_ARCH_LIST", "").strip() or DEFAULT_ARCH_LIST
    return [a for a in raw.replace(",", ";").replace(" ", ";").split(";") if a]


def gencode_flags(archs: List[str]) -> List[str]:
    """nvcc flags for the architectures. 9.0 is compiled as sm_90a (runs on every compute capability
    9.0 GPU: H100, H200, GH200) so the Hopper wgmma kernels exist; TCONV_WGMMA tells the host code
    they do. "+PTX" adds the plain compute_X PTX for later GPUs."""
    flags = []
    for arch in archs:
        ptx = arch.endswith("+PTX")
        num = arch.replace("+PTX", "").replace(".", "")
        if not num.rstrip("a").isdigit():
            raise ValueError(f"tconv: cannot parse architecture {arch!r} in TORCH_CUDA_ARCH_LIST")
        sass = "90a" if num in ("90", "90a") else num
        flags.append(f"-gencode=arch=compute_{sass},code=sm_{sass}")
        if ptx:
            plain = num.rstrip("a")
            flags.append(f"-gencode=arch=compute_{plain},code=compute_{plain}")
    if any(flag.endswith("code=sm_90a") for flag in flags):
        flags.append("-DTCONV_WGMMA")
    return flags


def build_directory() -> str:
    """One cache directory per (torch, CUDA, Python, archs): an extension built against one torch
    ABI is never loaded into another."""
    root = os.environ.get("TCONV_BUILD_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME", os.path.join(os.path.expanduser("~"), ".cache")), "tconv")
    key = "|".join([torch.__version__, str(torch.version.cuda), sys.version.split()[0], ";".join(arch_list())])
    tag = hashlib.sha1(key.encode()).hexdigest()[:10]
    return os.path.join(root, f"torch{torch.__version__.split('+')[0]}-cu{torch.version.cuda}-{tag}")


def built_library() -> Optional[str]:
    """Path of an already built extension in the cache directory, or None."""
    found = sorted(glob.glob(os.path.join(build_directory(), EXTENSION_NAME + "*.so")), key=os.path.getmtime)
    return found[-1] if found else None


def is_available() -> bool:
    """True when the CUDA kernels can be used: torch has CUDA and a GPU is present."""
    return torch.cuda.is_available() and torch.version.cuda is not None


def load(verbose: bool = False):
    """The compiled extension module, building it on first use."""
    global _extension
    if _extension is not None:
        return _extension
    with _lock:
        if _extension is not None:
            return _extension
        if torch.version.cuda is None:
            raise RuntimeError("tconv: this torch build has no CUDA support; tconv's CUDA kernels are unavailable "
                               "(CPU tensors run PyTorch's own implementation)")
        from torch.utils.cpp_extension import load as cpp_load

        directory = build_directory()
        os.makedirs(directory, exist_ok=True)
        archs = arch_list()
        fresh = built_library() is None
        if fresh:
            print(f"tconv: compiling the CUDA extension for {', '.join(archs)} into {directory} "
                  "(first use only; about a minute)...", file=sys.stderr, flush=True)
        # torch >= 2.1 compiles extensions as C++17 itself; older releases default to C++14, and
        # nvcc rejects a second -std flag, so add it only there.
        std = [] if _torch_at_least(2, 1) else ["-std=c++17"]
        start = time.perf_counter()
        _extension = cpp_load(
            name=EXTENSION_NAME,
            sources=[os.path.join(CSRC, s) for s in SOURCES],
            extra_cflags=["-O3"] + std,
            # Explicit -gencode flags: torch adds none of its own then, so the build never
            # silently targets only the GPU that happens to be present.
            extra_cuda_cflags=["-O3", "-lineinfo"] + std + gencode_flags(archs),
            build_directory=directory,
            verbose=verbose,
        )
        elapsed = time.perf_counter() - start
        if fresh or elapsed > 5:
            print(f"tconv: CUDA extension ready in {elapsed:.1f} s", file=sys.stderr, flush=True)
        return _extension
