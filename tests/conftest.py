import pytest
import torch


def cuda_ready() -> bool:
    return torch.cuda.is_available() and torch.version.cuda is not None


@pytest.fixture
def poison_allocator():
    """Fill the CUDA caching allocator's free blocks with NaN so an element a kernel never writes
    shows up as NaN instead of a stale plausible value."""
    def poison(nbytes: int = 256 << 20):
        block = torch.empty(nbytes // 4, dtype=torch.float32, device="cuda")
        block.fill_(float("nan"))
        del block
    return poison
