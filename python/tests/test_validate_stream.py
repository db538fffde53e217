"""`validate(..., stream=True)`: the findings of a run as an iterator, its memory flat
whatever their number (an 8 MB file of findings under 200 MB in a fresh process), the same
findings as `validate()` gives in its lists, and stopped by `close()`, a `with` block or
Ctrl-C."""

import json
import signal
import subprocess
import sys
import textwrap
import time

import pytest

import reversi_record as rr
from conftest import FIXTURES, ROOT, data, reversi_cli

# The bound of issue 50 for an 8 MB file of findings.
MAX_PEAK_MB = 200


def unfinished_games(path, size):
    """Writes move strings of about `size` bytes to `path`: prefixes of the real games of
    data/wthor, each stopping before the game's end, so each holds exactly one finding
    (`unfinished`). Returns how many games were written."""
    games = []
    for wtb in sorted(data("wthor").glob("*.wtb")):
        for game in rr.read(wtb, names=data("wthor")):
            if game.is_valid and "--" not in game.moves and len(game.moves) >= 58:
                games.append("".join(game.moves))
    assert len(games) > 10_000
    lines, written = [], 0
    for plies in (40, 30, 50, 25, 35, 45, 55, 20, 28, 38, 48, 57):
        for moves in games:
            line = moves[: 2 * plies] + "\n"
            lines.append(line)
            written += len(line)
            if written >= size:
                path.write_text("".join(lines))
                return len(lines)
    pytest.fail("not enough games for the file")


# Peak resident memory of this process's own memory since its exec (Linux's VmHWM, not
# ru_maxrss, which keeps the peak of the process it was forked from: pytest's).
PEAK = """
    def peak_mb():
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
        raise AssertionError("no VmHWM in /proc/self/status")
"""


def run_child(script, *args):
    """Runs `script` (after a function `peak_mb()`) in a fresh Python; its last line of
    output as JSON."""
    proc = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(PEAK) + textwrap.dedent(script), *map(str, args)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


STREAMED = """
    import json, sys
    import reversi_record as rr
    codes, games = {}, set()
    with rr.validate(sys.argv[1], allow=["duplicate-game"], stream=True) as found:
        for d in found:
            codes[d.code] = codes.get(d.code, 0) + 1
            games.add(d.game)
        summary = found.summary
    print(json.dumps({"codes": codes, "games": len(games), "summary": summary, "peak": peak_mb()}))
"""

WRITTEN = """
    import json, sys
    import reversi_record as rr
    summary = rr.validate(sys.argv[1], allow=["duplicate-game"], output=sys.argv[2])["summary"]
    peak = peak_mb()
    codes, games = {}, set()
    with open(sys.argv[2]) as lines:
        for line in lines:
            d = json.loads(line)
            if "summary" in d:
                assert d["summary"] == summary
                continue
            codes[d["code"]] = codes.get(d["code"], 0) + 1
            games.add(d["game"])
    print(json.dumps({"codes": codes, "games": len(games), "summary": summary, "peak": peak}))
"""


LISTED = """
    import json, sys
    import reversi_record as rr
    report = rr.validate(sys.argv[1], allow=["duplicate-game"])
    codes, games = {}, set()
    for d in report["diagnostics"]:
        codes[d.code] = codes.get(d.code, 0) + 1
        games.add(d.game)
    assert len(report["diagnostics"]) == sum(codes.values())
    print(json.dumps({"codes": codes, "games": len(games), "summary": report["summary"], "peak": peak_mb()}))
"""


@pytest.mark.skipif(sys.platform != "linux", reason="VmHWM is Linux's")
@pytest.mark.parametrize(
    "script", [STREAMED, WRITTEN, LISTED], ids=["stream", "output", "lists"]
)
def test_validation_of_8_mb_of_findings_stays_under_200_mb(tmp_path, script):
    path = tmp_path / "unfinished.txt"
    planted = unfinished_games(path, 8 << 20)
    assert path.stat().st_size >= 8 << 20
    out = run_child(script, path, tmp_path / "found.jsonl")
    # Every planted finding, each game once, nothing else.
    assert out["codes"] == {"unfinished": planted}, out
    assert out["games"] == planted
    assert out["summary"]["games"] == planted and out["summary"]["warnings"] == planted
    assert out["peak"] < MAX_PEAK_MB, f"peak {out['peak']:.0f} MB for {planted} findings"


def test_output_writes_the_lines_of_the_command_line(tmp_path):
    mixed = FIXTURES / "cli" / "mixed.rgn"
    out = tmp_path / "found.jsonl"
    report = rr.validate([mixed, mixed], output=out)
    assert set(report) == {"summary"} and report["summary"]["games"] == 12
    ours = [json.loads(line) for line in out.read_text().splitlines()]
    cli = subprocess.run(
        [reversi_cli(ROOT), "validate", "--format", "jsonl", str(mixed), str(mixed)],
        capture_output=True,
        text=True,
    )
    assert cli.returncode == 1, cli.stderr
    theirs = [json.loads(line) for line in cli.stdout.splitlines()]
    assert ours == theirs
    # Each game's diagnostics, each input's counts, the copies across games, the summary.
    assert [("file" in d and "games" in d and "code" not in d) for d in ours].count(True) == 2
    assert any(d.get("code") == "duplicate-game" for d in ours)
    assert ours[-1] == {"summary": report["summary"]}


def test_output_is_written_only_when_the_run_ends_well(tmp_path):
    mixed = FIXTURES / "cli" / "mixed.rgn"
    out = tmp_path / "found.jsonl"
    # An input is never written over.
    copy = tmp_path / "mixed.rgn"
    copy.write_bytes(mixed.read_bytes())
    with pytest.raises(rr.WriteError):
        rr.validate(copy, output=copy)
    assert copy.read_bytes() == mixed.read_bytes()
    # A folder that is not there: nothing made.
    with pytest.raises(rr.WriteError):
        rr.validate(mixed, output=tmp_path / "no" / "found.jsonl")
    with pytest.raises(rr.UsageError):
        rr.validate(mixed, output=out, stream=True)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mixed.rgn"]


def test_the_stream_gives_what_the_lists_give():
    mixed = FIXTURES / "cli" / "mixed.rgn"
    gathered = rr.validate([mixed, mixed], jobs=2)
    with rr.validate([mixed, mixed], jobs=2, stream=True) as found:
        assert found.summary is None and not found.closed
        streamed = list(found)
        assert found.closed and found.count == len(streamed)
        assert found.summary == gathered["summary"]
    per_game = [d for d in streamed if d.game is not None]
    across = [d for d in streamed if d.game is None]
    assert [d.to_dict() for d in per_game] == [d.to_dict() for d in gathered["diagnostics"]]
    # The second copy of the file: each game a duplicate of the first's.
    assert across and [d.to_dict() for d in across] == gathered["findings"]
    assert {d.code for d in across} == {"duplicate-game"} and all(d["games"] for d in across)
    assert all(isinstance(d, rr.Diagnostic) for d in streamed)
    assert list(found) == []


def test_a_closed_stream_gives_nothing_more():
    mixed = FIXTURES / "cli" / "mixed.rgn"
    found = rr.validate(mixed, stream=True)
    first = next(found)
    assert first.code and "running" in repr(found)
    found.close()
    assert found.closed and found.summary is None and list(found) == []
    assert "closed" in repr(found)
    # Dropped half way: the run's thread ends on its own.
    for _ in range(20):
        next(iter(rr.validate([mixed] * 50, stream=True)))


def test_a_failed_input_is_a_read_error_at_the_end(tmp_path):
    with pytest.raises(rr.ReadError):
        rr.validate(tmp_path / "missing.rgn", stream=True)


def interrupt(script):
    """Runs `script` in a fresh Python, sends SIGINT one second after it prints "ready",
    and returns (seconds from the signal to the end, stdout, stderr, exit code)."""
    proc = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(script)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "ready", proc.communicate()[1]
    time.sleep(1.0)
    assert proc.poll() is None, "the run ended before the signal: make it longer"
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    return time.monotonic() - sent, out, err, proc.returncode


def test_ctrl_c_stops_a_stream_within_half_a_second(tmp_path):
    path = tmp_path / "unfinished.txt"
    unfinished_games(path, 1 << 20)
    seconds, out, err, code = interrupt(
        f"""
        import sys, time
        import reversi_record as rr
        found = rr.validate([{str(path)!r}] * 400, allow=["duplicate-game"], stream=True)
        print("ready", flush=True)
        n = 0
        try:
            for d in found:
                n += 1
                if n % 1000 == 0:
                    time.sleep(0.001)
        except KeyboardInterrupt:
            print("KeyboardInterrupt", flush=True)
            # The run stopped: a new one starts at once.
            assert next(rr.validate({str(path)!r}, stream=True)).code == "unfinished"
            sys.exit(3)
        print("finished", n, flush=True)
        """
    )
    assert "PanicException" not in err, err
    assert "KeyboardInterrupt" in out, (out, err)
    assert code == 3, (code, err)
    assert seconds < 0.5, f"{seconds:.2f} s from the signal to the end"


def test_ctrl_c_stops_output_and_leaves_no_file(tmp_path):
    path = tmp_path / "unfinished.txt"
    unfinished_games(path, 1 << 20)
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    seconds, out, err, code = interrupt(
        f"""
        import sys
        import reversi_record as rr
        print("ready", flush=True)
        try:
            rr.validate([{str(path)!r}] * 400, allow=["duplicate-game"], output={str(out_dir / "found.jsonl")!r})
        except KeyboardInterrupt:
            print("KeyboardInterrupt", flush=True)
            sys.exit(3)
        print("finished", flush=True)
        """
    )
    assert "KeyboardInterrupt" in out, (out, err)
    assert code == 3 and seconds < 0.5, (code, seconds, err)
    # Neither the file nor its temporary.
    assert list(out_dir.iterdir()) == []


def test_the_lists_findings_are_a_sequence_kept_on_disk(tmp_path):
    mixed = FIXTURES / "cli" / "mixed.rgn"
    report = rr.validate([mixed, mixed])
    found = report["diagnostics"]
    streamed = [d for d in rr.validate([mixed, mixed], stream=True) if d.game is not None]
    assert isinstance(found, rr.Findings) and len(found) == len(streamed) > 2
    assert found == streamed and list(found) == streamed
    assert found[0] == streamed[0] and found[-1] == streamed[-1]
    assert found[1:3] == streamed[1:3] and found[::-1] == streamed[::-1]
    with pytest.raises(IndexError):
        found[len(found)]
    with pytest.raises(TypeError):
        found["code"]
    assert [d.code for d in found] == [d["code"] for d in found]
    import pickle

    assert pickle.loads(pickle.dumps(found)) == streamed
    assert "kept on disk" in repr(found)
