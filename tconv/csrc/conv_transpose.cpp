// Python bindings of tconv's CUDA kernels. Argument validation (PyTorch's rules and messages),
// output shapes and memory formats are decided once, in Python (tconv/_args.py), and shared with
// the CPU path and the fake kernels; this file re-checks the invariants the kernels rely on,
// fills the launch parameters, and launches on the current stream.
#include <torch/extension.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <initializer_list>
#include <tuple>
#include <unordered_map>

#include "torch_check.h"

#include "conv_transpose.h"
#include "group_norm_act.h"
#include "memory_format.h"
#include "tf32_split.h"

namespace tconv {
namespace {

void check_5d_cuda(const at::Tensor& t, const char* name, const at::Tensor& like) {
  TCONV_CHECK(t.is_cuda(), "tconv: ", name, " must be a CUDA tensor");
  TCONV_CHECK(t.dim() == 5, "tconv: ", name, " must be 5-D here (1D/2D are viewed as 3D), got ", t.dim(), "-D");
  TCONV_CHECK(t.device() == like.device(), "tconv: ", name, " is on ", t.device(), " but expected ", like.device());
  TCONV_CHECK(t.scalar_type() == like.scalar_type(), "tconv: ", name, " has dtype ", t.scalar_type(),
              " but expected ", like.scalar_type());
}

void copy_strides(const at::Tensor& t, int64_t* dst) {
  for (int i = 0; i < 5; ++i) dst[i] = t.stride(i);
}

// Parameters from 5-D views: input [N, C_in, D, H, W], weight [C_in, C_out/g, kD, kH, kW],
// output [N, C_out, D', H', W'] (the output's size carries output_padding implicitly).
ConvTransposeParams make_params(const at::Tensor& input, const at::Tensor& weight, const at::Tensor& output,
                                at::IntArrayRef stride, at::IntArrayRef padding, at::IntArrayRef dilation,
                                int64_t groups) {
  TCONV_CHECK(stride.size() == 3 && padding.size() == 3 && dilation.size() == 3,
              "tconv: stride/padding/dilation must have 3 entries here");
  TCONV_CHECK(groups > 0 && input.size(1) % groups == 0 && output.size(1) % groups == 0,
              "tconv: channels must be divisible by groups");
  TCONV_CHECK(weight.size(0) == input.size(1) && weight.size(1) * groups == output.size(1),
              "tconv: weight shape ", weight.sizes(), " does not match input ", input.sizes(),
              " and output ", output.sizes());
  TCONV_CHECK(input.size(0) == output.size(0), "tconv: batch of input and output differ");
  ConvTransposeParams p;
  p.batch = input.size(0);
  p.in_channels = input.size(1);
  p.out_channels = output.size(1);
  p.groups = groups;
  for (int i = 0; i < 3; ++i) {
    p.in_size[i] = input.size(2 + i);
    p.out_size[i] = output.size(2 + i);
    p.kernel[i] = weight.size(2 + i);
    p.stride[i] = stride[i];
    p.padding[i] = padding[i];
    p.dilation[i] = dilation[i];
    TCONV_CHECK(p.stride[i] > 0 && p.dilation[i] > 0 && p.padding[i] >= 0, "tconv: invalid stride/dilation/padding");
    // The output may be shorter than the full extent only through padding; longer only by
    // output_padding < max(stride, dilation). Anything else means the caller computed it wrongly.
    const int64_t full = (p.in_size[i] - 1) * p.stride[i] - 2 * p.padding[i] + p.dilation[i] * (p.kernel[i] - 1) + 1;
    TCONV_CHECK(p.out_size[i] >= full && p.out_size[i] - full < std::max(p.stride[i], p.dilation[i]),
                "tconv: output size ", output.sizes(), " inconsistent with the convolution arguments");
  }
  copy_strides(input, p.input_strides);
  copy_strides(output, p.output_strides);
  copy_strides(weight, p.weight_strides);
  return p;
}

Order order_of(const at::Tensor& t) {
  // Channels innermost when the channel stride is the smallest non-trivial one (channels_last).
  return (t.size(1) > 1 && t.stride(1) == 1 && t.stride(4) != 1) ? Order::kChannelsInnermost
                                                                  : Order::kWidthInnermost;
}

// TCONV_WORKSPACE_PERCENT (development only, read once per process): the split-K workspace budget in percent of the
// reduced tensor, for same-build A/B timings of more splits (fam02 bf16's grad_weight is capped at 10 splits by the
// default budget: 100 blocks on 132 SMs); unset or not a positive number, 10.
int64_t workspace_budget_percent() {
  static const int64_t percent = [] {
    const char* value = std::getenv("TCONV_WORKSPACE_PERCENT");
    const int parsed = value == nullptr ? 0 : std::atoi(value);
    return static_cast<int64_t>(parsed > 0 ? parsed : 10);
  }();
  return percent;
}

// Workspace budget of the split-K reductions: 10% of the tensor being reduced, never below one
// split's worth (the memory rule).
int64_t workspace_budget_elems(const at::Tensor& reduced, DType dtype) {
  return static_cast<int64_t>(reduced.numel() * reduced.element_size() * workspace_budget_percent() / 100) /
         accumulator_bytes(dtype);
}

void check_algorithm(const std::string& algorithm) {
  TCONV_CHECK(algorithm == "auto" || algorithm == "direct" || algorithm == "igemm" || algorithm == "igemm_mma" ||
                  algorithm == "igemm_window" || algorithm == "igemm_nowindow" || algorithm == "igemm_fold" ||
                  algorithm == "igemm_nofold" || algorithm == "igemm_strip" || algorithm == "grouped" ||
                  algorithm == "grouped_mma" || algorithm == "unit_stride_mma" || algorithm == "igemm_tma" ||
                  algorithm == "igemm_tma_window" || algorithm == "igemm_tma_direct" || algorithm == "grouped_tiled" ||
                  algorithm == "one_tap",
              "tconv: unknown algorithm '", algorithm,
              "' (auto, direct, igemm, igemm_mma, igemm_window, igemm_nowindow, igemm_fold, igemm_nofold, igemm_strip, "
              "igemm_tma, igemm_tma_window, igemm_tma_direct, grouped, grouped_mma, grouped_tiled, one_tap, "
              "unit_stride_mma)");
}

// The "igemm_*" variants force the GEMMs like "igemm" and pin one choice inside the gather passes, so
// tests and A/B timings reach every kernel: "igemm_mma" keeps them (and grad_weight) on the mma.sync kernels (the sm_80
// path) on Hopper too, "igemm_window" takes the W-tap window wherever it is possible, "igemm_nowindow"
// never; "igemm_fold" takes the forward's W fold wherever it is possible, "igemm_nofold" never; "igemm_tma" takes the
// TMA gather's per-tap boxes wherever it is possible, "igemm_tma_window" its W-tap window where that applies (the
// per-tap boxes elsewhere), "igemm_tma_direct" its per-tap boxes of the source itself (no channels-last copy; "igemm"
// where its box cannot map the source), and every other "igemm_*" variant keeps the gathers off it.
bool forces_igemm(const std::string& algorithm) { return algorithm.rfind("igemm", 0) == 0; }
GatherOptions gather_options(const std::string& algorithm, const void* source = nullptr) {
  GatherOptions options;
  options.allow_wgmma = algorithm != "igemm_mma";
  options.source_16_byte_aligned = source != nullptr && reinterpret_cast<uintptr_t>(source) % 16 == 0;
  if (algorithm == "igemm_window") options.window = GatherWindow::kForce;
  if (algorithm == "igemm_nowindow") options.window = GatherWindow::kOff;
  if (algorithm == "igemm_fold") options.fold = GatherFold::kForce;
  if (algorithm == "igemm_nofold") options.fold = GatherFold::kOff;
  // The variants that pin another gather form keep it off the TMA gather; "igemm_tma" takes it wherever possible.
  if (algorithm == "igemm_tma") options.tma = GatherTma::kForce;
  else if (algorithm == "igemm_tma_window") options.tma = GatherTma::kForceWindow;
  else if (algorithm == "igemm_tma_direct") options.tma = GatherTma::kForceDirect;
  else if (algorithm != "igemm" && algorithm != "auto") options.tma = GatherTma::kOff;
  return options;
}

// Which kernel runs a pass. "auto" is the heuristic; "direct"/"igemm"/"grouped" force one (tests use
// them to exercise every branch; forcing a kernel where it cannot run is an error, not a fallback).
bool use_gather_igemm(const ConvTransposeParams& p, GatherPass pass, DType dtype, const std::string& algorithm) {
  check_algorithm(algorithm);
  const bool possible = igemm_supported(p, pass) && igemm_dtype_supported(dtype);
  if (forces_igemm(algorithm)) {
    TCONV_CHECK(possible, "tconv: the igemm algorithm does not support this call (fp32/fp16/bf16, per-dim kernel "
                          "<= 32, <= 512 taps per phase)");
    return true;
  }
  // fp16/bf16 run the GEMM since run 12 (H200): the GPU sweep passed them under "igemm", and
  // L1-68 bf16 forward went 418 ms (direct) -> 18.9 ms (logs/run12-quick_half.log).
  return algorithm == "auto" && possible;
}

bool use_grad_weight_igemm(const ConvTransposeParams& p, DType dtype, const std::string& algorithm) {
  check_algorithm(algorithm);
  const bool possible = igemm_grad_weight_supported(p) && igemm_dtype_supported(dtype);
  if (forces_igemm(algorithm)) {
    TCONV_CHECK(possible, "tconv: the igemm algorithm does not support this call (grad_weight GEMM: fp32/fp16/bf16)");
    return true;
  }
  // "grouped_mma" has no grad_weight kernel of its own: grad_weight follows "auto" there.
  return (algorithm == "auto" || algorithm == "grouped_mma") && possible && igemm_grad_weight_preferred(p);
}

// The kernels for few channels per group (forward and grad_input): "grouped" forces the register-blocked
// FFMA ones, "grouped_mma" the tensor-core ones. "auto" takes them ahead of the GEMMs where grouped_preferred
// says the channel product is small: the tensor-core ones where grouped_mma_preferred says they measured
// faster (forwards: run 78's fp32 with 9-16 output channels per group, runs 266-267's lines form; grad_input: the
// lines form on 16-bit data with many taps per output, run 272), else the FFMA ones.
enum class GroupedKernel { kNone, kFfma, kMma };
GroupedKernel grouped_kernel(const ConvTransposeParams& p, DType dtype, GatherPass pass, bool allow_tf32,
                             const std::string& algorithm) {
  check_algorithm(algorithm);
  if (algorithm == "grouped") {
    TCONV_CHECK(grouped_supported(p, dtype), "tconv: the grouped algorithm does not support this call (at most ",
                kGroupedMaxChannels, " channels per group on each side, the group's weights within ",
                kGroupedMaxSharedBytes / 1024, " KiB of shared memory, every tensor below 2^31 elements)");
    return GroupedKernel::kFfma;
  }
  if (algorithm == "grouped_mma") {
    TCONV_CHECK(grouped_mma_supported(p, dtype, pass), "tconv: the grouped_mma algorithm does not support this call "
                "(fp32/fp16/bf16, at most ", kGroupedMaxChannels, " channels per group on each side, the group's "
                "weights (channels padded to 8 or 16) within ", kGroupedMaxSharedBytes / 1024, " KiB of shared memory, "
                "every tensor below 2^31 elements)");
    return GroupedKernel::kMma;
  }
  if (algorithm != "auto" || !grouped_preferred(p)) return GroupedKernel::kNone;
  if (grouped_mma_preferred(p, dtype, pass, !allow_tf32)) return GroupedKernel::kMma;
  return grouped_supported(p, dtype) ? GroupedKernel::kFfma : GroupedKernel::kNone;
}

// grad_weight's grouped kernel stages grad_output boxes in shared memory, so it takes a subset of
// the grouped shapes (grouped_grad_weight_supported). Forced only: run 19 (H200, TF32) measured L1-73
// fwd+bwd 4.91 -> 7.09 ms and L1-72 1.89 -> 2.35 ms with it under "auto" (the direct kernel wins).
bool use_grouped_grad_weight(const ConvTransposeParams& p, DType dtype, const std::string& algorithm) {
  check_algorithm(algorithm);
  const bool supported = grouped_grad_weight_supported(p, dtype);
  if (algorithm == "grouped") {
    TCONV_CHECK(supported, "tconv: the grouped algorithm does not support this grad_weight call (at most ",
                kGroupedMaxChannels, " channels per group on each side, every tensor below 2^31 elements, the group's "
                "weights and one input position's grad_output taps (C_out/g x kD x dilated kH x dilated kW) each within ",
                kGroupedMaxSharedBytes / 1024, " KiB of shared memory)");
    return true;
  }
  return false;  // "auto": the direct kernel (see above)
}

// grad_weight's tensor-core grouped kernel (conv_transpose_grouped_mma.cu): under "grouped_mma" wherever it runs
// (where it cannot, grad_weight follows "auto" there, as before it existed); under "auto" where
// grouped_mma_grad_weight_preferred says it measured faster than the direct kernel (runs 270-271).
bool use_grouped_mma_grad_weight(const ConvTransposeParams& p, DType dtype, const std::string& algorithm) {
  check_algorithm(algorithm);
  if (algorithm == "grouped_mma") return grouped_mma_grad_weight_supported(p, dtype);
  return algorithm == "auto" && grouped_mma_grad_weight_preferred(p, dtype);
}

// What both forward entries check and describe: 5-D CUDA tensors, an optional bias of C_out elements like input.
struct ForwardCall {
  ConvTransposeParams p;
  const void* bias;  // null: none
};
ForwardCall forward_call(const at::Tensor& input, const at::Tensor& weight, const c10::optional<at::Tensor>& bias,
                         const at::Tensor& output, at::IntArrayRef stride, at::IntArrayRef padding,
                         at::IntArrayRef dilation, int64_t groups) {
  check_5d_cuda(input, "input", input);
  check_5d_cuda(weight, "weight", input);
  check_5d_cuda(output, "output", input);
  const at::Tensor* b = nullptr;
  if (bias.has_value() && bias->defined()) {
    TCONV_CHECK(bias->is_cuda() && bias->device() == input.device() && bias->scalar_type() == input.scalar_type() &&
                    bias->dim() == 1 && bias->size(0) == output.size(1),
                "tconv: bias must be a 1-D CUDA tensor of ", output.size(1), " elements like input");
    b = &bias.value();
  }
  ForwardCall call{make_params(input, weight, output, stride, padding, dilation, groups), nullptr};
  if (b != nullptr) {
    call.p.bias_stride = b->stride(0);
    call.bias = b->data_ptr();
  }
  return call;
}

// Whether forward_out runs the strip kernel: under "igemm_strip" wherever it can run, under "auto" where preferred (a
// grid that fills the GPU, igemm_config.h: StripAutoRule); the grouped kernels, where chosen, come first.
bool forward_takes_strip(const ConvTransposeParams& p, DType dtype, bool allow_tf32, const std::string& algorithm,
                         int sm_count) {
  return strip_forward_possible(p, dtype, !allow_tf32) &&
         (algorithm == "igemm_strip" || (algorithm == "auto" && strip_forward_preferred(p, dtype, sm_count)));
}

// unit_stride_mma's tile counter where its tiles are dynamic (an undefined tensor otherwise); the caching allocator
// keeps the 4 bytes ordered on the current stream, where the launch zeroes and the kernel uses them.
at::Tensor unit_stride_mma_tile_counter(const at::Tensor& like) {
  return unit_stride_mma_dynamic_tiles() ? at::empty({1}, like.options().dtype(at::kInt)) : at::Tensor();
}
int* counter_pointer(const at::Tensor& counter) { return counter.defined() ? counter.data_ptr<int>() : nullptr; }
// Whether a pass runs the unit-stride mma.sync kernel: "unit_stride_mma" forces it (an error naming `conditions`
// where it cannot run), "auto" takes it where UnitStrideMmaAutoRule prefers it (igemm_config.h) and it can run. The
// rule is asked first, so "auto" plans only the calls it would take.
template <class Possible>
bool takes_unit_stride_mma(const std::string& algorithm, bool preferred, Possible possible, const char* conditions) {
  if (algorithm == "unit_stride_mma") {
    TCONV_CHECK(possible(), "tconv: the unit_stride_mma algorithm does not support this ", conditions);
    return true;
  }
  return algorithm == "auto" && preferred && possible();
}
bool forward_takes_unit_stride_mma(const ConvTransposeParams& p, DType dtype, bool allow_tf32,
                                   const std::string& algorithm, const void* input, const void* output) {
  return takes_unit_stride_mma(
      algorithm, unit_stride_mma_forward_preferred(p, dtype),
      [&] { return unit_stride_mma_forward_possible(p, dtype, !allow_tf32, input, output); },
      "forward (compute capability 8.0+, fp32 in TF32 mode, fp16 or bf16; groups 1, stride 1, kernel D 1 without D "
      "padding, C_in a multiple of 32 (16 in TF32), input and output W-contiguous with input rows 4-byte aligned, "
      "or input and output channels-last with every input position 16-byte aligned (fp32 not under "
      "TCONV_UNIT_STRIDE_MMA_CHANNELS_LAST_FP32=0), and the tile's window and weights within the shared memory)");
}

}  // namespace

void forward_out(const at::Tensor& input, const at::Tensor& weight, const c10::optional<at::Tensor>& bias,
                 at::Tensor& output, at::IntArrayRef stride, at::IntArrayRef padding,
                 at::IntArrayRef dilation, int64_t groups, bool allow_tf32, const std::string& algorithm) {
  const ForwardCall call = forward_call(input, weight, bias, output, stride, padding, dilation, groups);
  const ConvTransposeParams& p = call.p;
  const c10::cuda::CUDAGuard guard(input.device());
  bind_primary_context(input.get_device());
  const GroupedKernel grouped = grouped_kernel(p, to_dtype(input), GatherPass::kForward, allow_tf32, algorithm);
  if (grouped == GroupedKernel::kMma) {
    check_launch(grouped_mma_forward(p, to_dtype(input), !allow_tf32, input.data_ptr(), weight.data_ptr(),
                                     call.bias, output.data_ptr(), sm_count_of(input),
                                     c10::cuda::getCurrentCUDAStream().stream()),
                 "conv_transpose forward (grouped_mma)");
    return;
  }
  if (grouped == GroupedKernel::kFfma) {
    check_launch(grouped_forward(p, to_dtype(input), input.data_ptr(), weight.data_ptr(),
                                 call.bias, output.data_ptr(), sm_count_of(input),
                                 c10::cuda::getCurrentCUDAStream().stream()),
                 "conv_transpose forward (grouped)");
    return;
  }
  // The grouped FFMA kernel in output-channel tiles (conv_transpose.h: grouped_tiled_forward; forced only).
  if (algorithm == "grouped_tiled") {
    TCONV_CHECK(grouped_tiled_forward_supported(p, to_dtype(input)), "tconv: the grouped_tiled algorithm does not "
                "support this forward (groups 1, at most ", kGroupedTiledMaxInChannels, " input channels, more than ",
                kGroupedTileOutChannels, " output channels, a tile's weights within ", kGroupedMaxSharedBytes / 1024,
                " KiB of shared memory, every tensor below 2^31 elements)");
    check_launch(grouped_tiled_forward(p, to_dtype(input), input.data_ptr(), weight.data_ptr(), call.bias,
                                       output.data_ptr(), sm_count_of(input),
                                       c10::cuda::getCurrentCUDAStream().stream()),
                 "conv_transpose forward (grouped_tiled)");
    return;
  }
  // The one-tap forward (conv_transpose.h: one_tap_forward): "one_tap" forces it, "auto" takes it where preferred.
  if (algorithm == "one_tap" || (algorithm == "auto" && one_tap_forward_preferred(p, to_dtype(input)))) {
    TCONV_CHECK(one_tap_forward_possible(p, to_dtype(input)), "tconv: the one_tap algorithm does not support this "
                "forward (groups 1, fp32, fp16 or bf16, a W kernel of at most 4, and along every dimension the taps "
                "within one stride: dilation x (kernel - 1) < stride)");
    check_launch(one_tap_forward(p, to_dtype(input), input.data_ptr(), weight.data_ptr(), call.bias,
                                 output.data_ptr(), c10::cuda::getCurrentCUDAStream().stream()),
                 "conv_transpose forward (one_tap)");
    return;
  }
  // Before the TMA window: its rules and UnitStrideMmaAutoRule meet only on channels-last 16-bit calls of at most 32
  // channels a side (the window takes 16-bit data only channels-last, fp32 from 33 output channels), where the
  // unit-stride kernel's channels-last form is the faster (igemm_config.h: UnitStrideMmaAutoRule).
  if (forward_takes_unit_stride_mma(p, to_dtype(input), allow_tf32, algorithm, input.data_ptr(), output.data_ptr())) {
    const at::Tensor counter = unit_stride_mma_tile_counter(input);
    check_launch(unit_stride_mma_forward(p, to_dtype(input), !allow_tf32, input.data_ptr(), weight.data_ptr(),
                                         call.bias, output.data_ptr(), counter_pointer(counter), sm_count_of(input),
                                         c10::cuda::getCurrentCUDAStream().stream()),
                 "conv_transpose forward (unit_stride_mma)");
    return;
  }
  // Only "auto" asks the window rule (which refuses options other than kAutoWindow)
  GatherOptions options;
  if (algorithm == "auto") {
    options = gather_options(algorithm, input.data_ptr());
    options.tma = GatherTma::kAutoWindow;
  }
  if (gather_tma_window_preferred(p, GatherPass::kForward, to_dtype(input), !allow_tf32, options)) {
    const at::Tensor workspace =
        at::empty({igemm_packed_weight_elems(p, GatherPass::kForward, to_dtype(input), !allow_tf32, options)},
                  input.options().dtype(at::kFloat));
    check_launch(igemm_gather(p, GatherPass::kForward, to_dtype(input), !allow_tf32, options, input.data_ptr(),
                              weight.data_ptr(), call.bias, output.data_ptr(), workspace.data_ptr<float>(),
                              c10::cuda::getCurrentCUDAStream().stream()),
                 "conv_transpose forward (TMA window)");
    return;
  }
  if (forward_takes_strip(p, to_dtype(input), allow_tf32, algorithm, sm_count_of(input))) {
    const at::Tensor packed =
        at::empty({strip_forward_packed_weight_elems(p, to_dtype(input))}, input.options().dtype(at::kFloat));
    check_launch(strip_forward(p, to_dtype(input), input.data_ptr(), weight.data_ptr(), call.bias, output.data_ptr(),
                               packed.data_ptr<float>(), c10::cuda::getCurrentCUDAStream().stream()),
                 "conv_transpose forward (igemm_strip)");
    return;
  }
  if (use_gather_igemm(p, GatherPass::kForward, to_dtype(input), algorithm)) {
    const GatherOptions options = gather_options(algorithm, input.data_ptr());
    const at::Tensor packed =
        at::empty({igemm_packed_weight_elems(p, GatherPass::kForward, to_dtype(input), !allow_tf32, options)},
                  input.options().dtype(at::kFloat));
    check_launch(igemm_gather(p, GatherPass::kForward, to_dtype(input), !allow_tf32, options, input.data_ptr(),
                              weight.data_ptr(), call.bias, output.data_ptr(),
                              packed.data_ptr<float>(), c10::cuda::getCurrentCUDAStream().stream()),
                 "conv_transpose forward (igemm)");
    return;
  }
  check_launch(direct_forward(p, to_dtype(input), input.data_ptr(), weight.data_ptr(),
                              call.bias, output.data_ptr(), order_of(output),
                              sm_count_of(input), c10::cuda::getCurrentCUDAStream().stream()),
               "conv_transpose forward");
}

// The forward that also makes the GroupNorm statistics of act(output) in its store (conv_transpose.h:
// ForwardGroupStats), for tconv.fused: where forward_out would run the unit-stride form (under "auto" where
// preferred, under "igemm_strip" wherever possible) and that form can make them, runs it and returns the
// zero-initialised partials it filled (for group_norm_act_forward_out's `partials`); elsewhere launches nothing and
// returns an empty tensor (the caller runs forward_out and the statistics pass).
at::Tensor forward_group_stats_out(const at::Tensor& input, const at::Tensor& weight,
                                   const c10::optional<at::Tensor>& bias, at::Tensor& output, at::IntArrayRef stride,
                                   at::IntArrayRef padding, at::IntArrayRef dilation, int64_t groups, bool allow_tf32,
                                   const std::string& algorithm, int64_t norm_groups, int64_t activation, double arg0,
                                   double arg1) {
  const ForwardCall call = forward_call(input, weight, bias, output, stride, padding, dilation, groups);
  TCONV_CHECK(norm_groups > 0 && output.size(1) % norm_groups == 0, "tconv: ", output.size(1),
              " channels are not divisible into ", norm_groups, " groups");
  TCONV_CHECK(activation >= 0 && activation < kActivationCount, "tconv: unknown activation code ", activation);
  const ConvTransposeParams& p = call.p;
  const DType dtype = to_dtype(input);
  const c10::cuda::CUDAGuard guard(input.device());
  bind_primary_context(input.get_device());
  const at::Tensor none = at::empty({0}, input.options().dtype(at::kFloat));
  check_algorithm(algorithm);
  if (output.numel() == 0 ||
      grouped_kernel(p, dtype, GatherPass::kForward, allow_tf32, algorithm) != GroupedKernel::kNone ||
      forward_takes_unit_stride_mma(p, dtype, allow_tf32, algorithm, input.data_ptr(), output.data_ptr()) ||
      !forward_takes_strip(p, dtype, allow_tf32, algorithm, sm_count_of(input)) ||
      !unit_stride_group_stats_possible(p, dtype, norm_groups) || !unit_stride_group_stats_activation(int(activation)))
    return none;
  const at::Tensor packed =
      at::empty({strip_forward_packed_weight_elems(p, dtype)}, input.options().dtype(at::kFloat));
  at::Tensor partials = at::zeros({unit_stride_group_stats_partials(p, dtype, norm_groups)},
                                  input.options().dtype(at::kFloat));
  ForwardGroupStats stats;
  stats.partials = partials.data_ptr<float>();
  stats.groups = norm_groups;
  stats.splits = unit_stride_group_stats_splits(p, dtype, norm_groups);
  stats.activation = int(activation);
  stats.act_arg0 = float(arg0);
  stats.act_arg1 = float(arg1);
  check_launch(strip_forward(p, dtype, input.data_ptr(), weight.data_ptr(), call.bias, output.data_ptr(),
                             packed.data_ptr<float>(), c10::cuda::getCurrentCUDAStream().stream(), &stats),
               "conv_transpose forward with GroupNorm statistics (igemm_strip)");
  return partials;
}

// grad_input_out's argument checks and parameters, shared with its queries below.
ConvTransposeParams grad_input_params(const at::Tensor& grad_output, const at::Tensor& weight,
                                      const at::Tensor& grad_input, at::IntArrayRef stride, at::IntArrayRef padding,
                                      at::IntArrayRef dilation, int64_t groups) {
  check_5d_cuda(grad_output, "grad_output", grad_output);
  check_5d_cuda(weight, "weight", grad_output);
  check_5d_cuda(grad_input, "grad_input", grad_output);
  return make_params(grad_input, weight, grad_output, stride, padding, dilation, groups);
}
// "grouped_tiled" and "one_tap" pick a forward kernel; grad_input runs as under "auto".
std::string grad_input_algorithm(const std::string& requested) {
  return requested == "grouped_tiled" || requested == "one_tap" ? std::string("auto") : requested;
}
// Whether grad_input_out runs the unit-stride mma.sync kernel (a persistent grid: SM-count blocks that take the
// tiles from a counter).
bool grad_input_takes_unit_stride_mma(const ConvTransposeParams& p, const at::Tensor& grad_output,
                                      const at::Tensor& grad_input, bool allow_tf32, const std::string& algorithm) {
  return takes_unit_stride_mma(
      algorithm, unit_stride_mma_grad_input_preferred(p, to_dtype(grad_output)),
      [&] {
        return unit_stride_mma_grad_input_possible(p, to_dtype(grad_output), !allow_tf32, grad_output.data_ptr(),
                                                   grad_input.data_ptr());
      },
      "grad_input (compute capability 8.0+, fp32 in TF32 mode, fp16 or bf16; groups 1, stride 1, kernel D 1 "
      "without D padding, C_out a multiple of 32 (16 in TF32), grad_output and grad_input W-contiguous with "
      "grad_output rows 4-byte aligned, or grad_output and grad_input channels-last with every grad_output "
      "position 16-byte aligned (fp32 not under TCONV_UNIT_STRIDE_MMA_CHANNELS_LAST_FP32=0), and the tile's window "
      "and weights within the shared memory)");
}

// The form grad_input_out runs a call on: its branches in their order.
enum class GradInputForm { kUnitStrideMma, kUnitStride, kStrip, kGroupedMma, kGrouped, kGather, kDirect };
GradInputForm grad_input_form(const ConvTransposeParams& p, const at::Tensor& grad_output,
                              const at::Tensor& grad_input, bool allow_tf32, const std::string& algorithm) {
  const DType dtype = to_dtype(grad_output);
  if (grad_input_takes_unit_stride_mma(p, grad_output, grad_input, allow_tf32, algorithm))
    return GradInputForm::kUnitStrideMma;
  // The strip kernel: "igemm_strip" forces it (an error where it cannot run), "auto" takes it wherever it can. No
  // grid bound here (StripAutoRule): without it "auto" splits a 1D call at W stride >= 4 by phases, which run 144
  // measured 5-10x slower than the strip kernel on the small shapes (0.6-0.7 ms against 0.06).
  const bool strip_possible =
      strip_grad_input_possible(p, dtype, !allow_tf32, grad_output.data_ptr(), grad_input.data_ptr());
  const bool unit_stride_possible = unit_stride_grad_input_possible(p, dtype, !allow_tf32);
  TCONV_CHECK(algorithm != "igemm_strip" || strip_possible || unit_stride_possible,
              "tconv: the igemm_strip algorithm does not support this call (grad_input on sm_90a, groups 1: either "
              "fp32 in TF32 mode, fp16 or bf16 with 1D lines, W stride a multiple of 8, a W kernel of whole strides "
              "with kernel W dividing 32, W padding and output W multiples of 4, grad_output W-contiguous and "
              "16-byte aligned; or fp32 in TF32 mode, fp16 or bf16 with stride 1, W dilation 1, a W kernel of 3, 5 "
              "or 7, padding at most dilation x (kernel - 1), output_padding 0)");
  const bool unit_stride_preferred =
      algorithm == "auto" && unit_stride_grad_input_preferred(p, dtype, sm_count_of(grad_output));
  if (unit_stride_possible && (algorithm == "igemm_strip" || unit_stride_preferred)) return GradInputForm::kUnitStride;
  if (strip_possible && (algorithm == "igemm_strip" || algorithm == "auto")) return GradInputForm::kStrip;
  const GroupedKernel grouped = grouped_kernel(p, dtype, GatherPass::kGradInput, allow_tf32, algorithm);
  if (grouped == GroupedKernel::kMma) return GradInputForm::kGroupedMma;
  if (grouped == GroupedKernel::kFfma) return GradInputForm::kGrouped;
  if (use_gather_igemm(p, GatherPass::kGradInput, dtype, algorithm)) return GradInputForm::kGather;
  return GradInputForm::kDirect;
}
// The gathers' options for a grad_input call that takes them: the algorithm's, under "auto" the window's where its
// rule prefers it (the window rule refuses options other than kAutoWindow).
GatherOptions grad_input_gather_options(const ConvTransposeParams& p, const at::Tensor& grad_output, bool allow_tf32,
                                        const std::string& algorithm) {
  GatherOptions options = gather_options(algorithm, grad_output.data_ptr());
  if (algorithm == "auto") {
    GatherOptions window = options;
    window.tma = GatherTma::kAutoWindow;
    if (gather_tma_window_preferred(p, GatherPass::kGradInput, to_dtype(grad_output), !allow_tf32, window))
      options = window;
  }
  return options;
}

void grad_input_out(const at::Tensor& grad_output, const at::Tensor& weight, at::Tensor& grad_input,
                    at::IntArrayRef stride, at::IntArrayRef padding, at::IntArrayRef dilation, int64_t groups,
                    bool allow_tf32, const std::string& requested) {
  const std::string algorithm = grad_input_algorithm(requested);
  const ConvTransposeParams p = grad_input_params(grad_output, weight, grad_input, stride, padding, dilation, groups);
  const c10::cuda::CUDAGuard guard(grad_output.device());
  bind_primary_context(grad_output.get_device());
  const DType dtype = to_dtype(grad_output);
  const auto stream = c10::cuda::getCurrentCUDAStream().stream();
  if (one_tap_grad_input_taken(p, dtype, requested)) {
    check_launch(one_tap_grad_input(p, dtype, grad_output.data_ptr(), weight.data_ptr(), grad_input.data_ptr(),
                                    stream),
                 "conv_transpose grad_input (one_tap)");
    return;
  }
  switch (grad_input_form(p, grad_output, grad_input, allow_tf32, algorithm)) {
    case GradInputForm::kUnitStrideMma: {
      const at::Tensor counter = unit_stride_mma_tile_counter(grad_output);
      check_launch(unit_stride_mma_grad_input(p, dtype, !allow_tf32, grad_output.data_ptr(), weight.data_ptr(),
                                              grad_input.data_ptr(), counter_pointer(counter),
                                              sm_count_of(grad_output), stream),
                   "conv_transpose grad_input (unit_stride_mma)");
      return;
    }
    case GradInputForm::kUnitStride: {
      const at::Tensor packed =
          at::empty({unit_stride_grad_input_packed_elems(p, dtype)}, grad_output.options().dtype(at::kFloat));
      check_launch(unit_stride_grad_input(p, dtype, grad_output.data_ptr(), weight.data_ptr(), grad_input.data_ptr(),
                                          packed.data_ptr<float>(), stream),
                   "conv_transpose grad_input (igemm_strip, unit stride)");
      return;
    }
    case GradInputForm::kStrip: {
      const at::Tensor packed =
          at::empty({strip_packed_weight_elems(p, dtype)}, grad_output.options().dtype(at::kFloat));
      check_launch(strip_grad_input(p, dtype, grad_output.data_ptr(), weight.data_ptr(), grad_input.data_ptr(),
                                    packed.data_ptr<float>(), stream),
                   "conv_transpose grad_input (igemm_strip)");
      return;
    }
    case GradInputForm::kGroupedMma:
      check_launch(grouped_mma_grad_input(p, dtype, !allow_tf32, grad_output.data_ptr(), weight.data_ptr(),
                                          grad_input.data_ptr(), sm_count_of(grad_output), stream),
                   "conv_transpose grad_input (grouped_mma)");
      return;
    case GradInputForm::kGrouped:
      check_launch(grouped_grad_input(p, dtype, grad_output.data_ptr(), weight.data_ptr(), grad_input.data_ptr(),
                                      sm_count_of(grad_output), stream),
                   "conv_transpose grad_input (grouped)");
      return;
    case GradInputForm::kGather: {
      const GatherOptions options = grad_input_gather_options(p, grad_output, allow_tf32, algorithm);
      const at::Tensor packed =
          at::empty({igemm_packed_weight_elems(p, GatherPass::kGradInput, dtype, !allow_tf32, options)},
                    grad_output.options().dtype(at::kFloat));
      check_launch(igemm_gather(p, GatherPass::kGradInput, dtype, !allow_tf32, options, grad_output.data_ptr(),
                                weight.data_ptr(), nullptr, grad_input.data_ptr(), packed.data_ptr<float>(), stream),
                   "conv_transpose grad_input (igemm)");
      return;
    }
    case GradInputForm::kDirect:
      break;
  }
  check_launch(direct_grad_input(p, dtype, grad_output.data_ptr(), weight.data_ptr(), grad_input.data_ptr(),
                                 order_of(grad_input), sm_count_of(grad_output), stream),
               "conv_transpose grad_input");
}

// Whether "auto" runs this grad_input call on the strip kernel (Python then keeps the call whole instead of
// splitting it by phases).
bool grad_input_strip_possible(const at::Tensor& grad_output, const at::Tensor& weight, const at::Tensor& grad_input,
                               at::IntArrayRef stride, at::IntArrayRef padding, at::IntArrayRef dilation,
                               int64_t groups, bool allow_tf32) {
  const ConvTransposeParams p = grad_input_params(grad_output, weight, grad_input, stride, padding, dilation, groups);
  const c10::cuda::CUDAGuard guard(grad_output.device());
  bind_primary_context(grad_output.get_device());
  return strip_grad_input_possible(p, to_dtype(grad_output), !allow_tf32, grad_output.data_ptr(),
                                   grad_input.data_ptr());
}

// Whether grad_input_out runs this call on a persistent grid (the unit-stride mma.sync kernel, or the TMA gather's
// persistent per-tap or window kernels): Python then keeps the backward's passes one after the other (tconv/_ops.py,
// the concurrent backward).
bool grad_input_persistent(const at::Tensor& grad_output, const at::Tensor& weight, const at::Tensor& grad_input,
                           at::IntArrayRef stride, at::IntArrayRef padding, at::IntArrayRef dilation, int64_t groups,
                           bool allow_tf32, const std::string& requested) {
  const std::string algorithm = grad_input_algorithm(requested);
  const ConvTransposeParams p = grad_input_params(grad_output, weight, grad_input, stride, padding, dilation, groups);
  const c10::cuda::CUDAGuard guard(grad_output.device());
  bind_primary_context(grad_output.get_device());
  if (one_tap_grad_input_taken(p, to_dtype(grad_output), requested)) return false;
  switch (grad_input_form(p, grad_output, grad_input, allow_tf32, algorithm)) {
    case GradInputForm::kUnitStrideMma:
      return true;
    case GradInputForm::kGather:
      return gather_tma_persistent(p, GatherPass::kGradInput, to_dtype(grad_output), !allow_tf32,
                                   grad_input_gather_options(p, grad_output, allow_tf32, algorithm),
                                   grad_input.data_ptr());
    default:
      return false;
  }
}

void grad_weight_out(const at::Tensor& grad_output, const at::Tensor& input, at::Tensor& grad_weight,
                     at::IntArrayRef stride, at::IntArrayRef padding, at::IntArrayRef dilation, int64_t groups,
                     bool allow_tf32, const std::string& requested) {
  check_algorithm(requested);
  // "unit_stride_mma" forces the unit-stride grad_weight where it can run, "one_tap" the one-tap grad_weight (unless
  // TCONV_ONE_TAP_GRAD_WEIGHT=0); elsewhere grad_weight runs as under "auto".
  const std::string algorithm =
      requested == "unit_stride_mma" || requested == "grouped_tiled" || requested == "one_tap" ? std::string("auto")
                                                                                                : requested;
  check_5d_cuda(grad_output, "grad_output", grad_output);
  check_5d_cuda(input, "input", grad_output);
  check_5d_cuda(grad_weight, "grad_weight", grad_output);
  const ConvTransposeParams p = make_params(input, grad_weight, grad_output, stride, padding, dilation, groups);
  const c10::cuda::CUDAGuard guard(grad_output.device());
  bind_primary_context(grad_output.get_device());
  const DType dtype = to_dtype(grad_output);
  const int sm_count = sm_count_of(grad_output);
  const int64_t budget = std::max<int64_t>(workspace_budget_elems(grad_output, dtype), grad_weight.numel());
  const auto stream = c10::cuda::getCurrentCUDAStream().stream();
  const at::TensorOptions acc_options = grad_output.options().dtype(dtype == DType::kFloat64 ? at::kDouble : at::kFloat);
  if (one_tap_grad_weight_taken(p, dtype, requested)) {
    const int64_t splits = one_tap_grad_weight_splits(p, sm_count, budget);
    const at::Tensor workspace = at::empty({splits * grad_weight.numel()}, acc_options);
    check_launch(one_tap_grad_weight(p, dtype, input.data_ptr(), grad_output.data_ptr(), grad_weight.data_ptr(),
                                     workspace.data_ptr<float>(), splits, stream),
                 "conv_transpose grad_weight (one_tap)");
    return;
  }
  if (algorithm == "auto" && grad_weight_window_preferred(p) &&
      grad_weight_window_possible(p, dtype, input.data_ptr(), grad_output.data_ptr())) {
    const int64_t splits = grad_weight_window_splits(p, sm_count, budget);
    const at::Tensor workspace = at::empty({splits * grad_weight.numel()}, acc_options);
    check_launch(grad_weight_window(p, dtype, input.data_ptr(), grad_output.data_ptr(), grad_weight.data_ptr(),
                                    workspace.data_ptr<float>(), sm_count, budget, stream),
                 "conv_transpose grad_weight (window, channels-last)");
    return;
  }
  if (algorithm == "auto" && grad_weight_tma_preferred(p) &&
      grad_weight_tma_possible(p, dtype, input.data_ptr(), grad_output.data_ptr())) {
    const int64_t splits = grad_weight_tma_splits(p, sm_count, budget);
    const at::Tensor workspace = at::empty({splits * grad_weight.numel()}, acc_options);
    check_launch(grad_weight_tma(p, dtype, input.data_ptr(), grad_output.data_ptr(), grad_weight.data_ptr(),
                                 workspace.data_ptr<float>(), splits, stream),
                 "conv_transpose grad_weight (TMA, channels-last)");
    return;
  }
  if ((requested == "unit_stride_mma" ||
       (algorithm == "auto" &&
        unit_stride_mma_grad_weight_preferred(p, dtype, input.data_ptr(), grad_output.data_ptr()) &&
        !igemm_grad_weight_takes_channel_tiles(p, dtype, !allow_tf32, true, input.data_ptr(),
                                               grad_output.data_ptr()))) &&
      unit_stride_mma_grad_weight_possible(p, dtype, input.data_ptr(), grad_output.data_ptr())) {
    const at::Tensor workspace = at::empty(
        {unit_stride_mma_grad_weight_workspace_elems(p, dtype, input.data_ptr(), grad_output.data_ptr(), sm_count,
                                                     budget)},
        acc_options);
    check_launch(unit_stride_mma_grad_weight(p, dtype, input.data_ptr(), grad_output.data_ptr(), grad_weight.data_ptr(),
                                             workspace.data_ptr<float>(), sm_count, budget, stream),
                 "conv_transpose grad_weight (unit_stride_mma)");
    return;
  }
  if (use_grouped_mma_grad_weight(p, dtype, algorithm)) {
    const at::Tensor workspace =
        at::empty({grouped_mma_grad_weight_workspace_elems(p, dtype, sm_count, budget)}, acc_options);
    check_launch(grouped_mma_grad_weight(p, dtype, !allow_tf32, input.data_ptr(), grad_output.data_ptr(),
                                        grad_weight.data_ptr(), workspace.data_ptr<float>(), sm_count, budget, stream),
                 "conv_transpose grad_weight (grouped_mma)");
    return;
  }
  // The strip kernel where it can run: under "igemm_strip" wherever possible (it forces only grad_input's), under
  // "auto" where its grid is large enough (StripAutoRule).
  if ((algorithm == "igemm_strip" ||
       (algorithm == "auto" && strip_grad_weight_preferred(p, sm_count, budget))) &&
      strip_grad_weight_possible(p, dtype, !allow_tf32, input.data_ptr(), grad_output.data_ptr())) {
    const at::Tensor workspace = at::empty({strip_grad_weight_workspace_elems(p, sm_count, budget)}, acc_options);
    check_launch(strip_grad_weight(p, dtype, input.data_ptr(), grad_output.data_ptr(), grad_weight.data_ptr(),
                                   workspace.data_ptr<float>(), sm_count, budget, stream),
                 "conv_transpose grad_weight (igemm_strip)");
    return;
  }
  if (use_grad_weight_igemm(p, dtype, algorithm)) {
    const GatherOptions options = gather_options(algorithm);
    const int64_t workspace_elems =
        igemm_grad_weight_workspace_elems(p, dtype, !allow_tf32, options.allow_wgmma, options.fold, sm_count, budget,
                                          input.data_ptr(), grad_output.data_ptr());
    const at::Tensor workspace = at::empty({workspace_elems}, acc_options);
    check_launch(igemm_grad_weight(p, dtype, !allow_tf32, options.allow_wgmma, options.fold, input.data_ptr(),
                                   grad_output.data_ptr(), grad_weight.data_ptr(), workspace.data_ptr<float>(), sm_count,
                                   budget, stream),
                 "conv_transpose grad_weight (igemm)");
    return;
  }
  if (use_grouped_grad_weight(p, dtype, algorithm)) {
    const int64_t splits = grouped_grad_weight_splits(p, dtype, sm_count, budget);
    const at::Tensor workspace = at::empty({splits * grad_weight.numel()}, acc_options);
    check_launch(grouped_grad_weight(p, dtype, input.data_ptr(), grad_output.data_ptr(), grad_weight.data_ptr(),
                                     workspace.data_ptr(), sm_count, budget, stream),
                 "conv_transpose grad_weight (grouped)");
    return;
  }
  const int64_t splits = direct_grad_weight_splits(p, sm_count, budget);
  const at::Tensor workspace = at::empty({splits * grad_weight.numel()}, acc_options);
  check_launch(direct_grad_weight(p, dtype, input.data_ptr(), grad_output.data_ptr(), grad_weight.data_ptr(),
                                  workspace.data_ptr(), splits, stream),
               "conv_transpose grad_weight");
}

void grad_bias_out(const at::Tensor& grad_output, at::Tensor& grad_bias) {
  check_5d_cuda(grad_output, "grad_output", grad_output);
  TCONV_CHECK(grad_bias.is_cuda() && grad_bias.dim() == 1 && grad_bias.size(0) == grad_output.size(1) &&
                  grad_bias.scalar_type() == grad_output.scalar_type(),
              "tconv: grad_bias must be a 1-D tensor of ", grad_output.size(1), " elements like grad_output");
  ConvTransposeParams p;
  p.batch = grad_output.size(0);
  p.out_channels = grad_output.size(1);
  for (int i = 0; i < 3; ++i) p.out_size[i] = grad_output.size(2 + i);
  copy_strides(grad_output, p.output_strides);
  const c10::cuda::CUDAGuard guard(grad_output.device());
  bind_primary_context(grad_output.get_device());
  const DType dtype = to_dtype(grad_output);
  const int64_t splits = grad_bias_splits(p, sm_count_of(grad_output), workspace_budget_elems(grad_output, dtype));
  const at::Tensor workspace = at::empty({splits * p.out_channels},
                                         grad_output.options().dtype(dtype == DType::kFloat64 ? at::kDouble : at::kFloat));
  check_launch(tconv::grad_bias(p, dtype, grad_output.data_ptr(), grad_bias.data_ptr(), grad_bias.stride(0),
                         workspace.data_ptr(), splits, c10::cuda::getCurrentCUDAStream().stream()),
               "conv_transpose grad_bias");
}

// source (fp32, dense) read in memory order as [rows, inner]; out (fp32, dense, 3x its elements) written as
// [rows, 3, inner] in memory order (tconv/_exact_split.py arranges the layouts)
void tf32_split_out(const at::Tensor& source, at::Tensor& out, int64_t rows, int64_t inner, int64_t small_copies) {
  TCONV_CHECK(source.is_cuda() && out.is_cuda() && source.scalar_type() == at::kFloat &&
                  out.scalar_type() == at::kFloat && source.get_device() == out.get_device(),
              "tconv: tf32_split takes fp32 CUDA tensors on one device");
  TCONV_CHECK(source.is_non_overlapping_and_dense() && out.is_non_overlapping_and_dense() && rows >= 0 &&
                  inner >= 0 && source.numel() == rows * inner && out.numel() == 3 * rows * inner &&
                  small_copies >= 0 && small_copies < 8,
              "tconv: tf32_split needs dense tensors of rows x inner and 3 x rows x inner elements, got ",
              source.numel(), " and ", out.numel(), " for rows ", rows, ", inner ", inner);
  const c10::cuda::CUDAGuard guard(source.device());
  check_launch(tconv::tf32_split(source.data_ptr<float>(), out.data_ptr<float>(), rows, inner,
                                 static_cast<int>(small_copies), c10::cuda::getCurrentCUDAStream().stream()),
               "tf32_split");
}

namespace {

// [N, C, *spatial] as [N, C, D, H, W] (leading spatial dims of size 1; no copy), as tconv/_ops.py's _as_5d.
at::Tensor as_5d(const at::Tensor& t) {
  if (t.dim() == 4) return t.unsqueeze(2);
  if (t.dim() == 3) return t.unsqueeze(2).unsqueeze(2);
  return t;
}

// The memory format tconv gives results derived from t, as tconv/_args.py's memory_format_of: contiguous where t is,
// channels-last where t is densely so or, not dense, ordered so (the one-residue backward's view of a channels-last
// grad_output gives a channels-last grad_input).
at::MemoryFormat result_format(const at::Tensor& t) {
  if ((t.dim() != 4 && t.dim() != 5) || t.is_contiguous()) return at::MemoryFormat::Contiguous;
  const at::MemoryFormat channels_last =
      t.dim() == 4 ? at::MemoryFormat::ChannelsLast : at::MemoryFormat::ChannelsLast3d;
  return t.is_contiguous(channels_last) || ordered_channels_last(t.sizes().data(), t.strides().data(), t.dim())
             ? channels_last
             : at::MemoryFormat::Contiguous;
}

// One side stream per device for the backward's grad_weight, taken from torch's pool once (as the Python path's
// torch.cuda.Stream per device).
c10::cuda::CUDAStream backward_side_stream(c10::DeviceIndex device) {
  static std::mutex mutex;
  static std::unordered_map<c10::DeviceIndex, c10::cuda::CUDAStream> streams;
  const std::lock_guard<std::mutex> lock(mutex);
  auto found = streams.find(device);
  if (found == streams.end()) found = streams.emplace(device, c10::cuda::getStreamFromPool(false, device)).first;
  return found->second;
}

// One ordering point between two streams: `waiter` runs nothing queued after this call before `source` has run
// everything queued on it so far. (ATen's CUDAEvent header pulls in cuSPARSE's, which the CI's toolkit lacks.)
void stream_waits_for(const c10::cuda::CUDAStream& waiter, const c10::cuda::CUDAStream& source) {
  cudaEvent_t event;
  cudaError_t err = cudaEventCreateWithFlags(&event, cudaEventDisableTiming);
  TCONV_CHECK(err == cudaSuccess, "tconv: cudaEventCreateWithFlags failed: ", cudaGetErrorString(err));
  err = cudaEventRecord(event, source.stream());
  if (err == cudaSuccess) err = cudaStreamWaitEvent(waiter.stream(), event, 0);
  const cudaError_t destroyed = cudaEventDestroy(event);  // released once the wait is satisfied
  TCONV_CHECK(err == cudaSuccess && destroyed == cudaSuccess, "tconv: ordering the backward's streams failed: ",
              cudaGetErrorString(err != cudaSuccess ? err : destroyed));
}

// TCONV_GRAD_BIAS_BESIDE_WEIGHT=1 (development, read once per process; default 0 until measured): where the passes
// run one after the other, grad_bias on the side stream beside grad_weight. Why: grad_bias streams grad_output from
// DRAM (VAE: 268 MB in 0.069 ms of its 0.65 ms of kernels, run 488) while the TMA grad_weight leaves DRAM mostly idle
// and room on each SM for grad_bias's blocks beside its own (one block of 384 threads and ~193 KB a SM).
bool grad_bias_beside_weight() {
  static const bool enabled = [] {
    const char* value = std::getenv("TCONV_GRAD_BIAS_BESIDE_WEIGHT");
    return value != nullptr && std::atoi(value) != 0;
  }();
  return enabled;
}

// Whether `stream` is being captured into a CUDA graph (the Python path runs no side stream then either).
bool capturing(const c10::cuda::CUDAStream& stream) {
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  const cudaError_t err = cudaStreamIsCapturing(stream.stream(), &status);
  TCONV_CHECK(err == cudaSuccess, "tconv: cudaStreamIsCapturing failed: ", cudaGetErrorString(err));
  return status != cudaStreamCaptureStatusNone;
}

}  // namespace

// The backward's three passes under "auto" in one call, for tconv/_ops.py's native backward: the gradients a
// signature's first backward (the Python path) showed to be plain "auto" calls (grad_input not split by phases),
// with the same kernels, so the same results bit for bit. Why: the Python glue of three passes (wrappers,
// allocations, views, the side stream's events) cost more host time than their kernels on the sub-millisecond rows
// (run 491, H200, channels-last bf16 fwd+bwd: DCGAN 0.88 ms of host against 0.41 of GPU, U-Net 3D 0.84 against 0.40).
// concurrent: grad_weight and grad_bias on a side stream beside grad_input, ordered as the Python path's
// _concurrent_backward (the side stream waits for the current one before any work; the current one waits for it
// before returning; their results are recorded on the current stream). Undefined tensors (None) where not needed.
std::tuple<at::Tensor, at::Tensor, at::Tensor> backward(const at::Tensor& grad_output, const at::Tensor& input,
                                                        const at::Tensor& weight, bool need_input, bool need_weight,
                                                        bool need_bias, at::IntArrayRef stride,
                                                        at::IntArrayRef padding, at::IntArrayRef dilation,
                                                        int64_t groups, bool allow_tf32, bool concurrent) {
  TCONV_CHECK(grad_output.is_cuda() && input.is_cuda() && weight.is_cuda(), "tconv: backward takes CUDA tensors");
  const c10::cuda::CUDAGuard guard(grad_output.device());
  bind_primary_context(grad_output.get_device());
  const at::Tensor grad_output5 = as_5d(grad_output), input5 = as_5d(input), weight5 = as_5d(weight);
  at::Tensor grad_input, grad_weight, grad_bias;
  const auto weight_pass = [&]() {
    if (!need_weight) return;
    grad_weight = at::empty(weight.sizes(), grad_output.options());
    at::Tensor grad_weight5 = as_5d(grad_weight);
    grad_weight_out(grad_output5, input5, grad_weight5, stride, padding, dilation, groups, allow_tf32, "auto");
  };
  const auto bias_pass = [&]() {
    if (!need_bias) return;
    grad_bias = at::empty({grad_output.size(1)}, grad_output.options());
    grad_bias_out(grad_output5, grad_bias);
  };
  const auto weight_side = [&]() {
    weight_pass();
    bias_pass();
  };
  const auto input_side = [&]() {
    if (!need_input) return;
    grad_input = at::empty(input.sizes(), grad_output.options().memory_format(result_format(grad_output)));
    at::Tensor grad_input5 = as_5d(grad_input);
    grad_input_out(grad_output5, weight5, grad_input5, stride, padding, dilation, groups, allow_tf32, "auto");
  };
  const c10::cuda::CUDAStream current = c10::cuda::getCurrentCUDAStream();
  // side_work on the side stream beside current_work: the side stream waits for what is queued so far (so for none
  // of current_work), the current one for the side's work before returning, and the side's results are recorded on
  // the current stream (the allocator then keeps their memory from side-stream reuse while the caller reads them).
  const auto beside = [&](const auto& side_work, const auto& current_work, std::initializer_list<at::Tensor*> results) {
    const c10::cuda::CUDAStream side = backward_side_stream(grad_output.device().index());
    stream_waits_for(side, current);
    {
      const c10::cuda::CUDAStreamGuard on_side(side);
      side_work();
    }
    current_work();
    stream_waits_for(current, side);
    for (const at::Tensor* t : results)
      if (t->defined()) t->record_stream(current);
  };
  if (concurrent && need_input && (need_weight || need_bias)) {
    beside(weight_side, input_side, {&grad_weight, &grad_bias});
  } else {
    input_side();
    if (need_weight && need_bias && grad_bias_beside_weight() && !capturing(current))
      beside(bias_pass, weight_pass, {&grad_bias});  // after grad_input: beside grad_weight only
    else
      weight_side();
  }
  return std::make_tuple(grad_input, grad_weight, grad_bias);
}

}  // namespace tconv

namespace tconv { void bind_group_norm_act(pybind11::module_& m); }

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.doc() = "tconv CUDA kernels (transposed convolution). Use tconv's Python API, not this module.";
  m.def("forward_out", &tconv::forward_out, "conv_transpose forward into a preallocated 5-D output");
  m.def("forward_group_stats_out", &tconv::forward_group_stats_out,
        "conv_transpose forward that also makes act(output)'s GroupNorm statistics where the unit-stride form runs");
  m.def("grad_input_out", &tconv::grad_input_out, "conv_transpose grad_input into a preallocated 5-D tensor");
  m.def("grad_input_strip_possible", &tconv::grad_input_strip_possible,
        "whether grad_input_out runs this call on the strip kernel under \"auto\"");
  m.def("grad_input_persistent", &tconv::grad_input_persistent,
        "whether grad_input_out runs this call on a persistent grid (SM-count blocks)");
  m.def("grad_weight_out", &tconv::grad_weight_out, "conv_transpose grad_weight into a preallocated 5-D tensor");
  m.def("grad_bias_out", &tconv::grad_bias_out, "conv_transpose grad_bias into a preallocated 1-D tensor");
  m.def("tf32_split_out", &tconv::tf32_split_out, "fp32 split into TF32 big and small parts, three copies");
  m.def("backward", &tconv::backward, "conv_transpose's needed gradients under \"auto\" in one call");
  m.def("compiled_arch_list", &tconv::compiled_arch_list, "architectures the CUDA sources were compiled for");
  m.def("kernel_binary_version", &tconv::kernel_binary_version, "SASS version the driver picked on a device");
  tconv::bind_group_norm_act(m);
}
