"""Offline shared-memory bank model of unit_stride_mma's window transpose (conv_transpose_unit_stride_mma.cu,
transpose_window, 16-bit data): wavefronts per warp request of its 8-byte raw-window reads and 16-byte transposed
writes, relative to the conflict-free minimum, for a window of `rows` x `chunks` 16-byte chunks.

    python3 scripts/smem_bank_model.py --rows 10 --chunks 9          # L1-71's row tiles
    python3 scripts/smem_bank_model.py --rows 1 --chunks 67 --skew   # fam08's folded tiles, with the patch's skew

Model: a request of B bytes per lane runs in phases of 128 / B lanes (8-byte: 16 lanes, 16-byte: 8); a phase takes as
many wavefronts as the most distinct 4-byte words any one bank holds. Run 287's ncu figures for L1-71 (4-way reads,
2-way writes) are what it gives without --skew. --skew models session44-transpose_skew.patch: channels 16-31's raw
rows start 64 bytes later and odd channel groups read the second half of their chunks first. --order models odd units
(odd unit index / 4) storing their positions in the order 1 0 3 2 (the grad_weight's stage_transpose does so).

--fp32 models the fp32 window of 72f68c3 on: 16 channels per stage (4 chunks per position), a unit of 4 channels x 4
positions read as four 16-byte rows and written as four 16-byte chunks; the raw pitch an odd number of chunks and
channels 8-15 32 bytes later (raw_channel_start). Run 307's ncu (L1-71 TF32) found its reads conflict-free and its
writes at 2x, as the model gives. Since 6748288 the fp32 raw window is copied and transposed in two parts of its rows
(UnitStrideMmaTile<4>::kRawParts), each with a pitch of its own: pass a part's rows (ceil(window rows / 2)).
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


def model_fp32(rows, chunks, order=False):
    """(reads, writes) relative to conflict-free for the fp32 transpose of a rows x chunks window."""
    elems, row_chunks = 4, 4
    positions = chunks * elems
    total = rows * chunks
    pitch = (total + (2 if total % 2 else 1)) * elems  # UnitStrideMmaPlan's fp32 raw pitch, an odd number of chunks

    def start(channel):
        return channel * pitch + ((channel >> 3) & 1) * 8

    units = rows * chunks * row_chunks
    reads = writes = requests = 0
    for first in range(0, units, 32):
        lanes = list(range(first, min(first + 32, units)))
        lanes += [lanes[-1]] * (32 - len(lanes))
        for c in range(elems):
            reads += wavefronts([4 * (start((u % row_chunks) * elems) + (u // row_chunks) * elems + c * pitch)
                                 for u in lanes], 16)
        for i in range(elems):
            written = [(u // row_chunks) * elems + (i ^ ((u // row_chunks) & 1) if order else i) for u in lanes]
            writes += wavefronts([(p * row_chunks + ((u % row_chunks) ^ swizzle_term(p))) * 16
                                  for u, p in zip(lanes, written)], 16)
        requests += 1
    return reads / (requests * elems * 4), writes / (requests * elems * 4)


def model(rows, chunks, skew, order=False):
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
                positions_written = [(u // ROW_CHUNKS) * CHUNK_ELEMS + 4 * half
                                     + (j ^ ((u // ROW_CHUNKS) & 1) if order else j) for u, half in zip(lanes, halves)]
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
    parser.add_argument("--order", action="store_true", help="odd units store their positions as 1 0 3 2")
    parser.add_argument("--fp32", action="store_true", help="the fp32 window (16 channels, skewed; --skew unused)")
    args = parser.parse_args()
    if args.fp32:
        reads, writes = model_fp32(args.rows, args.chunks, args.order)
    else:
        reads, writes = model(args.rows, args.chunks, args.skew, args.order)
    print(f"reads x{reads:.2f}, writes x{writes:.2f} of the conflict-free wavefronts")


if __name__ == "__main__":
    main()
