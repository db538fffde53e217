#!/usr/bin/env bash
# The desk in a real browser: headless Chromium (Debian's chromium and chromium-driver)
# driven by selenium from a virtual environment (tests/browser/.venv, reused between runs).
# Walks the page on a file with a planted error (walk.py) and checks the DOM at each step;
# screenshots go to tests/browser/out/ (with --docs, the README's are refreshed in docs/).
# REVERSI sets the binary (default: debug/reversi in CARGO_TARGET_DIR or target/, built when
# missing).
set -euo pipefail
cd "$(dirname "$0")"
root=$(cd ../.. && pwd)
for tool in chromium chromedriver; do
    if ! command -v "$tool" >/dev/null; then
        echo "tests/browser: $tool is missing (apt-get install -y chromium chromium-driver)" >&2
        exit 1
    fi
done
venv=${VENV:-.venv}
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r requirements.txt
# axe-core 4 for the accessibility audit, from npm when it is there (kept in the venv);
# otherwise walk.py takes the axe-core that axe-selenium-python bundles.
axe=()
if [ ! -f "$venv/axe-core/axe.min.js" ] && command -v npm >/dev/null; then
    (cd "$venv" && npm pack --silent axe-core@4 >/dev/null 2>&1 && mkdir -p axe-core \
        && tar -xzf axe-core-*.tgz -C axe-core --strip-components=1 package/axe.min.js \
        && rm -f axe-core-*.tgz) || echo "tests/browser: no axe-core from npm; using axe-selenium-python's" >&2
fi
if [ -f "$venv/axe-core/axe.min.js" ]; then
    axe=(--axe "$(pwd)/$venv/axe-core/axe.min.js")
fi
reversi=${REVERSI:-${CARGO_TARGET_DIR:-$root/target}/debug/reversi}
if [ ! -x "$reversi" ]; then
    (cd "$root" && cargo build --features cli --locked --bin reversi)
fi
# Selenium is given the driver: it looks nothing up on the network.
SE_OFFLINE=true "$venv/bin/python" walk.py --reversi "$reversi" --fixtures "$root/fixtures/serve" \
    --event "$root/fixtures/director-event/incoming" "${axe[@]}" "$@"
