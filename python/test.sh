#!/usr/bin/env bash
# Builds the Python package's wheel (release, abi3 manylinux) and runs its tests
# (python/tests, on fixtures/ and the real data in data/, which they require).
#
#     python/test.sh             # the whole suite, on the wheel installed into a fresh
#                                # virtual environment without Rust (python/wheel_test.sh)
#     python/test.sh -k table    # pytest arguments: the suite (or part) in python/.venv
#
# The wheel is built once, into python/target/wheels, and installed into python/.venv too
# (the benchmark's environment). VENV sets that environment's directory.
set -euo pipefail
cd "$(dirname "$0")"
venv=${VENV:-.venv}
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    "maturin>=1.5,<2" numpy pytest hypothesis pyarrow mypy
VIRTUAL_ENV="$PWD/$venv" PATH="$PWD/$venv/bin:$PATH" \
    "$venv/bin/maturin" build --release --locked --quiet -o target/wheels
wheel=$(ls -t target/wheels/reversi_record-*.whl | head -n 1)
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --force-reinstall \
    --no-deps "$wheel"
if [ $# -eq 0 ]; then
    # Two tests compare with the command line's output: its binary, built now (debug, as
    # the root's tests build it), for the environment without cargo.
    (cd .. && cargo build --quiet --features cli --bin reversi)
    REVERSI_CLI=$(cd .. && pwd)/target/debug/reversi
    [ -n "${CARGO_TARGET_DIR:-}" ] && REVERSI_CLI=$CARGO_TARGET_DIR/debug/reversi
    export REVERSI_CLI
    exec ./wheel_test.sh "$wheel"
fi
# The installed package, not the source folder's: `pytest` (not `python -m pytest`), run
# from tests/ (the subprocesses of the tests start there too).
venv=$(cd "$venv" && pwd)
cd tests
"$venv/bin/pytest" -q -rs -p no:cacheprovider . "$@"
