// The fp16 (__half) kernels of grad_weight (the mma.sync, wgmma, rows and shifted-x kernels) and their entry points:
// one of the translation units of conv_transpose_igemm.cu, whose fp32 unit hands fp16 calls here (why: its head,
// TCONV_IGEMM_TYPES).
#define TCONV_IGEMM_PART TCONV_IGEMM_PART_GRAD_WEIGHT
#define TCONV_IGEMM_TYPES TCONV_IGEMM_TYPES_HALF
#include "conv_transpose_igemm.cu"
