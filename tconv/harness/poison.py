"""Fill the CUDA caching allocator's free memory with NaN before a solution runs.

A kernel that never writes some output elements leaves whatever the memory held; after poisoning,
the next allocations reuse NaN-filled blocks, so unwritten elements show up as NaN and fail the
comparison instead of passing by luck (e.g. on zeroed fresh memory). Best effort: blocks that stay
cached inside segments with live tensors are not poisoned.
"""

from __future__ import annotations

import torch

_MIN_POISON_BYTES = 64 << 20
# The caching allocator serves requests up to 1 MiB from a separate pool of 2 MiB segments.
_SMALL_POOL_REQUEST_BYTES = 1 << 20
_SMALL_POOL_REQUESTS = 32
# Never take more than this share of the free memory: the solution still needs its workspace.
_MAX_FREE_FRACTION = 0.5


def poison_cuda_allocator(device: torch.device, expected_bytes: int) -> int:
    """NaN-fill free allocator memory on `device`, sized a few times `expected_bytes`; returns bytes filled."""
    device = torch.device(device)
    if device.type != "cuda":
        return 0
    # Release cached blocks first so that every block the solution gets next is one filled here.
    torch.cuda.empty_cache()
    free_bytes, _total = torch.cuda.mem_get_info(device)
    target = max(4 * int(expected_bytes), _MIN_POISON_BYTES)
    large_bytes = min(target, int(free_bytes * _MAX_FREE_FRACTION))
    element_size = torch.empty((), dtype=torch.float32).element_size()
    poison_blocks = []
    if large_bytes >= element_size:
        poison_blocks.append(torch.full((large_bytes // element_size,), float("nan"), device=device))
    small_elements = _SMALL_POOL_REQUEST_BYTES // element_size
    for _ in range(_SMALL_POOL_REQUESTS):
        poison_blocks.append(torch.full((small_elements,), float("nan"), device=device))
    filled = sum(block.numel() * element_size for block in poison_blocks)
    # Freed blocks stay in the cache (stream-ordered reuse on the current stream, no sync needed).
    del poison_blocks
    return filled
