"""Ctrl-C interrupts every long call within half a second, in a fresh process (the first
call, which also fetches numpy's C API) and later, with `KeyboardInterrupt` (never a
`PanicException`)."""

import signal
import subprocess
import sys
import textwrap
import time

import pytest

from conftest import data

WTHOR = data("wthor", "WTH_2004.wtb")

# Each call runs for seconds (far longer than the half second after the signal).
LONG_CALLS = {
    "perft": "rr.Position().perft(14, jobs=2)",
    "dataset": f"rr.dataset([{str(WTHOR)!r}] * 600, boards=False)",
    "validate": f"rr.validate([{str(WTHOR)!r}] * 2000)",
    # Waiting in Rust for the next finding of a stream, and writing them to a file.
    "validate stream": f"sum(1 for _ in rr.validate([{str(WTHOR)!r}] * 2000, stream=True))",
    "validate output": f"rr.validate([{str(WTHOR)!r}] * 2000, output=__import__('tempfile').mktemp(suffix='.jsonl'))",
    "to_numpy": "rr.to_numpy(GAMES * 3000)",
    # Writing and reading back 60,000 games; converting and ranking files of them.
    "write": "rr.write(GAMES * 600)",
    "convert": f"rr.convert([{str(WTHOR)!r}] * 300, __import__('tempfile').mktemp(suffix='.rgn'), lossy=True)",
    "standings": f"rr.standings([{str(WTHOR)!r}] * 600)",
    "games": f"rr.games([{str(WTHOR)!r}] * 600)",
    "to_numpy of a reader": "rr.to_numpy(rr.read(b'f5d6c3d3c4f4f6f3e6e7d7c5b6d8c6c7\\n' * 3_000_000), boards=False)",
}


def interrupted(call, warm_up):
    """Runs `call` in a fresh Python (after `warm_up` short calls when asked), sends SIGINT
    one second in, and returns (seconds from the signal to the call's end, its standard
    output, its standard error, its exit code)."""
    script = textwrap.dedent(
        f"""
        import sys
        import reversi_record as rr
        GAMES = list(rr.read({str(WTHOR)!r}))[:100] if {"GAMES" in call} else []
        if {warm_up}:
            rr.Position().perft(3)
            rr.dataset({str(WTHOR)!r}, boards=False)
        print("ready", flush=True)
        try:
            {call}
        except KeyboardInterrupt:
            print("KeyboardInterrupt", flush=True)
            sys.exit(3)
        print("finished", flush=True)
        """
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert proc.stdout.readline().strip() == "ready", proc.stderr.read()
    time.sleep(1.0)
    assert proc.poll() is None, "the call ended before the signal: make it longer"
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    # The call ends when Python has its `KeyboardInterrupt` (the line the script prints
    # then), not when the process has freed everything and exited.
    first = proc.stdout.readline()
    seconds = time.monotonic() - sent
    out, err = proc.communicate(timeout=60)
    return seconds, first + out, err, proc.returncode


@pytest.mark.parametrize("warm_up", [False, True], ids=["first call", "later call"])
@pytest.mark.parametrize("name", sorted(LONG_CALLS))
def test_ctrl_c_interrupts_a_long_call_within_half_a_second(name, warm_up):
    seconds, out, err, code = interrupted(LONG_CALLS[name], warm_up)
    assert "PanicException" not in err, err
    assert "KeyboardInterrupt" in out, (out, err)
    assert code == 3, (code, err)
    assert seconds < 0.5, f"{name}: {seconds:.2f} s from the signal to the call's end"
