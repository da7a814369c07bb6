"""Run 318: on the TF32 suite rows furthest from their targets, time "auto" against tconv's autotune (each pass's
candidates timed once per signature) in one process, then print what the autotune picked per pass and each
candidate's median, to find rows where an existing kernel beats the heuristic's choice."""
import os
import sys

os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "scripts"))
sys.path.insert(0, os.getcwd())
import quick_timing  # noqa: E402
import tconv  # noqa: E402

out = os.environ.get("OUT", "/tmp/tconv_out")
problems = sys.argv[1:]
quick_timing.main(problems + ["--precision", "tf32", "--algorithm", "auto", "autotune", "--runs", "10",
                              "--warmup", "2", "--json", os.path.join(out, "quick_autotune.json")])
for key, tuning in tconv._autotune.autotune_cache().items():
    times = ", ".join(f"{name} {ms:.3f}" for name, ms in sorted(tuning.times_ms.items(), key=lambda kv: kv[1]))
    print(f"{str(key)[:150]}\n    winner {tuning.winner}: {times}; refused {sorted(tuning.refused)}")
