#!/usr/bin/env bash
# Builds the Python package in a virtual environment and runs its tests
# (python/tests, on fixtures/ and the real data in data/, which they require).
# VENV sets the environment's directory (default python/.venv, reused between runs).
set -euo pipefail
cd "$(dirname "$0")"
venv=${VENV:-.venv}
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    "maturin>=1.5,<2" numpy pytest hypothesis pyarrow
# A release build of the extension, installed into the environment.
VIRTUAL_ENV="$PWD/$venv" PATH="$PWD/$venv/bin:$PATH" \
    "$venv/bin/maturin" develop --release --locked --quiet
"$venv/bin/python" -m pytest -q -rs tests "$@"
