// The host entry points of the strip and unit-stride forms (forward, grad_input, grad_weight): one of the three
// translation units of conv_transpose_igemm.cu (why: its head).
#define TCONV_IGEMM_PART TCONV_IGEMM_PART_STRIP
#include "conv_transpose_igemm.cu"
