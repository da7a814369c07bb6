// The fp16 (__half) kernels of the unit-stride forward (and grad_input at unit stride) and their entry points: one of
// the translation units of conv_transpose_igemm.cu, whose fp32 unit hands fp16 calls here (why: its head,
// TCONV_IGEMM_TYPES).
#define TCONV_IGEMM_PART TCONV_IGEMM_PART_UNIT_STRIDE
#define TCONV_IGEMM_TYPES TCONV_IGEMM_TYPES_HALF
#include "conv_transpose_igemm.cu"
