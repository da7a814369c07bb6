// The bf16 (__nv_bfloat16) kernels of the unit-stride forward (and grad_input at unit stride) and their entry points:
// one of the translation units of conv_transpose_igemm.cu, whose fp32 unit hands bf16 calls here (why: its head,
// TCONV_IGEMM_TYPES).
#define TCONV_IGEMM_PART TCONV_IGEMM_PART_UNIT_STRIDE
#define TCONV_IGEMM_TYPES TCONV_IGEMM_TYPES_BFLOAT16
#include "conv_transpose_igemm.cu"
