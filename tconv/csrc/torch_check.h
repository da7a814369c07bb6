// What the C++ bindings (conv_transpose.cpp, group_norm_act.cpp) share: TCONV_CHECK, launch checks,
// the device's SM count and the kernels' DType of a tensor.
//
// TCONV_CHECK(cond, parts...): TORCH_CHECK whose message is built here without iostreams.
//
// Why: on the GPU machine (torch 2.11.0+cu130, extension JIT-built there) every failing check whose
// message contained a number (an int64, a size list) crashed the interpreter with SIGSEGV, while
// checks with text-only messages raised RuntimeError (runs 9-11, benchmarks/results/RUNS.md). Moving
// the formatting into a std::ostringstream of ours did not help (run 11); what the crashing messages
// share is numeric formatting through iostreams, which is where a mismatch between the C++ headers
// the extension is compiled with and the C++ runtime loaded in the process shows up. So numbers are
// converted with std::to_string (no locale facets) and TORCH_CHECK gets one C string.
// Not yet confirmed on the GPU machine (device time ran out).
#pragma once
#include <cstdlib>
#include <string>
#include <type_traits>

#include <cuda_runtime_api.h>

#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>
#include <c10/core/ScalarType.h>
#include <c10/util/ArrayRef.h>
#include <c10/util/Exception.h>

#include "conv_params.h"  // DType

namespace tconv {
namespace detail {
inline void append_part(std::string& out, const char* part) { out += part; }
inline void append_part(std::string& out, const std::string& part) { out += part; }
inline void append_part(std::string& out, bool part) { out += part ? "true" : "false"; }
template <typename Integer, std::enable_if_t<std::is_integral<Integer>::value, int> = 0>
void append_part(std::string& out, Integer part) {
  out += std::to_string(part);
}
inline void append_part(std::string& out, c10::ScalarType part) { out += c10::toString(part); }
inline void append_part(std::string& out, const c10::Device& part) { out += part.str(); }
inline void append_part(std::string& out, c10::IntArrayRef part) {
  out += '[';
  for (size_t i = 0; i < part.size(); ++i) {
    if (i > 0) out += ", ";
    out += std::to_string(part[i]);
  }
  out += ']';
}

template <typename... Parts>
std::string check_message(const Parts&... parts) {
  std::string out;
  (append_part(out, parts), ...);
  return out;
}
}  // namespace detail
}  // namespace tconv

#define TCONV_CHECK(cond, ...)                                                                  \
  do {                                                                                          \
    if (!(cond)) {                                                                              \
      const std::string tconv_check_message_ = ::tconv::detail::check_message(__VA_ARGS__);     \
      TORCH_CHECK(false, tconv_check_message_.c_str());                                         \
    }                                                                                           \
  } while (0)

namespace tconv {
// Turns a launcher's cudaError_t into an exception naming the pass.
inline void check_launch(cudaError_t err, const char* what) {
  TCONV_CHECK(err == cudaSuccess, "tconv: ", what, " launch failed: ", cudaGetErrorString(err));
}

// Binds `device`'s primary CUDA context to the calling thread, once per thread and device. Why: PyTorch's device
// guard skips cudaSetDevice where the thread's current device is already the one asked for, and a new thread's is
// 0, so the autograd engine's device thread can reach tconv with no context bound. Kernel launches bind one
// implicitly; run 498 (H200, 7c1009a) had cudaFuncSetAttribute-first launches fail there with "invalid argument" on
// every weight-only first backward (channels-last bf16 TMA grad_weight: no weight packing kernel before it), and pass
// wherever any launch had run on that thread first (the suspected mechanism, which the next GPU run checks through
// TCONV_BIND_CONTEXT=0: development, read once per process, skips the binding). cudaSetDevice binds the primary
// context since CUDA 12.0.
inline void bind_primary_context(int device) {
  static const bool enabled = [] {
    const char* value = std::getenv("TCONV_BIND_CONTEXT");
    return value == nullptr || std::string(value) != "0";
  }();
  thread_local int bound = -1;
  if (!enabled || bound == device) return;
  const cudaError_t err = cudaSetDevice(device);
  TCONV_CHECK(err == cudaSuccess, "tconv: cudaSetDevice failed: ", cudaGetErrorString(err));
  bound = device;
}

inline int sm_count_of(const at::Tensor& t) {
  int count = 0;
  const cudaError_t err = cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, t.get_device());
  TCONV_CHECK(err == cudaSuccess, "tconv: cudaDeviceGetAttribute failed: ", cudaGetErrorString(err));
  return count;
}

// The kernels' element type of a tensor (fp16, bf16, fp32, fp64; anything else is an error).
inline DType to_dtype(const at::Tensor& t) {
  switch (t.scalar_type()) {
    case at::kHalf: return DType::kFloat16;
    case at::kBFloat16: return DType::kBFloat16;
    case at::kFloat: return DType::kFloat32;
    case at::kDouble: return DType::kFloat64;
    default:
      TCONV_CHECK(false, "tconv: CUDA kernels support float16, bfloat16, float32 and float64, got ",
                  t.scalar_type());
      return DType::kFloat32;  // not reached
  }
}
}  // namespace tconv
