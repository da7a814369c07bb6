// Launchers of tconv's transposed-convolution kernels. Torch-free on purpose: the CUDA sources
// compile (and are compile-checked in CI) without PyTorch headers, which keeps builds fast.
// Every launcher returns the cudaError_t of its launches; the caller turns it into an exception.
#pragma once
#include <cuda_runtime.h>
#include <cstdint>
#include <string>
#include "conv_params.h"

namespace tconv {

// Where the kernels iterate: output elements in memory order, so stores coalesce for both
// NC(D)HW (width innermost) and channels_last (channels innermost) tensors.
enum class Order : int { kWidthInnermost = 0, kChannelsInnermost = 1 };

// ---- direct (gather) kernels: correct for every parameter combination; the reference path ----
cudaError_t direct_forward(const ConvTransposeParams& p, DType dtype, const void* input,
                           const void* weight, const void* bias, void* output, Order order,
                           int sm_count, cudaStream_t stream);

// p.input_strides describe grad_input, p.output_strides grad_output.
cudaError_t direct_grad_input(const ConvTransposeParams& p, DType dtype, const void* grad_output,
                              const void* weight, void* grad_input, Order order, int sm_count,
                              cudaStream_t stream);

// Split-K over batch x input positions: each split writes fp32 (fp64 for double) partial sums to
// `workspace` [splits][weight numel]; a second kernel sums splits in a fixed order, so the result
// is deterministic. p.weight_strides describe grad_weight.
int64_t direct_grad_weight_splits(const ConvTransposeParams& p, int sm_count,
                                  int64_t max_workspace_elems);
cudaError_t direct_grad_weight(const ConvTransposeParams& p, DType dtype, const void* input,
                               const void* grad_output, void* grad_weight, void* workspace,
                               int64_t splits, cudaStream_t stream);

// Same split/deterministic-sum scheme over batch x output positions per channel.
int64_t grad_bias_splits(const ConvTransposeParams& p, int sm_count, int64_t max_workspace_elems);
cudaError_t grad_bias(const ConvTransposeParams& p, DType dtype, const void* grad_output,
                      void* grad_bias, int64_t grad_bias_stride, void* workspace, int64_t splits,
                      cudaStream_t stream);

// ---- tensor-core implicit GEMM (TF32 mma.sync, or wgmma on sm_90a) for the gather passes ----
// fp32 data: TF32, or 3xTF32 when split_tf32 (exact-fp32 mode). fp16/bf16 data: native k16 MMAs on
// channel pairs with fp32 accumulation, so the products are exact and sums are fp32 (split_tf32 is
// ignored).
// GatherOptions.allow_wgmma: TF32 and fp16/bf16 work runs on the Hopper wgmma kernels where the device and build have
// them; false keeps every call on the mma.sync kernels (the sm_80 path; tests and A/B timings).
// GatherOptions.window: the W-tap window (one A tile per (D, H) tap and channel chunk, shared by the W
// taps at shifts; conv_transpose_igemm.cu): kAuto takes it where it saves copies at little waste,
// kForce wherever it is possible, kOff never (tests and A/B timings).
enum class GatherPass : int { kForward = 0, kGradInput = 1 };
enum class GatherWindow : int { kAuto = 0, kForce = 1, kOff = 2 };
// GatherOptions.fold: the forward's W fold (conv_transpose_igemm.cu, fold_w: the W phases as GEMM columns,
// the pixel shuffle in the store): kAuto where the tap grid has no zero slots and W is contiguous, kForce
// wherever it is possible, kOff never (tests and A/B timings).
enum class GatherFold : int { kAuto = 0, kForce = 1, kOff = 2 };
// GatherOptions.tma: the TMA gather (conv_transpose_igemm_tma.cu: the source copied once to channels-last, each
// stage's A tile one TMA box, both wgmma operands from shared memory): kAuto where it is possible and planned,
// kForce wherever it is possible, kOff never (the algorithms that name another gather form, and A/B timings);
// kForceWindow as kForce, with the W-tap window (TmaWindowTileOf) where it applies.
// kAutoWindow: "auto"'s own choice of the W-tap window (TmaWindowAutoRule), held to the copy budget's rules as kAuto
// is; kAuto also takes the direct form (the per-tap boxes of the source itself, no copy) where the budget refuses the
// copy and its boxes are one row per channel; kForce, kForceWindow and kForceDirect ("igemm_tma", "igemm_tma_window",
// "igemm_tma_direct") run wherever they can.
enum class GatherTma : int { kAuto = 0, kForce = 1, kOff = 2, kForceWindow = 3, kAutoWindow = 4, kForceDirect = 5 };
struct GatherOptions {
  bool allow_wgmma = true;
  GatherWindow window = GatherWindow::kAuto;
  GatherFold fold = GatherFold::kAuto;
  GatherTma tma = GatherTma::kAuto;
  // Whether the pass's source (forward: input; grad_input: grad_output) starts on a 16-byte address: a 16-bit source
  // already channels-last is then mapped by the TMA gather as it is, with no copy (plan_tma_gather).
  bool source_16_byte_aligned = false;
};
bool igemm_supported(const ConvTransposeParams& p, GatherPass pass);
bool igemm_dtype_supported(DType dtype);  // fp32, fp16, bf16
// Elements of the packed-weight workspace (fp32; the GEMM's B operand, rebuilt on every call).
// (The chosen kernel's packed column blocks are 32 to 128 wide; the size follows the same choice as
// igemm_gather with the same arguments on the current device.)
int64_t igemm_packed_weight_elems(const ConvTransposeParams& p, GatherPass pass, DType dtype, bool split_tf32,
                                  const GatherOptions& options);
// forward: src = input, dst = output (bias added); grad_input: src = grad_output, dst = grad_input.
// src, weight, bias and dst are of `dtype`.
cudaError_t igemm_gather(const ConvTransposeParams& p, GatherPass pass, DType dtype, bool split_tf32,
                         const GatherOptions& options, const void* src, const void* weight, const void* bias,
                         void* dst, float* packed_weight, cudaStream_t stream);
// The TMA gather (conv_transpose_igemm_tma.cu), which igemm_gather runs where this returns > 0: the elements of its
// fp32 workspace (the packed weights, then the channels-last copy of src: TF32-rounded fp32, or fp16/bf16 values;
// none where a 16-bit src is channels-last already); 0 where it does not run.
int64_t gather_tma_workspace_elems(const ConvTransposeParams& p, GatherPass pass, DType dtype, bool split_tf32,
                                   const GatherOptions& options);
cudaError_t gather_tma(const ConvTransposeParams& p, GatherPass pass, DType dtype, const GatherOptions& options,
                       const void* src, const void* weight, const void* bias, void* dst, float* workspace,
                       cudaStream_t stream);
// Whether igemm_gather launches this call on a persistent grid (the TMA gather's persistent per-tap or window kernel:
// blocks that fill every SM and loop over tiles), dst its destination.
bool gather_tma_persistent(const ConvTransposeParams& p, GatherPass pass, DType dtype, bool split_tf32,
                           const GatherOptions& options, const void* dst);
// Whether "auto" runs this pass on the TMA window with `options` (tma GatherTma::kAutoWindow, and the source's
// alignment): fp32 forwards by igemm_config.h's TmaWindowAutoRule (within the copy budget), 16-bit sources read in
// place by TmaWindow16BitAutoRule (forward and grad_input); TCONV_TMA_WINDOW_AUTO=0 (development) turns both off.
bool gather_tma_window_preferred(const ConvTransposeParams& p, GatherPass pass, DType dtype, bool split_tf32,
                                 const GatherOptions& options);

// grad_input over grad_output strips (sm_90a, fp32 data in TF32 mode or fp16/bf16 data on k16 MMAs; StripGradInputTile
// in igemm_config.h): 1D lines (kernel 1, stride 1, padding 0 along D and H), groups 1,
// W dilation 1, a W stride s that is a multiple of 8 and a W kernel of T whole strides with T s dividing 32, padding
// and W_out multiples of 4, grad_output W-contiguous with rows 16-byte aligned (grad_input: any strides). Workspace:
// strip_packed_weight_elems fp32 words (the weights in the kernel's order; 16-bit ones two to a word).
bool strip_grad_input_possible(const ConvTransposeParams& p, DType dtype, bool split_tf32, const void* grad_output,
                               const void* grad_input);
int64_t strip_packed_weight_elems(const ConvTransposeParams& p, DType dtype);
cudaError_t strip_grad_input(const ConvTransposeParams& p, DType dtype, const void* grad_output, const void* weight,
                             void* grad_input, float* packed_weight, cudaStream_t stream);
// grad_input at unit stride as the unit-stride forward of grad_output (flipped weights, channels swapped, padding
// dil (k - 1) - p): the unit-stride forward's conditions on that call, groups 1 and output_padding 0. "auto" takes it
// where strip_forward_preferred would take that forward. Workspace: unit_stride_grad_input_packed_elems fp32.
bool unit_stride_grad_input_possible(const ConvTransposeParams& p, DType dtype, bool split_tf32);
bool unit_stride_grad_input_preferred(const ConvTransposeParams& p, DType dtype, int sm_count);
int64_t unit_stride_grad_input_packed_elems(const ConvTransposeParams& p, DType dtype);
cudaError_t unit_stride_grad_input(const ConvTransposeParams& p, DType dtype, const void* grad_output,
                                   const void* weight, void* grad_input, float* packed_weight, cudaStream_t stream);
// grad_weight on the same strips (StripGradWeightTile): the grad_input conditions, with the input W-contiguous, W_in
// a multiple of 4, rows 16-byte aligned and fewer than 2^31 chunks of 16 positions; fp16/bf16 data too, under the same
// conditions in elements (k16 MMAs on the values as they are, as grad_input's strip kernel). Workspace:
// strip_grad_weight_workspace_elems fp32 (split partial sums within max_workspace_elems, at least one weight's
// worth), summed in a fixed order.
bool strip_grad_weight_possible(const ConvTransposeParams& p, DType dtype, bool split_tf32, const void* input,
                                const void* grad_output);
int64_t strip_grad_weight_workspace_elems(const ConvTransposeParams& p, int sm_count, int64_t max_workspace_elems);
cudaError_t strip_grad_weight(const ConvTransposeParams& p, DType dtype, const void* input, const void* grad_output,
                              void* grad_weight, float* workspace, int sm_count, int64_t max_workspace_elems,
                              cudaStream_t stream);

// The forward over x strips (sm_90a, groups 1; input, output and weight of any strides), in two forms. The 1D form
// (the same tile as grad_input's; fp32 in TF32 mode, fp16/bf16 on k16 MMAs): 1D lines, W dilation 1, a W kernel of T = 1, 2 or 4 whole
// strides (any stride, padding and output_padding); "auto" takes it at a W stride that is a multiple of 8 (the strip
// kernels' family) on a grid of StripAutoRule::forward_min_blocks. The unit-stride form (StripUnitStrideForwardTile;
// fp32 in TF32 mode on TF32 MMAs, fp16 or bf16 in either mode on k16 MMAs): stride 1 in every
// dimension, W dilation 1, a W kernel of 3, 5 or 7 taps, any D/H kernel, dilation and padding;
// "auto" takes it on W-contiguous tensors with a K loop of at least StripAutoRule::unit_stride_forward_min_k and the
// same grid bound (fp16/bf16 data: their own least K).
// Workspace: strip_forward_packed_weight_elems fp32.
bool strip_forward_possible(const ConvTransposeParams& p, DType dtype, bool split_tf32);
bool strip_forward_preferred(const ConvTransposeParams& p, DType dtype, int sm_count);
// "auto" takes the grad_weight strip kernel where possible and its grid has at least
// StripAutoRule::grad_weight_min_blocks (igemm_config.h, with the measurements); grad_input's wherever possible.
bool strip_grad_weight_preferred(const ConvTransposeParams& p, int sm_count, int64_t max_workspace_elems);
int64_t strip_forward_packed_weight_elems(const ConvTransposeParams& p, DType dtype);
// GroupNorm statistics of act(y) made in the unit-stride form's store (its 128-channel wide-rows tiles: C_out above
// 64; a kernel instantiation of its own), for the fused conv -> activation -> GroupNorm (group_norm_act.h:
// GroupPartials): each warp writes one Welford partial per (sample, group) it holds. Possible where a group's
// channels are whole 8-channel runs that divide the C_out tile or that the tile divides, and one sample has at least
// a block's rows (unit_stride_group_stats_possible), for every activation (unit_stride_group_stats_activation). The
// partials buffer (unit_stride_group_stats_partials fp32, splits = unit_stride_group_stats_splits) must
// be zeroed first.
struct ForwardGroupStats {
  float* partials = nullptr;
  int64_t groups = 1, splits = 0;
  int activation = 0;  // group_norm_act.h: Activation
  float act_arg0 = 0.f, act_arg1 = 0.f;
};
bool unit_stride_group_stats_possible(const ConvTransposeParams& p, DType dtype, int64_t groups);
bool unit_stride_group_stats_activation(int activation);  // group_norm_act.h: Activation
int64_t unit_stride_group_stats_splits(const ConvTransposeParams& p, DType dtype, int64_t groups);
int64_t unit_stride_group_stats_partials(const ConvTransposeParams& p, DType dtype, int64_t groups);
cudaError_t strip_forward(const ConvTransposeParams& p, DType dtype, const void* input, const void* weight,
                          const void* bias, void* output, float* packed_weight, cudaStream_t stream,
                          const ForwardGroupStats* stats = nullptr);

// The unit-stride forward on mma.sync for few channels (conv_transpose_unit_stride_mma.cu, UnitStrideMmaTile;
// compute capability 8.0+): fp32 in TF32 mode, fp16 or bf16; groups 1, stride 1, kernel D 1 without D padding, C_in a
// multiple of 32 (16 in TF32), any C_out, H/W kernels, dilation and padding; input and output W-contiguous, the
// input's rows 4-byte aligned (16-byte aligned rows take 16-byte copies), or (16-bit) input and output channels
// innermost with every input position's channels 16-byte aligned; the window, the C_out tile's weights and
// the staging fit the device's shared memory. Workspace: one int32 tile counter, which the launch zeroes on the
// stream (dynamic tiles, the default: unit_stride_mma_dynamic_tiles; null, or TCONV_UNIT_STRIDE_MMA_DYNAMIC_TILES=0
// in development, gives the static shares). grad_input at unit stride runs as that forward of grad_output
// (conv_params.h: unit_stride_grad_input_as_forward). "auto" takes them where UnitStrideMmaAutoRule says.
bool unit_stride_mma_forward_possible(const ConvTransposeParams& p, DType dtype, bool split_tf32, const void* input,
                                      const void* output);
bool unit_stride_mma_forward_preferred(const ConvTransposeParams& p, DType dtype);
bool unit_stride_mma_dynamic_tiles();
cudaError_t unit_stride_mma_forward(const ConvTransposeParams& p, DType dtype, bool split_tf32, const void* input,
                                    const void* weight, const void* bias, void* output, int* tile_counter,
                                    int sm_count, cudaStream_t stream);
bool unit_stride_mma_grad_input_possible(const ConvTransposeParams& p, DType dtype, bool split_tf32,
                                         const void* grad_output, const void* grad_input);
bool unit_stride_mma_grad_input_preferred(const ConvTransposeParams& p, DType dtype);
cudaError_t unit_stride_mma_grad_input(const ConvTransposeParams& p, DType dtype, bool split_tf32,
                                       const void* grad_output, const void* weight, void* grad_input,
                                       int* tile_counter, int sm_count, cudaStream_t stream);
// grad_weight at unit stride on mma.sync (16-bit data; UnitStrideMmaGradWeightTile): the forward's tile conditions on
// the input, grad_output W-contiguous with rows 4-byte aligned, at most 28 taps. Workspace:
// unit_stride_mma_grad_weight_workspace_elems fp32 (split partial sums within max_workspace_elems, at least one
// weight's worth). p.weight_strides describe grad_weight.
bool unit_stride_mma_grad_weight_possible(const ConvTransposeParams& p, DType dtype, const void* input,
                                          const void* grad_output);
// "auto": the mma.sync kernel's rule, or (Hopper) the wgmma form's up to 128 channels a side where that form can run
bool unit_stride_mma_grad_weight_preferred(const ConvTransposeParams& p, DType dtype, const void* input,
                                           const void* grad_output);
int64_t unit_stride_mma_grad_weight_workspace_elems(const ConvTransposeParams& p, DType dtype, const void* input,
                                                    const void* grad_output, int sm_count,
                                                    int64_t max_workspace_elems);
cudaError_t unit_stride_mma_grad_weight(const ConvTransposeParams& p, DType dtype, const void* input,
                                        const void* grad_output, void* grad_weight, float* workspace, int sm_count,
                                        int64_t max_workspace_elems, cudaStream_t stream);

// grad_weight as a split-K implicit GEMM per (group, kD x kH tap, W tap group); workspace:
// igemm_grad_weight_workspace_elems fp32. fp32 (TF32 or 3xTF32), fp16 and bf16 (widened, exact products).
bool igemm_grad_weight_supported(const ConvTransposeParams& p);
bool igemm_grad_weight_preferred(const ConvTransposeParams& p);  // the "auto" heuristic
// Whether igemm_grad_weight runs this call on the shifted-x kernel's channel-tile form (one (kd, kh) row, > 64
// output channels per group): "auto" then keeps 16-bit data off the unit-stride grad_weight (run 447, fam04 bf16).
bool igemm_grad_weight_takes_channel_tiles(const ConvTransposeParams& p, DType dtype, bool split_tf32, bool allow_wgmma,
                                           const void* input, const void* grad_output);
// fold: the W fold of the forward seen from the weights (conv_transpose_igemm.cu, grad_weight_fold_shape):
// kAuto and kForce take it wherever it is possible, kOff never; the splits follow the same choice.
// allow_wgmma as for igemm_grad_weight: the kernel's occupancy sizes the splits (balance_grad_weight_splits).
// The fp32 workspace igemm_grad_weight needs: splits x weight numel, or for ordered split-K (where the workspace
// cap would leave too few splits) one weight's worth plus a counter per tile.
// input / grad_output: the tensors of the launch (the kernel choice depends on their alignment).
int64_t igemm_grad_weight_workspace_elems(const ConvTransposeParams& p, DType dtype, bool split_tf32,
                                          bool allow_wgmma, GatherFold fold, int sm_count,
                                          int64_t max_workspace_elems, const void* input, const void* grad_output);
// allow_wgmma: TF32-mode work (fp16/bf16 too) runs on the Hopper wgmma kernel where the device and
// build have it (as for igemm_gather).
cudaError_t igemm_grad_weight(const ConvTransposeParams& p, DType dtype, bool split_tf32, bool allow_wgmma,
                              GatherFold fold, const void* input, const void* grad_output, void* grad_weight,
                              float* workspace, int sm_count, int64_t max_workspace_elems, cudaStream_t stream);

// ---- register-blocked direct kernels for few channels per group (conv_transpose_grouped.cu) ----
// Channels per group up to 16 on both sides (templated, rounded up to a power of two).
constexpr int64_t kGroupedMaxChannels = 16;
// The group's weights live in shared memory as accumulator values; without an opt-in a block gets
// 48 KiB, which holds 8x8 channels x 105 taps in fp32 (L1-72's 3x5x7 kernel).
constexpr int64_t kGroupedMaxSharedBytes = 48 * 1024;
// "auto" takes the grouped kernels when C_in/g * C_out/g is at most this: where the tensor-core
// tiles are mostly padding (16x8 MMA fragments, 32/64-wide N tile). Run 10 (H200) at 8 x 8: L1-73
// forward 6.5 -> 1.42 ms, L1-72 1.95 -> 0.53 ms against the GEMM/direct kernels. Run 34 (H200, TF32,
// tconv's autotune, same tensors): fam09's 8 x 16 per group, forward 1.66 ms grouped vs 1.99 GEMM,
// grad_input 0.50 vs 0.92, hence 128. Products between 128 and 256 (e.g. 16 x 16) are unmeasured.
constexpr int64_t kGroupedPreferredMaxChannelProduct = 128;
bool grouped_supported(const ConvTransposeParams& p, DType dtype);
// Every tensor's reachable offsets and element counts below 2^31 (both grouped kernels index in 32 bits).
bool grouped_offsets_fit(const ConvTransposeParams& p);
bool grouped_preferred(const ConvTransposeParams& p);  // the "auto" heuristic (channel product)
cudaError_t grouped_forward(const ConvTransposeParams& p, DType dtype, const void* input, const void* weight,
                            const void* bias, void* output, int sm_count, cudaStream_t stream);
// The same forward kernel for more channels (groups 1): up to kGroupedTiledMaxInChannels input channels and the output
// channels in tiles of kGroupedTileOutChannels, one launch per tile, the tile's weights (taps x 32 x 16) in shared
// memory. For calls of tiny K (input channels x an output's taps), whose GEMM forms are store-bound: fam13's TF32
// forward (K 32, 831 MB written) ran 0.80 ms on the wgmma gather and 0.66 on the mma.sync one (run 374), both writing
// at a quarter of the write floor's pace (run 375, ncu: one or two blocks per SM, the epilogue's latency exposed).
// Measured in run 376 (H200, forward alone, TF32 / bf16 ms) and slower than the GEMM forms everywhere: fam13 1.516 /
// 0.992 against 0.801 / 0.708 under "auto", k2 s2 at 16-32 input channels 1.5-2.8x, k4 s2 and k3 s2 d2 at 32 3-4x.
// So only "grouped_tiled" runs it (a second kernel form for the tests to check the GEMMs' results against).
constexpr int64_t kGroupedTiledMaxInChannels = 32;
constexpr int kGroupedTileOutChannels = 16;
bool grouped_tiled_forward_supported(const ConvTransposeParams& p, DType dtype);
cudaError_t grouped_tiled_forward(const ConvTransposeParams& p, DType dtype, const void* input, const void* weight,
                                  const void* bias, void* output, int sm_count, cudaStream_t stream);
// p.input_strides describe grad_input, p.output_strides grad_output.
cudaError_t grouped_grad_input(const ConvTransposeParams& p, DType dtype, const void* grad_output,
                               const void* weight, void* grad_input, int sm_count, cudaStream_t stream);
// Tensor-core forward and grad_input for the same channel counts (conv_transpose_grouped_mma.cu): TF32
// m16n8k8 MMAs on the group's (<= 16) x (<= 16) channel block per tap, 3xTF32 when split_tf32, fp16/bf16
// widened exactly; no fp64. "auto" takes them only where grouped_mma_preferred says they measured faster
// than the FFMA kernels (forwards: fp32 data with 9-16 output channels per group; the lines form for 16-bit
// data, TF32, and 3xTF32 with many taps per output; grad_input: the lines form for 16-bit data with many taps per
// output); elsewhere they run when forced ("grouped_mma") or picked by tconv's autotune.
// The group's weights (channels padded to 8 or 16, fp32) plus four warps' C tiles (dst channels x
// (stage_w + 4) floats; stage_w <= 128 up to W stride 8, 16 x stride above) fit in kGroupedMaxSharedBytes.
// Blocks per SM the row split aims for: each block stages the group's weights once, then its warps run
// independently, so blocks only need to be many enough for a short tail (L1-72: 27 KiB of weights per
// block against 18 rows of 96 x 8 fp32 outputs, 54 KiB). First guess, not measured.
constexpr int64_t kGroupedMmaBlocksPerSm = 16;
bool grouped_mma_supported(const ConvTransposeParams& p, DType dtype, GatherPass pass);
// The "auto" heuristic; split_tf32: the call runs 3xTF32 (TF32 off).
bool grouped_mma_preferred(const ConvTransposeParams& p, DType dtype, GatherPass pass, bool split_tf32);
cudaError_t grouped_mma_forward(const ConvTransposeParams& p, DType dtype, bool split_tf32, const void* input,
                                const void* weight, const void* bias, void* output, int sm_count, cudaStream_t stream);
// p.input_strides describe grad_input, p.output_strides grad_output.
cudaError_t grouped_mma_grad_input(const ConvTransposeParams& p, DType dtype, bool split_tf32, const void* grad_output,
                                   const void* weight, void* grad_input, int sm_count, cudaStream_t stream);
// grad_weight on tensor cores (conv_transpose_grouped_mma.cu): grad_output rows and the input lines they read
// staged in shared memory, split-K over blocks into `workspace` [splits][weight numel] fp32
// (grouped_mma_grad_weight_workspace_elems, within max_workspace_elems where it allows one split per block),
// summed in a fixed order (deterministic). fp32 (TF32 or 3xTF32), fp16 and bf16 (widened, exact products).
bool grouped_mma_grad_weight_supported(const ConvTransposeParams& p, DType dtype);
bool grouped_mma_grad_weight_preferred(const ConvTransposeParams& p, DType dtype);  // "auto", every precision mode
int64_t grouped_mma_grad_weight_workspace_elems(const ConvTransposeParams& p, DType dtype, int sm_count,
                                                int64_t max_workspace_elems);
cudaError_t grouped_mma_grad_weight(const ConvTransposeParams& p, DType dtype, bool split_tf32, const void* input,
                                    const void* grad_output, void* grad_weight, float* workspace, int sm_count,
                                    int64_t max_workspace_elems, cudaStream_t stream);
// grad_weight: stages of input positions (x and the grad_output box their taps reach) in shared
// memory, split-K over stages into `workspace` [splits][weight numel] (accumulator type), summed in a
// fixed order (deterministic). Supports the grouped_supported shapes whose smallest stage (one input
// position: CO x kD x ((kH-1)*d_h+1) x ((kW-1)*d_w+1) grad_output values) fits in
// kGroupedMaxSharedBytes. p.weight_strides describe grad_weight.
bool grouped_grad_weight_supported(const ConvTransposeParams& p, DType dtype);
int64_t grouped_grad_weight_splits(const ConvTransposeParams& p, DType dtype, int sm_count,
                                   int64_t max_workspace_elems);
cudaError_t grouped_grad_weight(const ConvTransposeParams& p, DType dtype, const void* input, const void* grad_output,
                                void* grad_weight, void* workspace, int sm_count, int64_t max_workspace_elems,
                                cudaStream_t stream);

// grad_weight of fp16/bf16 data whose input and grad_output are both channels-last (conv_transpose_igemm_tma.cu,
// sm_90a, TMA boxes of 64 channels x 64 positions, k16 wgmmas on transposed operands; groups 1, or 64-channel
// multiples per group on both sides; strides <= 4 where a box spans 64 positions of a dimension). "auto" takes it
// where both sides have at least kGradWeightTmaMinChannels channels per group (igemm_config.h: why) and the window
// grad_weight below cannot run, unless TCONV_GRAD_WEIGHT_TMA=0 (grad_weight_tma_preferred; run 454: DCGAN bf16
// fwd+bwd 1.313 -> 0.894 ms).
// Workspace: splits x grad_weight's elements (fp32 partial sums, added by sum_splits).
bool grad_weight_tma_possible(const ConvTransposeParams& p, DType dtype, const void* input, const void* grad_output);
bool grad_weight_tma_preferred(const ConvTransposeParams& p);
int64_t grad_weight_tma_splits(const ConvTransposeParams& p, int sm_count, int64_t max_workspace_elems);
cudaError_t grad_weight_tma(const ConvTransposeParams& p, DType dtype, const void* input, const void* grad_output,
                            void* grad_weight, float* workspace, int64_t splits, cudaStream_t stream);
// grad_weight of fp16/bf16 data whose input and grad_output are both channels-last, at most 64 channels per group a
// side and W stride 1 (conv_transpose_igemm_tma.cu, sm_90a; igemm_config.h: WindowWeightGradTile): one stage per
// input line segment feeds every tap. "auto" takes it wherever it can run, before the per-tap kernel above
// (TCONV_GRAD_WEIGHT_WINDOW: 0 never, 1 only where that one is not preferred). Workspace: 2 x splits x grad_weight's
// elements.
bool grad_weight_window_possible(const ConvTransposeParams& p, DType dtype, const void* input,
                                 const void* grad_output);
bool grad_weight_window_preferred(const ConvTransposeParams& p);
// The window grad_weight's workspace is grad_weight_window_splits(p, sm_count, budget) x the weight's size in fp32;
// grad_weight_window, given the same sm_count and budget, plans the same splits.
int64_t grad_weight_window_splits(const ConvTransposeParams& p, int sm_count, int64_t max_workspace_elems);
cudaError_t grad_weight_window(const ConvTransposeParams& p, DType dtype, const void* input, const void* grad_output,
                               void* grad_weight, float* workspace, int sm_count, int64_t max_workspace_elems,
                               cudaStream_t stream);

// Sums `splits` partial buffers [splits][numel] (accumulator type of dtype) in a fixed order and
// stores the logical row-major elements of `sizes` at their strided places in `out`.
cudaError_t sum_splits(DType dtype, const void* workspace, int64_t splits, const int64_t sizes[5],
                       const int64_t strides[5], void* out, cudaStream_t stream);

// Bytes per workspace element for a dtype (the accumulator type).
inline int64_t accumulator_bytes(DType dtype) { return dtype == DType::kFloat64 ? 8 : 4; }

// The architectures this translation unit was compiled for, e.g. "800,900" (nvcc's
// __CUDA_ARCH_LIST__), and the binary version the driver picked for this device's kernels.
const char* compiled_arch_list();
int kernel_binary_version(int device);

// ---- the one-tap forward (conv_transpose_one_tap.cu) ----
// Calls where every output receives at most one tap (conv_params.h, one_tap_dimension, in every dimension), groups 1,
// a W kernel of at most 4, fp32 / fp16 / bf16 (FFMA for fp32, k16 mma.sync for fp16 / bf16; fp32 sums of exact
// products in every mode); any strides. "auto" takes it (one_tap_forward_preferred) for channels-last or W-innermost
// outputs with some phases that no tap reaches (kernel < stride in some dimension) and at most
// kOneTapPreferredMaxInChannels input channels, where the GEMM forms' tiles are too shallow: fam13 (k3 s5 d2, 32 input
// channels). Run 523 (H200, fam13 channels-last forward ms, the gather "auto" took before / one-tap): bf16 0.500 /
// 0.463, TF32 2.994 / 0.493, exact fp32 3.007 / 0.493 (run 525, with 32-bit indices: bf16 0.404, TF32 0.416);
// contiguous outputs lost on the channels-last form (run 522: bf16 0.723 / 2.274, TF32 0.668 / 2.623).
// TCONV_ONE_TAP_AUTO=0 (development, read once per process) turns the rule off. fp16 / bf16 calls run its k16 mma.sync
// form (run 528, fam13 bf16 CL: 0.300 ms against the FFMA form's 0.373; 0.200 since run 533's bias run), unless
// TCONV_ONE_TAP_MMA=0 (development). W-innermost outputs are written by whole runs per channel and the rule takes them
// too (conv_transpose_one_tap.cu, write_run_lines; run 536, fam13 contiguous forward: bf16 0.720 -> 0.344 ms, TF32
// 0.667 -> 0.493, exact fp32 0.719 -> 0.492: W stride <= 5); TCONV_ONE_TAP_RUNS=0 (development) keeps them off.
constexpr int64_t kOneTapPreferredMaxInChannels = 32;
bool one_tap_forward_possible(const ConvTransposeParams& p, DType dtype);
bool one_tap_forward_preferred(const ConvTransposeParams& p, DType dtype);
cudaError_t one_tap_forward(const ConvTransposeParams& p, DType dtype, const void* input, const void* weight,
                            const void* bias, void* output, cudaStream_t stream);
// grad_input of the same calls on k16 mma.sync (fp16 / bf16; p.input_strides describe grad_input, p.output_strides
// grad_output). "one_tap" takes it wherever possible and "auto" for channels-last grad_outputs with empty phases, at
// most kOneTapPreferredMaxInChannels input and 64 output channels (one_tap_grad_input_taken; `algorithm` as
// requested): run 527 (H200, fam13 bf16 channels-last) ran it at 0.091 ms against the mma.sync gather's 0.247, fwd+bwd
// 0.800 -> 0.651 ms. TCONV_ONE_TAP_GRAD_INPUT=0 (development, read once per process) turns it off.
bool one_tap_grad_input_possible(const ConvTransposeParams& p, DType dtype);
bool one_tap_grad_input_taken(const ConvTransposeParams& p, DType dtype, const std::string& algorithm);
cudaError_t one_tap_grad_input(const ConvTransposeParams& p, DType dtype, const void* grad_output, const void* weight,
                               void* grad_input, cudaStream_t stream);
// grad_weight of the same calls on k16 mma.sync (fp16 / bf16; p.weight_strides describe grad_weight): per (kd, kh) tap
// a split-K GEMM over the input positions, each split's sums in its fp32 copy of the weight, added in order by
// sum_splits. Workspace: one_tap_grad_weight_splits x grad_weight's elements. "one_tap" takes it wherever possible,
// "auto" as the one-tap grad_input's rule with a channels-last input too (one_tap_grad_weight_taken; `algorithm` as
// requested): run 529 (H200, fam13 bf16 channels-last) ran it at 0.097 ms + 0.008 to sum the splits against the
// gather GEMM's 0.183, fwd+bwd 0.684 -> 0.489. TCONV_ONE_TAP_GRAD_WEIGHT=0 (development, read once per process) turns
// it off.
bool one_tap_grad_weight_possible(const ConvTransposeParams& p, DType dtype);
bool one_tap_grad_weight_taken(const ConvTransposeParams& p, DType dtype, const std::string& algorithm);
int64_t one_tap_grad_weight_splits(const ConvTransposeParams& p, int sm_count, int64_t max_workspace_elems);
cudaError_t one_tap_grad_weight(const ConvTransposeParams& p, DType dtype, const void* input, const void* grad_output,
                                void* grad_weight, float* workspace, int64_t splits, cudaStream_t stream);

}  // namespace tconv
