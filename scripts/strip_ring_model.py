"""A model of the persistent warp-specialized unit-stride forward's ring (conv_transpose_igemm.cu,
tconv_igemm_strip_unit_stride_forward_kernel with kPersistent: produce_strip_stages / consume_strip_stages with one
StripRing a role carried from tile to tile, and the double-buffered row table row_at), run under random interleavings.

One producer fills the ring's stages for the block's tiles in order, waiting for a slot's release only once it has
filled every slot once (StripRing::lapped). Both MMA warpgroups consume every stage: each of their eight warps waits
on the stage's full barrier, meets its warpgroup's other warps at the stage's wgmmas, and releases the previous stage
(its arrivals on empty[], eight to a phase here as 256 there); after a tile's last stage it releases that one too. At
a tile's start each warp writes its rows' entries of row_at[tile % 2]; after the tile's stages the eight warps meet at
the named barrier (strip_mma_warpgroups_sync) and then read every warp's entries for the store. Barriers are the
ping-pong model's (scripts/ping_pong_ring_model.py): a parity wait cannot tell a barrier's laps two apart.

Expected: every schedule runs and reads the right stage and the right table; without the release of a tile's last
stage the producer waits for ever on that slot (a deadlock) once a later tile laps it; with one table instead of two a
fast warp's next tile overwrites entries a slow warp has yet to read.
    python3 scripts/strip_ring_model.py   (exits 1 if a schedule of the kernel's protocol fails)
"""
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ping_pong_ring_model import MBarrier, Rendezvous, schedule, tally  # noqa: E402

MMA_WARPS = 8  # two warpgroups of four


def run_block(tile_stages, stages, seed, release_last=True, tables=2):
    """One persistent block over tiles of tile_stages[k] stages each: "ok", "wrong data" or "deadlock"."""
    rng = random.Random(seed)
    full = [MBarrier(1) for _ in range(stages)]
    empty = [MBarrier(MMA_WARPS) for _ in range(stages)]
    contents = [None] * stages
    row_at = [[None] * MMA_WARPS for _ in range(tables)]
    meet_wgmma = [Rendezvous(4) for _ in range(2)]
    meet_store = Rendezvous(MMA_WARPS)
    progress = [0]  # bumped by every step that changes the block's state, so that a deadlock shows early

    def producer():  # produce_strip_stages, one call a tile, the ring carried
        slot, parity, lapped = 0, 0, False
        for tile, steps in enumerate(tile_stages):
            for step in range(steps):
                if lapped:
                    while not empty[slot].parity_done(parity):
                        yield
                contents[slot] = (tile, step)
                full[slot].arrive()
                progress[0] += 1
                slot += 1
                if slot == stages:
                    slot = 0
                    if lapped:
                        parity ^= 1
                    lapped = True
                yield

    def warp(w):  # one MMA warp: the tile loop of the persistent form
        slot, parity = 0, 0
        for tile, steps in enumerate(tile_stages):
            row_at[tile % tables][w] = tile  # this warp's rows of the tile
            previous = None
            for step in range(steps):  # consume_strip_stages
                while not full[slot].parity_done(parity):
                    yield
                if contents[slot] != (tile, step):
                    raise AssertionError((w, tile, step, contents[slot]))
                progress[0] += 1
                yield from meet_wgmma[w // 4].meet()
                if previous is not None:
                    empty[previous].arrive()
                previous = slot
                slot += 1
                if slot == stages:
                    slot, parity = 0, parity ^ 1
            if release_last and previous is not None:
                empty[previous].arrive()
            yield from meet_store.meet()  # strip_mma_warpgroups_sync
            for other in range(MMA_WARPS):  # the store reads every row's entry
                if row_at[tile % tables][other] != tile:
                    raise AssertionError((w, tile, other, row_at[tile % tables][other]))
                progress[0] += 1
                for _ in range(rng.randint(0, 3)):
                    yield

    seen = [-1, 0]  # the progress count last seen, and steps since it last moved

    def stalled():
        seen[:] = [progress[0], seen[1] + 1 if progress[0] == seen[0] else 0]
        return seen[1] > 20_000

    return schedule([producer()] + [warp(w) for w in range(MMA_WARPS)], rng, stalled)


def outcomes(schedules=300, **protocol):
    """{outcome: schedules} over random blocks: 1-9 tiles of 0-36 stages (tiles whose tap hull is empty, short and
    L2-61-like K loops), rings of 2, 5 or 6 stages (the fp32 kernels' 5 at T 3, 6 at T 5 and 7)."""
    return tally(run_block, [36, 36, 12, 1, 0, 2, 7], [2, 5, 6], schedules, **protocol)


if __name__ == "__main__":
    kernel = outcomes()
    print("the kernel's protocol:", kernel)
    print("without the release of a tile's last stage:", outcomes(release_last=False))
    print("with one row table:", outcomes(tables=1))
    sys.exit(0 if kernel == {"ok": 300} else 1)
