"""tconv: fast transposed convolutions for PyTorch with hand-written CUDA kernels."""
__version__ = "0.1.0"

from .functional import conv_transpose1d, conv_transpose2d, conv_transpose3d  # noqa: E402
from .modules import ConvTranspose1d, ConvTranspose2d, ConvTranspose3d  # noqa: E402
from ._build import is_available  # noqa: E402
from .fused import ConvTransposeActGroupNorm2d, ConvTransposeActGroupNorm3d  # noqa: E402
from .optimize import OptimizeReport, optimize  # noqa: E402
from ._autotune import autotune, autotune_cache, autotune_enabled, clear_autotune_cache, set_autotune  # noqa: E402

__all__ = [
    "conv_transpose1d", "conv_transpose2d", "conv_transpose3d",
    "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d",
    "ConvTransposeActGroupNorm2d", "ConvTransposeActGroupNorm3d",
    "is_available", "optimize", "OptimizeReport",
    "set_autotune", "autotune", "autotune_enabled", "autotune_cache", "clear_autotune_cache",
]
