#!/usr/bin/env bash
# Installs the package's wheel into a fresh virtual environment that has no Rust toolchain
# on its PATH (no `cargo`, no `rustc`) and runs the test suite against the installed copy.
#
#     python/wheel_test.sh [WHEEL] [-- PYTEST ARGS...]
#
# WHEEL defaults to the one `python/test.sh` builds (python/target/wheels/*.whl). pip takes
# binaries only (`--only-binary :all:`): nothing is compiled at install time.
set -euo pipefail
cd "$(dirname "$0")"
here=$PWD
wheel=""
if [ $# -gt 0 ] && [ "$1" != "--" ]; then
    wheel=$1
    shift
fi
[ "${1:-}" = "--" ] && shift
if [ -z "$wheel" ]; then
    wheel=$(ls -t target/wheels/reversi_record-*.whl 2>/dev/null | head -n 1 || true)
fi
if [ -z "$wheel" ] || [ ! -f "$wheel" ]; then
    echo "wheel_test.sh: no wheel; python/test.sh builds one into python/target/wheels" >&2
    exit 2
fi
wheel=$(cd "$(dirname "$wheel")" && pwd)/$(basename "$wheel")
case "$wheel" in
    *-abi3-manylinux*) ;;
    *) echo "wheel_test.sh: $wheel is not an abi3 manylinux wheel" >&2; exit 1 ;;
esac

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A PATH without the directories that hold cargo or rustc.
path=""
IFS=: read -ra dirs <<< "$PATH"
for d in "${dirs[@]}"; do
    if [ -e "$d/cargo" ] || [ -e "$d/rustc" ]; then
        continue
    fi
    path=${path:+$path:}$d
done
venv=$work/venv
env PATH="$path" python3 -m venv "$venv"
run() { env -u VIRTUAL_ENV -u CARGO_HOME -u RUSTUP_HOME PATH="$venv/bin:$path" "$@"; }
if run sh -c 'command -v cargo || command -v rustc' >/dev/null; then
    echo "wheel_test.sh: a Rust toolchain is still on the PATH" >&2
    exit 1
fi
run "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --only-binary :all: \
    "$wheel" pytest hypothesis pyarrow mypy
# The tests import the installed package, not the source tree: run from elsewhere.
cd "$work"
run "$venv/bin/python" - "$here" <<'EOF'
import sys
from pathlib import Path
import reversi_record
where = Path(reversi_record.__file__).resolve()
source = Path(sys.argv[1]).resolve()
assert source not in where.parents, f"the source tree's package was imported: {where}"
print(f"wheel_test.sh: reversi_record from {where.parent}")
EOF
run "$venv/bin/pytest" -q -rs -p no:cacheprovider "$here/tests" "$@"
