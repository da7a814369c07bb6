"""tconv/csrc/memory_format.h (the C++ rule behind conv_transpose.cpp's result_format) against tconv/_args.py's
_ordered_channels_last, the Python rule: compiled alone into a small shared library and called through ctypes on the
same random views as test_api_cpu.py's test, plus run 581's case. Skipped where no C++ compiler is found."""
import ctypes
import os
import random
import shutil
import subprocess

import pytest
import torch

from test_api_cpu import random_strided_views
from tconv import _args

COMPILER = shutil.which(os.environ.get("CXX", "g++")) or shutil.which("c++")
HEADER_DIR = os.path.join(os.path.dirname(__file__), "..", "tconv", "csrc")

SHIM = """
#include "memory_format.h"
extern "C" int ordered_channels_last(const long long* sizes, const long long* strides, long long dims) {
  return tconv::ordered_channels_last(reinterpret_cast<const int64_t*>(sizes),
                                      reinterpret_cast<const int64_t*>(strides), dims) ? 1 : 0;
}
"""


@pytest.fixture(scope="module")
def cpp_rule(tmp_path_factory):
    if COMPILER is None:
        pytest.skip("no C++ compiler")
    work = tmp_path_factory.mktemp("memory_format")
    source, library = work / "shim.cpp", work / "shim.so"
    source.write_text(SHIM)
    subprocess.run([COMPILER, "-std=c++17", "-O1", "-shared", "-fPIC", "-I", HEADER_DIR, str(source), "-o",
                    str(library)], check=True, capture_output=True)
    rule = ctypes.CDLL(str(library)).ordered_channels_last
    rule.restype = ctypes.c_int
    array = ctypes.c_longlong * 5

    def call(t: torch.Tensor) -> bool:
        return bool(rule(array(*t.shape), array(*t.stride()), t.dim()))
    return call


def test_cpp_rule_matches_python(cpp_rule):
    g = torch.rand(2, 96, 26, 63).to(memory_format=torch.channels_last)[:, :, 1::3, 1::3]  # run 581's view
    assert cpp_rule(g) and _args._ordered_channels_last(g.shape, g.stride())
    channels_last_count = 0
    for view in random_strided_views(random.Random(29), 3000):
        want = _args._ordered_channels_last(view.shape, view.stride())
        assert cpp_rule(view) == want, (view.shape, view.stride())
        channels_last_count += want
    assert 300 < channels_last_count < 2700, channels_last_count  # both answers exercised
