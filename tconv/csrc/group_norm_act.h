// Launchers of the fused "activation -> GroupNorm" epilogue (forward and backward) that follows
// tconv's transposed convolutions in ConvTransposeActGroupNorm2d/3d. Torch-free like
// conv_transpose.h: the CUDA source compiles with nvcc alone. Every launcher returns the
// cudaError_t of its launches; the caller turns it into an exception.
//
// Tensors are [N, C, S] with S the product of the spatial sizes, either channels-first contiguous
// (Order::kWidthInnermost, NC(D)HW) or channels-last (Order::kChannelsInnermost, N(D)HWC), dense.
// Data, gamma, beta and their gradients are in `dtype` (fp16, bf16 or fp32); mean and rstd are fp32
// [N, G]. Statistics and every accumulation are fp32 (the merge of partial statistics in fp64).
// Results are deterministic: partial results are combined in a fixed order, never with atomics.
#pragma once
#include <cuda_runtime.h>
#include <cstdint>
#include "conv_params.h"
#include "conv_transpose.h"

namespace tconv {

// Numbering shared with tconv/fused.py (_ACTIVATION_CODES); formulas and derivatives are PyTorch's.
enum class Activation : int {
  kIdentity = 0,
  kRelu = 1,
  kLeakyRelu = 2,  // arg0 = negative_slope
  kGelu = 3,       // exact (erf)
  kGeluTanh = 4,   // approximate="tanh"
  kSilu = 5,
  kHardswish = 6,
  kTanh = 7,
  kSigmoid = 8,
  kHardtanh = 9,   // arg0 = min_val, arg1 = max_val
};
constexpr int kActivationCount = 10;

struct GroupNormActParams {
  int64_t batch = 0;
  int64_t channels = 0;
  int64_t groups = 1;
  int64_t spatial = 0;  // product of the spatial sizes
  Order order = Order::kWidthInnermost;
  DType dtype = DType::kFloat32;
  Activation activation = Activation::kIdentity;
  float act_arg0 = 0.f;
  float act_arg1 = 0.f;
  float eps = 1e-5f;
  // Pieces each (n, channel) is cut into for the reductions; group_norm_act_splits() picks it.
  int64_t splits = 1;
};

// Splits that fill `sm_count` SMs with reduction work (at least one).
int64_t group_norm_act_splits(const GroupNormActParams& p, int sm_count);

// fp32 workspace sizes (elements) of the two passes for p.splits.
int64_t group_norm_act_forward_workspace(const GroupNormActParams& p);
int64_t group_norm_act_backward_workspace(const GroupNormActParams& p);

// Statistics of act(y) accumulated where y was made (the unit-stride forward's epilogue, conv_transpose.h:
// ForwardGroupStats): Welford partials as three planes (count, mean, M2) of [N * G][splits], entries a producer did
// not write zeroed (count 0 adds nothing). Null partials: none.
struct GroupPartials {
  const float* partials = nullptr;
  int64_t splits = 0;
};

// z = group_norm(act(y)); also writes mean/rstd [N*G] for the backward. gamma/beta may be null
// (no affine). Requires batch, channels and spatial > 0 (the caller handles empty tensors).
// With group_partials the statistics pass is skipped: mean and rstd come from those partials (merged in the same
// fixed order and fp64 as the pass's own), and the workspace is unused.
cudaError_t group_norm_act_forward(const GroupNormActParams& p, const void* y, const void* gamma,
                                   const void* beta, void* z, float* mean, float* rstd,
                                   float* workspace, cudaStream_t stream,
                                   const GroupPartials& group_partials = GroupPartials{});

// grad_y = act'(y) * rstd * (gamma*dz - mean_g(gamma*dz) - xhat * mean_g(gamma*dz*xhat)),
// grad_gamma[c] = sum dz*xhat, grad_beta[c] = sum dz (each skipped when its pointer is null;
// gamma null means gamma = 1). act(y) is recomputed from y.
cudaError_t group_norm_act_backward(const GroupNormActParams& p, const void* grad_z, const void* y,
                                    const float* mean, const float* rstd, const void* gamma, void* grad_y,
                                    void* grad_gamma, void* grad_beta, float* workspace,
                                    cudaStream_t stream);

}  // namespace tconv
