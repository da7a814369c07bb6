// The host entry points of grad_weight (the mma.sync, wgmma, rows and shifted-x kernels): one of the three
// translation units of conv_transpose_igemm.cu (why: its head).
#define TCONV_IGEMM_PART TCONV_IGEMM_PART_GRAD_WEIGHT
#include "conv_transpose_igemm.cu"
