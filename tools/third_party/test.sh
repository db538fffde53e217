#!/usr/bin/env bash
# The third-party stage can fail: run.sh must exit non-zero when it compares no game (a
# WTHOR file with a header and no record) and when a reader compares fewer games than
# `--min` asks (WTH_1977.wtb holds 12). .ci/test runs this before the stage itself.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failed=0

# expect_failure NAME EXPECTED-TEXT ARGS...: run.sh ARGS must exit non-zero, saying EXPECTED-TEXT.
expect_failure() {
    local name="$1" expected="$2"
    shift 2
    if "$here/run.sh" "$@" >"$work/out" 2>&1; then
        echo "FAIL: $name: run.sh exited 0"
        failed=1
    elif ! grep -qF -- "$expected" "$work/out"; then
        echo "FAIL: $name: run.sh failed, but without \"$expected\""
        failed=1
    else
        echo "ok: $name: run.sh exits non-zero ($expected)"
        return
    fi
    sed 's/^/    /' "$work/out"
}

# An empty year: the 16-byte header (created 2021-01-01, 0 games, year 2021, 8x8), no record.
printf '\x14\x15\x01\x01\x00\x00\x00\x00\x00\x00\xe5\x07\x08\x00\x00\x00' >"$work/WTH_2021.wtb"
cp "$root/data/wthor/WTHOR.JOU" "$root/data/wthor/WTHOR.TRN" "$work/"
[ "$(wc -c <"$work/WTH_2021.wtb")" -eq 16 ] || { echo "FAIL: the empty file is not 16 bytes"; exit 1; }
expect_failure "an empty .wtb" "compared 0 games with" "$work/WTH_2021.wtb"
# Fewer games than asked for: 12 games, at least 13 required.
expect_failure "--min 13 on 12 games" "too few: at least 13 required" --min 13 "$root/data/wthor/WTH_1977.wtb"
exit "$failed"
