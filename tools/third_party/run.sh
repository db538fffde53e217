#!/usr/bin/env bash
# Third-party readers read what reversi-record writes: converts WTHOR years to SGF, WTHOR
# (with name files, into an empty folder) and JSON, then reads them back with sgfmill, PyPI
# `sgf`, the `sgf-parse` and `wthor` crates (creversi when it installs) and compares names,
# moves and results game by game (compare.py).
#
#     tools/third_party/run.sh [--sample N] [--min N] [FILE.wtb ...]
#
# Without files: the WTHOR years of the folder REVERSI_ARCHIVE names (such as the whole
# FFO base), and when it is unset those the repository carries (data/wthor, 14,357 games;
# data/SOURCES.md). `--sample N` compares the first N games (CI); without it, every game.
# Every reader must compare at least `--min N` games (default: the sample, else 1): a run
# that compares nothing fails (tools/third_party/test.sh checks that it does).
# VENV sets the virtual environment (default tools/third_party/.venv).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
sample=()
files=()
while [ $# -gt 0 ]; do
    case "$1" in
        --sample) sample+=(--sample "$2"); shift 2 ;;
        --min) sample+=(--min "$2"); shift 2 ;;
        *) files+=("$1"); shift ;;
    esac
done
if [ ${#files[@]} -eq 0 ]; then
    folder="${REVERSI_ARCHIVE:-$root/data/wthor}"
    shopt -s nullglob
    files=("$folder"/*.wtb)
    shopt -u nullglob
    if [ ${#files[@]} -eq 0 ]; then
        echo "run.sh: no .wtb file in $folder (REVERSI_ARCHIVE names a folder of WTHOR files; unset, data/wthor)" >&2
        exit 2
    fi
fi
names=()
for f in "${files[@]}"; do names+=("$(basename "$f")"); done
echo "third-party readers on ${#files[@]} WTHOR file(s): ${names[*]}"
venv=${VENV:-$here/.venv}
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$here/requirements.txt"
creversi=absent
if "$venv/bin/python" -c "import creversi" 2>/dev/null ||
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check creversi >/dev/null 2>&1; then
    creversi=installed
fi
cargo build --quiet --locked --features cli --manifest-path "$root/Cargo.toml"
cargo build --quiet --locked --manifest-path "$here/readers/Cargo.toml"
# Where cargo put them: CARGO_TARGET_DIR when set (as .ci/run sets it), else each crate's target/.
reversi="${CARGO_TARGET_DIR:-$root/target}/debug/reversi"
readers="${CARGO_TARGET_DIR:-$here/readers/target}/debug/third-party-readers"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir "$work/names"
for f in "${files[@]}"; do
    base="$(basename "$f" .wtb)"
    "$reversi" convert -q "$f" --to json:lines -o "$work/$base.jsonl"
    "$reversi" convert -q "$f" --to sgf --lossy -o "$work/$base.sgf"
    # Through the record (as a keeper's edited RGN or JSON would go): the names are
    # looked up again and written into the empty names folder.
    "$reversi" convert -q "$work/$base.jsonl" --to wthor --names "$work/names" -o "$work/$base.wtb"
    # The original as the wthor crate reads it: its scores are the results' oracle.
    "$readers" wthor "$f" "$(dirname "$f")/WTHOR.JOU" > "$work/$base.original.crate.jsonl" 2>/dev/null ||
        : > "$work/$base.original.crate.jsonl"
    # No game written, no name file: nothing read (compare.py then counts the games missing).
    if [ -f "$work/names/WTHOR.JOU" ]; then
        "$readers" wthor "$work/$base.wtb" "$work/names/WTHOR.JOU" > "$work/$base.wthor.crate.jsonl"
    else
        : > "$work/$base.wthor.crate.jsonl"
    fi
    # A reader that fails reads nothing: compare.py counts the games it missed (and fails).
    "$readers" sgf "$work/$base.sgf" > "$work/$base.sgf.crate.jsonl" ||
        : > "$work/$base.sgf.crate.jsonl"
done
"$venv/bin/python" "$here/compare.py" "${sample[@]}" --creversi "$creversi" "$work"
