"""Problem suites: file stems in problems/ (each has a ModelNew of the same name in solutions/)."""

CORE = [
    "l1_68_convt3d_square_input_asym_kernel",
    "l1_73_convt3d_strided_padded_grouped",
    "l1_71_convt2d_asym_input_square_kernel",
    "l1_72_convt3d_asym_kernel_strided_padded_grouped",
    "l2_61_convt3d_relu_groupnorm",
]

FAMILY = [
    "fam01_convt2d_k3_1024x1024",
    "fam02_convt3d_k3x5x7_16x32x64",
    "fam03_convt3d_k3_64x64x64",
    "fam04_convt1d_k3_65536",
    "fam05_convt2d_k3x7_512x512",
    "fam06_convt2d_k3x5_128x256",
    "fam07_convt3d_k3_96x96x96",
    "fam08_convt1d_k5_d3_131072",
    "fam09_convt2d_k3x5_s2x3_p1x2_d2x1_g4_128x256",
    "fam10_convt3d_k3_s2_p1_d2_16x32x32",
    "fam11_convt2d_k3x7_p1x3_512x1024",
    "fam12_convt1d_k3_s2_p1_d2_131072",
    "fam13_convt2d_k3_s5_p1_d2_64x128",
]

REAL = [
    "real_unet3d_up",
    "real_dcgan_up",
    "real_hifigan_up",
    "real_vae_up",
]

ALL = CORE + FAMILY + REAL

# Conv -> activation -> GroupNorm blocks beyond L2-61 (the fusion issue's targets); not part of the
# 22-shape suite that the speed targets average over.
BLOCKS = [
    "real_unet3d_up_block",
]
