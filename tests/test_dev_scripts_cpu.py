"""The sweep scripts' shared options (scripts/dev_common.py): --only selects rows of a SHAPES table by name."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
import dev_common  # noqa: E402

SHAPES = [("l1_68", [16, 32, 64, 64, 64]), ("l1_71", [8, 32, 512, 1024]), ("fam02", [16, 32, 16, 32, 64])]


def test_only_selects_the_named_rows_in_table_order():
    args = dev_common.sweep_arguments("doc", ["--only", "fam02", "l1_68", "absent"])
    assert [row[0] for row in dev_common.selected(SHAPES, args.only)] == ["l1_68", "fam02"]


def test_without_only_every_row_runs():
    args = dev_common.sweep_arguments("doc", [])
    assert dev_common.selected(SHAPES, args.only) == SHAPES


import smem_bank_model  # noqa: E402


def test_bank_model_gives_run_287s_conflicts_and_the_patchs_skew_removes_the_read_ones():
    """L1-71's row-tile window (10 rows x 9 chunks): ncu (run 287) measured 4-way read and 2-way write conflicts in
    unit_stride_mma's transpose; the model gives the same, and with session44-transpose_skew.patch's layout reads at
    the conflict-free count on row and folded windows, writes unchanged."""
    reads, writes = smem_bank_model.model(10, 9, skew=False)
    assert 3.8 < reads <= 4.0 and 1.9 < writes <= 2.0
    for rows, chunks in ((10, 9), (10, 10), (1, 67), (3, 5)):
        reads, writes = smem_bank_model.model(rows, chunks, skew=True)
        assert reads == 1.0 and writes < 2.0


def test_bank_model_fp32_window_reads_conflict_free_and_the_store_order_removes_the_write_conflicts():
    """The fp32 window of 72f68c3 (16 channels, raw rows skewed): run 307's ncu (L1-71 TF32) counted no excess
    wavefronts on the transpose's reads and 2x on its writes; the model gives the same, and with odd units storing
    their positions as 1 0 3 2, writes at the conflict-free count (row and folded windows)."""
    for rows, chunks in ((10, 9), (10, 10), (1, 68), (3, 5)):
        reads, writes = smem_bank_model.model_fp32(rows, chunks)
        assert reads == 1.0 and 1.8 < writes <= 2.0  # < 2 where a partial last warp or a row's wrap saves a few
        reads, writes = smem_bank_model.model_fp32(rows, chunks, order=True)
        assert reads == 1.0 and writes == 1.0


def test_bank_model_16bit_store_order_removes_the_write_conflicts():
    for rows, chunks in ((10, 9), (1, 67)):
        assert smem_bank_model.model(rows, chunks, skew=True, order=True) == (1.0, 1.0)
