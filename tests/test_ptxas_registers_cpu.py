"""The register-table check of scripts/compile_check.sh (scripts/ptxas_registers.py), on ptxas -v text."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
import ptxas_registers  # noqa: E402

# The shape of `nvcc -Xptxas -v` output (nvcc 13.0): one kernel for two archs, one with spills. The anonymous
# namespace identifier differs between the two, as it does between two clones of the repository.
LOG = """ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function '_ZN5tconv58_GLOBAL__N__0865e2b7_25_conv_transpose_grouped_cu_b0333d4532tconv_grouped_grad_weight_kernelIfLi8ELi8EEEvv' for 'sm_80'
ptxas info    : Function properties for _ZN5tconv58_GLOBAL__N__0865e2b7_25_conv_transpose_grouped_cu_b0333d4532tconv_grouped_grad_weight_kernelIfLi8ELi8EEEvv
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 64 registers, used 1 barriers
ptxas info    : Compile time = 101.888 ms
ptxas warning : Registers are spilled to local memory in function 'x', 8 bytes spill stores, 12 bytes spill loads
ptxas info    : Compiling entry function '_ZN5tconv58_GLOBAL__N__11111111_25_conv_transpose_grouped_cu_2222222232tconv_grouped_grad_weight_kernelIfLi8ELi8EEEvv' for 'sm_90'
ptxas info    : Function properties for _ZN5tconv58_GLOBAL__N__11111111_25_conv_transpose_grouped_cu_2222222232tconv_grouped_grad_weight_kernelIfLi8ELi8EEEvv
    16 bytes stack frame, 8 bytes spill stores, 12 bytes spill loads
ptxas info    : Used 80 registers, used 1 barriers, 16 bytes cumulative stack size
"""
STABLE = "_ZN5tconv_GLOBAL__N_conv_transpose_grouped_cu_32tconv_grouped_grad_weight_kernelIfLi8ELi8EEEvv"


def test_parse_reads_each_arch_with_its_spills():
    table = ptxas_registers.parse_log(LOG)
    assert table == {("sm_80", STABLE): (64, 0, 0), ("sm_90", STABLE): (80, 8, 12)}


def test_stable_name_keeps_only_the_file_of_the_namespace_identifier():
    assert ptxas_registers.stable_name("_Z6k_nonePfPKfi") == "_Z6k_nonePfPKfi"
    name = "_ZN5tconv58_GLOBAL__N__0865e2b7_25_conv_transpose_grouped_cu_b0333d4532tconv_kernelIfEEvv"
    assert ptxas_registers.stable_name(name) == "_ZN5tconv_GLOBAL__N_conv_transpose_grouped_cu_32tconv_kernelIfEEvv"


def test_write_then_check_passes_and_a_change_fails(tmp_path, capsys):
    log = tmp_path / "a.log"
    log.write_text(LOG)
    table = tmp_path / "table.txt"
    assert ptxas_registers.main(["--write", str(table), "--nvcc-version", "13.0.88", str(log)]) == 0
    assert ptxas_registers.main(["--check", str(table), "--nvcc-version", "13.0.88", str(log)]) == 0
    log.write_text(LOG.replace("Used 80 registers", "Used 96 registers"))
    assert ptxas_registers.main(["--check", str(table), "--nvcc-version", "13.0.88", str(log)]) == 1
    err = capsys.readouterr().err
    assert "table 80 registers, spills 8/12 bytes, now 96 registers, spills 8/12 bytes" in err
    # A kernel that appears or disappears is a difference too.
    log.write_text(LOG.split("ptxas warning")[0])
    assert ptxas_registers.main(["--check", str(table), "--nvcc-version", "13.0.88", str(log)]) == 1
    assert "now absent" in capsys.readouterr().err


def test_other_nvcc_is_not_compared(tmp_path, capsys):
    log = tmp_path / "a.log"
    log.write_text(LOG)
    table = tmp_path / "table.txt"
    ptxas_registers.main(["--write", str(table), "--nvcc-version", "13.0.88", str(log)])
    log.write_text(LOG.replace("Used 80 registers", "Used 96 registers"))
    assert ptxas_registers.main(["--check", str(table), "--nvcc-version", "13.1.0", str(log)]) == 0
    assert "not compared" in capsys.readouterr().out


def test_empty_logs_fail(tmp_path):
    log = tmp_path / "a.log"
    log.write_text("ptxas info    : 0 bytes gmem\n")
    assert ptxas_registers.main(["--write", str(tmp_path / "t.txt"), "--nvcc-version", "13.0.88", str(log)]) == 1


def test_serialized_wgmma_fails_both_modes(tmp_path, capsys):
    name = "_ZN5tconv56_GLOBAL__N__6b67dae7_23_conv_transpose_igemm_cu_59789a1e16tconv_sx_kernelILi5EEEvv"
    serialized = (f"ptxas info    : (C7511) Potential Performance Loss: wgmma.mma_async instructions are serialized "
                  f"due to insufficient register resources for the wgmma pipeline in the function '{name}'\n")
    assert ptxas_registers.serialized_wgmma(serialized) == [
        "_ZN5tconv_GLOBAL__N_conv_transpose_igemm_cu_16tconv_sx_kernelILi5EEEvv"]
    assert ptxas_registers.serialized_wgmma(LOG) == []
    injected = ("ptxas info    : (C7519) warpgroup.arrive is injected in around line 17910 by compiler to allow use of "
                f"registers in GMMA in function '{name}'\n")
    assert ptxas_registers.serialized_wgmma(injected) == ptxas_registers.serialized_wgmma(serialized)
    log = tmp_path / "a.log"
    log.write_text(LOG)
    table = tmp_path / "table.txt"
    assert ptxas_registers.main(["--write", str(table), "--nvcc-version", "13.0.88", str(log)]) == 0
    log.write_text(LOG + serialized)
    assert ptxas_registers.main(["--check", str(table), "--nvcc-version", "13.0.88", str(log)]) == 1
    assert "tconv_sx_kernelILi5EEEvv" in capsys.readouterr().err
    assert ptxas_registers.main(["--write", str(table), "--nvcc-version", "13.0.88", str(log)]) == 1


def test_update_replaces_only_the_rows_of_the_compiled_files(tmp_path, capsys):
    other = "_ZN5tconv_GLOBAL__N_conv_transpose_direct_cu_9tconv_kernelIfEEvv"
    gone = "_ZN5tconv_GLOBAL__N_conv_transpose_grouped_cu_11tconv_removedIfEEvv"
    table = tmp_path / "table.txt"
    table.write_text(f"# nvcc 13.0.88\nsm_80 40 0 0 {other}\nsm_80 50 0 0 {gone}\nsm_80 60 0 0 {STABLE}\n")
    log = tmp_path / "a.log"
    log.write_text(LOG)
    assert ptxas_registers.main(["--update", str(table), "--nvcc-version", "13.0.88", str(log)]) == 0
    _, rows = ptxas_registers.read_table(table)
    assert rows == {("sm_80", other): (40, 0, 0), ("sm_80", STABLE): (64, 0, 0), ("sm_90", STABLE): (80, 8, 12)}
    # A table from another nvcc is refreshed whole, not patched.
    assert ptxas_registers.main(["--update", str(table), "--nvcc-version", "13.1.0", str(log)]) == 1
    assert "refresh it whole" in capsys.readouterr().err
