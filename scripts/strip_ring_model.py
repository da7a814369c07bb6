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

staged=True models the kernel's store since session 103 (notes/perf.md "Session 103"; modelled before it was
written): run 542 found the register store writing 2x the L2 sectors, so a tile is staged through shared memory again,
but through the slots of its own last two stages, which the MMA warps hold (consume_strip_stages' hold_last_two:
released only after the store) while the producer fills the ring's other slots with the next tile. After the eight
warps meet (no wgmma still reads those slots), warpgroup g stages its part through the slot of stage steps - 2 + g in
chunks (two here): each warp writes its part, the warpgroup meets, every warp reads the warpgroup's parts (the
copy-out), the warpgroup meets again before the next chunk; then every warp releases both slots. Tiles of fewer than
two stages keep the register store. Its mutants: the held slots released before the store (hold=False), one slot for
both warpgroups (slots=1), no meeting between the chunks (half_barrier=False).
    python3 scripts/strip_ring_model.py   (exits 1 if a schedule of a protocol meant to work fails)
"""
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ping_pong_ring_model import MBarrier, Rendezvous, schedule, tally  # noqa: E402

MMA_WARPS = 8  # two warpgroups of four


def run_block(tile_stages, stages, seed, release_last=True, tables=2, staged=False, hold=True, slots=2,
              half_barrier=True):
    """One persistent block over tiles of tile_stages[k] stages each: "ok", "wrong data" or "deadlock"."""
    rng = random.Random(seed)
    full = [MBarrier(1) for _ in range(stages)]
    empty = [MBarrier(MMA_WARPS) for _ in range(stages)]
    contents = [None] * stages
    staging = [[None] * 4 for _ in range(stages)]  # a slot holds one warpgroup's half: a part a warp
    row_at = [[None] * MMA_WARPS for _ in range(tables)]
    meet_wgmma = [Rendezvous(4) for _ in range(2)]
    meet_half = [Rendezvous(4) for _ in range(2)]
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
                staging[slot] = [None] * 4  # the stage's bytes overwrite whatever was staged there
                full[slot].arrive()
                progress[0] += 1
                slot += 1
                if slot == stages:
                    slot = 0
                    if lapped:
                        parity ^= 1
                    lapped = True
                yield

    def staged_store(w, tile, slot):
        """Warpgroup w // 4's two halves through `slot`."""
        group = w // 4
        for half in range(2):
            staging[slot][w % 4] = (tile, group, half)
            progress[0] += 1
            yield from meet_half[group].meet()
            for part in range(4):  # the copy-out reads the warpgroup's parts
                if staging[slot][part] != (tile, group, half):
                    raise AssertionError((w, tile, half, part, staging[slot][part]))
                for _ in range(rng.randint(0, 2)):
                    yield
            if half_barrier:
                yield from meet_half[group].meet()

    def warp(w):  # one MMA warp: the tile loop of the persistent form
        slot, parity = 0, 0
        for tile, steps in enumerate(tile_stages):
            row_at[tile % tables][w] = tile  # this warp's rows of the tile
            staging_here = staged and steps >= 2
            held = []  # the slots of the tile's last two stages, once consumed
            previous = None
            for step in range(steps):  # consume_strip_stages
                while not full[slot].parity_done(parity):
                    yield
                if contents[slot] != (tile, step):
                    raise AssertionError((w, tile, step, contents[slot]))
                progress[0] += 1
                yield from meet_wgmma[w // 4].meet()
                if previous is not None:
                    if staging_here and hold and step == steps - 1:
                        held.append(previous)  # stage steps - 2: kept for the store
                    else:
                        empty[previous].arrive()
                previous = slot
                slot += 1
                if slot == stages:
                    slot, parity = 0, parity ^ 1
            if staging_here:
                if hold:
                    held.append(previous)
                else:  # released as the register store does, the slots the store then uses
                    empty[previous].arrive()
                    held = [(previous - 1) % stages, previous]
                yield from meet_store.meet()  # no wgmma still reads the held slots
                yield from staged_store(w, tile, held[w // 4 % slots])
                if hold:
                    for slot_held in held:
                        empty[slot_held].arrive()
                continue
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
    kernel, staged = outcomes(), outcomes(staged=True)
    print("the kernel's protocol:", kernel)
    print("without the release of a tile's last stage:", outcomes(release_last=False))
    print("with one row table:", outcomes(tables=1))
    print("the staged store through the tile's last two slots:", staged)
    print("  its held slots released before the store:", outcomes(staged=True, hold=False))
    print("  one slot for both warpgroups:", outcomes(staged=True, slots=1))
    print("  no meeting between the halves:", outcomes(staged=True, half_barrier=False))
    sys.exit(0 if kernel == staged == {"ok": 300} else 1)
