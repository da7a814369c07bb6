"""Register and spill counts of every kernel, from `nvcc -Xptxas -v` logs, checked against a committed table.

Why: 282c8e2 changed one `__launch_bounds__` argument from absent to 1, ptxas gave most grad_weight kernels
10-25 % more registers, and the L1-68 gain of run 67 was gone for two sessions before anyone looked (run 79).
CI compiles every kernel anyway (scripts/compile_check.sh), so it also compares what ptxas reports with
scripts/ptxas_registers.txt. Any difference fails the check. If the change is intended, refresh the table
(`PTXAS_TABLE=write bash scripts/compile_check.sh`) and commit it, so the diff shows which kernels moved.

    python3 scripts/ptxas_registers.py --check scripts/ptxas_registers.txt --nvcc-version 13.0.88 LOG...
    python3 scripts/ptxas_registers.py --write scripts/ptxas_registers.txt --nvcc-version 13.0.88 LOG...
    python3 scripts/ptxas_registers.py --update scripts/ptxas_registers.txt --nvcc-version 13.0.88 LOG...

--update replaces only the rows of the source files the logs cover (a full refresh compiles every file, ~25 min on
CI's 2 cores; `CUDA_SOURCES=tconv/csrc/x.cu PTXAS_TABLE=update bash scripts/compile_check.sh` compiles one).

Both modes also fail where ptxas reports a wgmma performance loss, in its C75xx info lines: serialized wgmmas
(C7511 "wgmma.mma_async instructions are serialized due to ..."; notes/perf.md met C7512 and C7515 too) or a
warpgroup.arrive injected between them (C7519, "to allow use of registers in GMMA"). compile_check.sh does not
print ptxas's info lines, and these hid in the shifted-x grad_weight kernel from session 28 to 30 (C7511 for kernel
W 4, C7519 for 4 and 5, whose SASS waited on every wgmma before the next: ~8 % of L1-68's largest kernel, run 199).

Each LOG is the stderr of one nvcc call with `-Xptxas -v`. The table has one line per (arch, kernel):
registers, spill stores and spill loads (bytes), then the mangled name (its anonymous namespace reduced to
the file's name). Its first line names the nvcc it
came from; when another nvcc runs the check, counts may differ for reasons of its own, so the check says
so and passes.
"""
import argparse
import re
import sys
from pathlib import Path
from typing import Dict, Iterable, Tuple

Key = Tuple[str, str]            # (arch, mangled kernel name)
Counts = Tuple[int, int, int]    # (registers, spill store bytes, spill load bytes)

_ENTRY = re.compile(r"Compiling entry function '([^']+)' for '([^']+)'")
_SPILLS = re.compile(r"(\d+) bytes spill stores, (\d+) bytes spill loads")
_REGISTERS = re.compile(r"Used (\d+) registers")
# ptxas's C75xx performance infos about wgmma (C7510-C7515 name why it serialized them, C7519 an injected fence).
_SERIALIZED = re.compile(r"\(C75\d\d\)[^\n]*(?:wgmma|GMMA)[^\n]*function '([^']+)'")
HEADER = "# nvcc "


def stable_name(mangled: str) -> str:
    """The mangled name with its anonymous namespace's identifier reduced to the source file's name: nvcc
    writes <length>_GLOBAL__N__<hash>_<n>_<file>_<hash>, and the hashes change with the file's path (a fresh
    clone elsewhere gets others). The file stays, so kernels of the same name in two files stay apart."""
    out, i = [], 0
    for match in re.finditer(r"(\d+)_GLOBAL__N_", mangled):
        if match.start() < i:
            continue
        end = match.start(1) + len(match.group(1)) + int(match.group(1))
        identifier = mangled[match.end(1):end]
        parts = re.fullmatch(r"_GLOBAL__N__[0-9a-f]+_(\d+)_(.+)_[0-9a-f]+", identifier)
        file = parts.group(2)[:int(parts.group(1))] if parts else ""
        out.append(mangled[i:match.start()] + f"_GLOBAL__N_{file}_")
        i = end
    return "".join(out) + mangled[i:]


def parse_log(text: str) -> Dict[Key, Counts]:
    """(arch, kernel) -> counts, for every entry function ptxas compiled in one log."""
    table: Dict[Key, Counts] = {}
    key = None
    spills = (0, 0)
    for line in text.splitlines():
        entry = _ENTRY.search(line)
        if entry:
            key, spills = (entry.group(2), stable_name(entry.group(1))), (0, 0)
            continue
        if key is None:
            continue
        spill = _SPILLS.search(line)
        if spill:
            spills = (int(spill.group(1)), int(spill.group(2)))
            continue
        registers = _REGISTERS.search(line)
        if registers:
            table[key] = (int(registers.group(1)), *spills)
            key = None
    return table


def serialized_wgmma(text: str) -> list:
    """Kernels (stable names) whose wgmmas ptxas serialized or fenced, from its C75xx info lines on wgmma."""
    return sorted({stable_name(m.group(1)) for m in _SERIALIZED.finditer(text)})


def parse_logs(paths: Iterable[Path]) -> Dict[Key, Counts]:
    table: Dict[Key, Counts] = {}
    for path in paths:
        table.update(parse_log(Path(path).read_text(errors="replace")))
    return table


def format_table(table: Dict[Key, Counts], nvcc_version: str) -> str:
    lines = [f"{HEADER}{nvcc_version}"]
    lines += [f"{arch} {r} {st} {ld} {name}" for (arch, name), (r, st, ld) in sorted(table.items())]
    return "\n".join(lines) + "\n"


def read_table(path: Path) -> Tuple[str, Dict[Key, Counts]]:
    lines = path.read_text().splitlines()
    if not lines or not lines[0].startswith(HEADER):
        raise ValueError(f"{path}: first line must be '{HEADER}<version>'")
    table: Dict[Key, Counts] = {}
    for line in lines[1:]:
        arch, r, st, ld, name = line.split(" ", 4)
        table[(arch, name)] = (int(r), int(st), int(ld))
    return lines[0][len(HEADER):].strip(), table


def source_file(name: str) -> str:
    """The source file a stable kernel name comes from ('' where it has no anonymous namespace)."""
    match = re.search(r"_GLOBAL__N_(.+?_cu)_", name)
    return match.group(1) if match else ""


def updated(expected: Dict[Key, Counts], got: Dict[Key, Counts]) -> Dict[Key, Counts]:
    """The table with every row of the files in `got` replaced by `got`'s rows (kernels removed from those
    files leave the table too)."""
    files = {source_file(name) for _, name in got}
    kept = {key: counts for key, counts in expected.items() if source_file(key[1]) not in files}
    return {**kept, **got}


def differences(expected: Dict[Key, Counts], got: Dict[Key, Counts]) -> list:
    """Readable lines for every kernel added, removed or with other counts."""
    out = []
    for key in sorted(set(expected) | set(got)):
        before, after = expected.get(key), got.get(key)
        if before == after:
            continue
        arch, name = key
        describe = lambda c: "absent" if c is None else f"{c[0]} registers, spills {c[1]}/{c[2]} bytes"
        out.append(f"  {arch} {name}: table {describe(before)}, now {describe(after)}")
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", type=Path, metavar="TABLE")
    mode.add_argument("--write", type=Path, metavar="TABLE")
    mode.add_argument("--update", type=Path, metavar="TABLE")
    parser.add_argument("--nvcc-version", required=True, help="the version of the nvcc that wrote the logs")
    parser.add_argument("logs", nargs="+", type=Path)
    args = parser.parse_args(argv)
    got = parse_logs(args.logs)
    if not got:
        print("ptxas_registers: no kernels in the logs (was -Xptxas -v passed?)", file=sys.stderr)
        return 1
    serialized = sorted({name for log in args.logs for name in serialized_wgmma(log.read_text(errors="replace"))})
    if serialized:
        print("ptxas_registers: ptxas serialized or fenced the wgmmas of (its C75xx infos):\n  " +
              "\n  ".join(serialized), file=sys.stderr)
        return 1
    if args.write:
        args.write.write_text(format_table(got, args.nvcc_version))
        print(f"ptxas_registers: wrote {len(got)} kernels to {args.write}")
        return 0
    if args.update:
        version, expected = read_table(args.update)
        if version != args.nvcc_version:
            print(f"ptxas_registers: the table is from nvcc {version}, this is nvcc {args.nvcc_version}: "
                  f"refresh it whole (--write)", file=sys.stderr)
            return 1
        table = updated(expected, got)
        args.update.write_text(format_table(table, args.nvcc_version))
        print(f"ptxas_registers: updated {args.update}: {len(differences(expected, table))} rows changed, "
              f"{len(table)} kernels")
        return 0
    version, expected = read_table(args.check)
    if version != args.nvcc_version:
        print(f"ptxas_registers: the table is from nvcc {version}, this is nvcc {args.nvcc_version}: "
              f"register counts not compared")
        return 0
    diff = differences(expected, got)
    if diff:
        print(f"ptxas_registers: {len(diff)} kernels differ from {args.check}:", file=sys.stderr)
        print("\n".join(diff[:60]) + (f"\n  ... and {len(diff) - 60} more" if len(diff) > 60 else ""),
              file=sys.stderr)
        print("If intended, refresh the table (PTXAS_TABLE=write bash scripts/compile_check.sh) and commit it.",
              file=sys.stderr)
        return 1
    print(f"ptxas_registers: {len(got)} kernels as in {args.check}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
