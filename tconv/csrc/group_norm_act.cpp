// Python bindings of the fused activation -> GroupNorm epilogue (group_norm_act.cu). Python
// (tconv/fused.py) decides which calls come here (CUDA, fp16/bf16/fp32, dense channels-first or
// channels-last, non-empty spatial size) and allocates every output; this file re-checks what the
// kernels rely on, sizes the workspace and launches on the current stream.
#include <torch/extension.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

#include "torch_check.h"

#include "group_norm_act.h"

namespace tconv {
namespace {

DType group_norm_dtype(const at::Tensor& t) {
  const DType dtype = to_dtype(t);
  TCONV_CHECK(dtype != DType::kFloat64, "tconv: group_norm_act kernels support float16, bfloat16 and float32, got ",
              t.scalar_type());
  return dtype;
}

bool dense_in_order(const at::Tensor& t, bool channels_last) {
  if (!channels_last) return t.is_contiguous();
  TCONV_CHECK(t.dim() == 4 || t.dim() == 5, "tconv: channels_last group_norm_act needs a 4-D or 5-D tensor");
  return t.is_contiguous(t.dim() == 4 ? at::MemoryFormat::ChannelsLast : at::MemoryFormat::ChannelsLast3d);
}

void check_like(const at::Tensor& t, const char* name, const at::Tensor& like, bool channels_last) {
  TCONV_CHECK(t.is_cuda() && t.device() == like.device(), "tconv: ", name, " must be on ", like.device());
  TCONV_CHECK(t.scalar_type() == like.scalar_type(), "tconv: ", name, " has dtype ", t.scalar_type(),
              " but expected ", like.scalar_type());
  TCONV_CHECK(t.sizes() == like.sizes(), "tconv: ", name, " has shape ", t.sizes(), " but expected ", like.sizes());
  TCONV_CHECK(dense_in_order(t, channels_last), "tconv: ", name, " must be dense in ",
              channels_last ? "channels_last" : "contiguous", " order");
}

const void* channel_param(const c10::optional<at::Tensor>& param, const char* name, const at::Tensor& like) {
  if (!param.has_value() || !param->defined()) return nullptr;
  const at::Tensor& t = *param;
  TCONV_CHECK(t.is_cuda() && t.device() == like.device() && t.scalar_type() == like.scalar_type() && t.dim() == 1 &&
                  t.size(0) == like.size(1) && t.is_contiguous(),
              "tconv: ", name, " must be a contiguous 1-D tensor of ", like.size(1), " elements with the input's "
              "dtype and device");
  return t.data_ptr();
}

void check_stats(const at::Tensor& t, const char* name, const at::Tensor& like, int64_t groups) {
  TCONV_CHECK(t.is_cuda() && t.device() == like.device() && t.scalar_type() == at::kFloat && t.is_contiguous() &&
                  t.numel() == like.size(0) * groups,
              "tconv: ", name, " must be a contiguous float32 tensor of N x groups elements");
}

// The checks both passes share: y, a second tensor of y's shape and layout, and the statistics.
void check_pass_inputs(const at::Tensor& y, const at::Tensor& other, const char* other_name, const at::Tensor& mean,
                       const at::Tensor& rstd, int64_t groups, bool channels_last) {
  TCONV_CHECK(y.is_cuda(), "tconv: group_norm_act input must be a CUDA tensor");
  check_like(y, "input", y, channels_last);
  check_like(other, other_name, y, channels_last);
  check_stats(mean, "mean", y, groups);
  check_stats(rstd, "rstd", y, groups);
}

GroupNormActParams make_group_norm_params(const at::Tensor& y, int64_t groups, double eps, int64_t activation,
                                          double arg0, double arg1, bool channels_last) {
  TCONV_CHECK(y.dim() >= 3, "tconv: group_norm_act needs [N, C, *spatial], got ", y.dim(), "-D");
  TCONV_CHECK(groups > 0 && y.size(1) % groups == 0, "tconv: ", y.size(1), " channels are not divisible into ",
              groups, " groups");
  TCONV_CHECK(activation >= 0 && activation < kActivationCount, "tconv: unknown activation code ", activation);
  GroupNormActParams p;
  p.batch = y.size(0);
  p.channels = y.size(1);
  p.groups = groups;
  p.spatial = 1;
  for (int64_t d = 2; d < y.dim(); ++d) p.spatial *= y.size(d);
  p.order = channels_last ? Order::kChannelsInnermost : Order::kWidthInnermost;
  p.dtype = group_norm_dtype(y);
  p.activation = static_cast<Activation>(activation);
  p.act_arg0 = static_cast<float>(arg0);
  p.act_arg1 = static_cast<float>(arg1);
  p.eps = static_cast<float>(eps);
  return p;
}

}  // namespace

// z = group_norm(act(y)) into the preallocated z (y's shape and layout); mean/rstd [N * G] fp32. partials: the
// statistics' Welford partials made by the forward that wrote y (forward_group_stats_out), else None or empty.
void group_norm_act_forward_out(const at::Tensor& y, const c10::optional<at::Tensor>& gamma,
                                const c10::optional<at::Tensor>& beta, int64_t groups, double eps, int64_t activation,
                                double arg0, double arg1, bool channels_last, at::Tensor& z, at::Tensor& mean,
                                at::Tensor& rstd, const c10::optional<at::Tensor>& partials) {
  check_pass_inputs(y, z, "output", mean, rstd, groups, channels_last);
  const void* gamma_ptr = channel_param(gamma, "weight", y);
  const void* beta_ptr = channel_param(beta, "bias", y);
  GroupNormActParams p = make_group_norm_params(y, groups, eps, activation, arg0, arg1, channels_last);
  TCONV_CHECK(p.batch == 0 || p.spatial > 0, "tconv: group_norm_act needs a non-empty spatial size");
  if (p.batch == 0) return;  // nothing to normalise and no statistics to keep
  const c10::cuda::CUDAGuard guard(y.device());
  bind_primary_context(y.get_device());
  p.splits = group_norm_act_splits(p, sm_count_of(y));
  GroupPartials made;
  if (partials.has_value() && partials->defined() && partials->numel() > 0) {
    const int64_t per_split = 3 * p.batch * p.groups;
    TCONV_CHECK(partials->is_cuda() && partials->device() == y.device() && partials->scalar_type() == at::kFloat &&
                    partials->is_contiguous() && partials->numel() % per_split == 0,
                "tconv: partials must be a contiguous float32 CUDA tensor of 3 x N x groups x splits elements");
    made.partials = partials->data_ptr<float>();
    made.splits = partials->numel() / per_split;
  }
  const at::Tensor workspace = at::empty({made.partials != nullptr ? 0 : group_norm_act_forward_workspace(p)},
                                         y.options().dtype(at::kFloat));
  check_launch(group_norm_act_forward(p, y.data_ptr(), gamma_ptr, beta_ptr, z.data_ptr(), mean.data_ptr<float>(),
                                      rstd.data_ptr<float>(), workspace.data_ptr<float>(),
                                      c10::cuda::getCurrentCUDAStream().stream(), made),
               "group_norm_act forward");
}

// Gradients of the forward above from grad_z; grad_y (y's shape and layout), grad_gamma and
// grad_beta are preallocated and each may be None (not computed).
void group_norm_act_backward_out(const at::Tensor& grad_z, const at::Tensor& y, const at::Tensor& mean,
                                 const at::Tensor& rstd, const c10::optional<at::Tensor>& gamma, int64_t groups,
                                 int64_t activation, double arg0, double arg1, bool channels_last,
                                 c10::optional<at::Tensor> grad_y, c10::optional<at::Tensor> grad_gamma,
                                 c10::optional<at::Tensor> grad_beta) {
  check_pass_inputs(y, grad_z, "grad_output", mean, rstd, groups, channels_last);
  const void* gamma_ptr = channel_param(gamma, "weight", y);
  void* grad_y_ptr = nullptr;
  if (grad_y.has_value() && grad_y->defined()) {
    check_like(*grad_y, "grad_input", y, channels_last);
    grad_y_ptr = grad_y->data_ptr();
  }
  void* grad_gamma_ptr = const_cast<void*>(channel_param(grad_gamma, "grad_weight", y));
  void* grad_beta_ptr = const_cast<void*>(channel_param(grad_beta, "grad_bias", y));
  GroupNormActParams p = make_group_norm_params(y, groups, 0.0, activation, arg0, arg1, channels_last);
  TCONV_CHECK(p.batch == 0 || p.spatial > 0, "tconv: group_norm_act needs a non-empty spatial size");
  const c10::cuda::CUDAGuard guard(y.device());
  bind_primary_context(y.get_device());
  if (p.batch == 0) {  // empty sums: zero parameter gradients, as torch gives
    if (grad_gamma_ptr != nullptr) grad_gamma->zero_();
    if (grad_beta_ptr != nullptr) grad_beta->zero_();
    return;
  }
  p.splits = group_norm_act_splits(p, sm_count_of(y));
  const at::Tensor workspace = at::empty({group_norm_act_backward_workspace(p)}, y.options().dtype(at::kFloat));
  check_launch(
      group_norm_act_backward(p, grad_z.data_ptr(), y.data_ptr(), mean.data_ptr<float>(), rstd.data_ptr<float>(),
                              gamma_ptr, grad_y_ptr, grad_gamma_ptr, grad_beta_ptr, workspace.data_ptr<float>(),
                              c10::cuda::getCurrentCUDAStream().stream()),
      "group_norm_act backward");
}

void bind_group_norm_act(pybind11::module_& m) {
  m.def("group_norm_act_forward_out", &group_norm_act_forward_out,
        "activation -> group_norm forward into preallocated output, mean and rstd", pybind11::arg("y"),
        pybind11::arg("gamma"), pybind11::arg("beta"), pybind11::arg("groups"), pybind11::arg("eps"),
        pybind11::arg("activation"), pybind11::arg("arg0"), pybind11::arg("arg1"), pybind11::arg("channels_last"),
        pybind11::arg("z"), pybind11::arg("mean"), pybind11::arg("rstd"), pybind11::arg("partials") = pybind11::none());
  m.def("group_norm_act_backward_out", &group_norm_act_backward_out,
        "activation -> group_norm backward into preallocated grad_input / grad_weight / grad_bias (each optional)");
}

}  // namespace tconv
