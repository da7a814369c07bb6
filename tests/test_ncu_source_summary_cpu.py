"""scripts/ncu_source_summary.py on a synthetic Nsight Compute source page (the CSV layout of run 114's)."""
import gzip
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
import ncu_source_summary  # noqa: E402

HEADER = ('"Address","Source","# Samples","Instructions Executed","stall_long_sb","stall_wait",'
          '"stall_long_sb (Not Issued)","stall_wait (Not Issued)"')
ROWS = [
    ('"0x10","      HGMMA.64x128x8.F32.TF32 R24, R88, gdesc[UR4], R24","10","100","0","10","0","10"'),
    ('"0x20","      SYNCS.PHASECHK.TRANS64.TRYWAIT P2, [R129+URZ], R132","2","100","0","2","0","2"'),
    ('"0x30","      SEL R131, R19, RZ, P0","3","100","1","2","1","2"'),
    ('"0x40","      @!P2  BRA 0x7fdb677b1f10","80","100","78","2","78","2"'),
    ('"0x50","      LDS R89, [R88+0x200]","5","100","0","5","0","5"'),
    ('"0x60","      SYNCS.PHASECHK.TRANS64.TRYWAIT P0, [R95+URZ], R92","0","0","0","0","0","0"'),
]


def write_page(path: Path, compressed: bool) -> None:
    text = "==PROF== Connected\n" + '"Kernel Name","gather_kernel",\n' + "\n".join([HEADER] + ROWS) + "\n"
    if compressed:
        with gzip.open(path, "wt") as f:
            f.write(text)
    else:
        path.write_text(text)


def test_summary_counts_reasons_hot_lines_and_mbarrier_spins(tmp_path):
    for compressed in (False, True):
        path = tmp_path / ("page.csv.gz" if compressed else "page.csv")
        write_page(path, compressed)
        kernel, rows = ncu_source_summary.load(str(path))
        assert "gather_kernel" in kernel and len(rows) == 6
        lines = ncu_source_summary.summarize(rows, top=2)
        assert lines[0] == "samples 100, SASS instructions 6"
        assert lines[1].split()[:3] == ["long_sb", "79", "79.0"]
        hot = [line for line in lines if "BRA" in line or "HGMMA" in line]
        assert len(hot) == 2 and "long_sb 78" in hot[1]
        # the spin on the executed try_wait runs to its branch (2 + 3 + 80); the never-executed one is left out
        spins = lines[lines.index("mbarrier waits (samples from the try_wait to the branch that retries it):") + 1:]
        assert len(spins) == 1 and "samples      85" in spins[0] and "85.0 %" in spins[0]


def test_segments_share_samples_by_instruction_runs_and_name_their_kinds(tmp_path):
    path = tmp_path / "page.csv"
    write_page(path, False)
    _, rows = ncu_source_summary.load(str(path))
    lines = ncu_source_summary.segments(rows, 4)
    assert len(lines) == 3
    first, second = lines[1].split(), lines[2].split()
    assert first[:5] == ["0", "3", "95", "95.0", "%"] and first[5] == "100" and first[6:] == ["HGMMA"]
    assert second[:5] == ["4", "5", "5", "5.0", "%"] and second[6:] == ["LDS"]
    assert ncu_source_summary.opcode("      @!P2  BRA 0x7fdb677b1f10") == "BRA"
    assert ncu_source_summary.opcode("  LDGSTS.E.BYPASS.128 [R1], desc[UR4][R2.64]") == "LDGSTS.E.BYPASS.128"
