// The memory format rule for results derived from tensors that are not dense, as plain C++ over sizes and strides
// (no ATen): conv_transpose.cpp's result_format uses it, and tests/test_memory_format_cpp_cpu.py compiles it alone to
// check it against tconv/_args.py's _ordered_channels_last, where the reasons are.
#pragma once
#include <cstdint>

namespace tconv {

// Whether a 4-D / 5-D tensor's elements lie at strictly increasing addresses in channels-last order (batch, spatial
// dimensions, channels innermost): each dimension's stride exceeds the farthest offset the dimensions inside it
// reach, extent-1 dimensions skipped; ambiguous tensors (empty, one channel, every spatial extent 1) are not.
inline bool ordered_channels_last(const int64_t* sizes, const int64_t* strides, int64_t dims) {
  if (dims != 4 && dims != 5) return false;
  bool spatial = false;
  for (int64_t d = 0; d < dims; ++d) {
    if (sizes[d] == 0) return false;
    spatial = spatial || (d >= 2 && sizes[d] > 1);
  }
  if (sizes[1] == 1 || !spatial) return false;
  int64_t reach = 0;  // the farthest offset of the dimensions inside
  for (int64_t i = 0; i < dims; ++i) {
    const int64_t d = i == 0 ? 1 : (i == dims - 1 ? 0 : dims - i);  // channels, W, H, (D), batch
    if (sizes[d] == 1) continue;
    if (strides[d] <= reach) return false;
    reach += strides[d] * (sizes[d] - 1);
  }
  return true;
}

}  // namespace tconv
