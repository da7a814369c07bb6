"""Offline shared-memory bank model of unit_stride_mma's window transpose (conv_transpose_unit_stride_mma.cu,
transpose_window, 16-bit data): wavefronts per warp request of its 8-byte raw-window reads and 16-byte transposed
writes, relative to the conflict-free minimum, for a window of `rows` x `chunks` 16-byte chunks.

    python3 scripts/smem_bank_model.py --rows 10 --chunks 9          # L1-71's row tiles
    python3 scripts/smem_bank_model.py --rows 1 --chunks 67 --skew   # fam08's folded tiles, with the patch's skew

Model: a request of B bytes per lane runs in phases of 128 / B lanes (8-byte: 16 lanes, 16-byte: 8); a phase takes as
many wavefronts as the most distinct 4-byte words any one bank holds. Run 287's ncu figures for L1-71 (4-way reads,
2-way writes) are what it gives without --skew. --skew models session44-transpose_skew.patch: channels 16-31's raw
rows start 64 bytes later and odd channel groups read the second half of their chunks first.
"""
import argparse

CHUNK_ELEMS, ROW_CHUNKS = 8, 4  # 16-bit: 8 positions per 16-byte chunk; 32 channels = 4 chunks per position


def wavefronts(addresses, nbytes):
    per_phase = {4: 32, 8: 16, 16: 8}[nbytes]
    total = 0
    for start in range(0, 32, per_phase):
        banks = {}
        for address in addresses[start:start + per_phase]:
            for word in range(address // 4, address // 4 + nbytes // 4):
                banks.setdefault(word % 32, set()).add(word)
        total += max(len(words) for words in banks.values())
    return total


def swizzle_term(row):
    return (row >> 1) & 3


def model(rows, chunks, skew):
    positions = chunks * CHUNK_ELEMS
    pitch = rows * positions + CHUNK_ELEMS  # raw channel pitch in elements, as the plan sets it
    start = (lambda channel: channel * pitch + ((channel >> 4) & 1) * 32) if skew else (lambda c: c * pitch)
    units = rows * chunks * ROW_CHUNKS
    reads = writes = requests = 0
    for first in range(0, units, 32):
        lanes = list(range(first, min(first + 32, units)))
        lanes += [lanes[-1]] * (32 - len(lanes))  # idle lanes repeat an address: no extra wavefront
        for h in range(2):
            halves = [h ^ (u % ROW_CHUNKS & 1) if skew else h for u in lanes]
            for c in range(CHUNK_ELEMS):
                reads += wavefronts([2 * (start((u % ROW_CHUNKS) * CHUNK_ELEMS) + (u // ROW_CHUNKS) * CHUNK_ELEMS
                                          + c * pitch + 4 * half) for u, half in zip(lanes, halves)], 8)
            for j in range(4):
                positions_written = [(u // ROW_CHUNKS) * CHUNK_ELEMS + 4 * half + j for u, half in zip(lanes, halves)]
                writes += wavefronts([(p * ROW_CHUNKS + ((u % ROW_CHUNKS) ^ swizzle_term(p))) * 16
                                      for u, p in zip(lanes, positions_written)], 16)
            requests += 1
    # Conflict-free: 2 wavefronts per 8-byte request (256 bytes), 4 per 16-byte one (512 bytes).
    return reads / (requests * CHUNK_ELEMS * 2), writes / (requests * 4 * 4)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, required=True, help="window rows (tile rows + (kH - 1) dil_h)")
    parser.add_argument("--chunks", type=int, required=True, help="16-byte chunks per window row")
    parser.add_argument("--skew", action="store_true", help="the patch's raw-row skew and half order")
    args = parser.parse_args()
    reads, writes = model(args.rows, args.chunks, args.skew)
    print(f"reads x{reads:.2f}, writes x{writes:.2f} of the conflict-free wavefronts")


if __name__ == "__main__":
    main()
