"""tests/sanitize_small.py (the compute-sanitizer driver, GPU only) runs to its end on the CPU path: every call in it
has valid arguments, so the sanitizer runs cover all of it (a call with output_padding >= stride once stopped them
early without failing anything)."""
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_sanitize_small_runs_to_the_end_on_cpu():
    env = dict(os.environ, TCONV_SANITIZE_DEVICE="cpu", PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    result = subprocess.run([sys.executable, str(ROOT / "tests" / "sanitize_small.py")], env=env, capture_output=True,
                            text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip().splitlines()[-1].startswith("sanitize_small: ran forward, grad_input, grad_weight")
