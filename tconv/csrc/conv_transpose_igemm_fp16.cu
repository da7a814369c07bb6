// The fp16 (__half) kernels of the cp.async gathers (forward and grad_input) and their entry points: one of the
// translation units of conv_transpose_igemm.cu, whose fp32 unit hands fp16 calls here (why: its head,
// TCONV_IGEMM_TYPES).
#define TCONV_IGEMM_PART TCONV_IGEMM_PART_GATHER
#define TCONV_IGEMM_TYPES TCONV_IGEMM_TYPES_HALF
#include "conv_transpose_igemm.cu"
