"""An accessibility audit of a page in the browser: axe-core (Deque's rules engine, the
one browsers' own audits use) run on the page as it is, every violation reported.

`audit(driver)` injects axe-core and returns its violations (rules of WCAG 2.x A and AA,
and the best practices: names for every control, labels, landmarks, headings, alt
texts, tab order, contrast). `self_test(driver)` shows that the audit can fail: a small
page with a planted fault of each kind must give each its violation.
"""

import json
from pathlib import Path

# The rules run: WCAG 2.0/2.1/2.2 A and AA, and axe's best practices.
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]


def axe_source(given=None):
    """The axe-core script: the file given (axe-core 4 from npm, run.sh fetches it), or
    the one axe-selenium-python bundles."""
    if given:
        return Path(given).read_text(encoding="utf-8")
    import axe_selenium_python

    bundled = Path(axe_selenium_python.__file__).parent / "node_modules" / "axe-core" / "axe.min.js"
    return bundled.read_text(encoding="utf-8")


def audit(driver, source, context="document"):
    """axe-core's violations on the page as it is now, each `{id, impact, help, nodes}`."""
    driver.execute_script(source)
    driver.set_script_timeout(60)
    results = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(%s, {runOnly: {type: 'tag', values: %s}, resultTypes: ['violations']})"
        ".then((r) => done({version: axe.version, violations: r.violations}), (e) => done({error: String(e)}));"
        % (context, json.dumps(TAGS))
    )
    if "error" in results:
        raise RuntimeError("axe-core failed: " + results["error"])
    return results["version"], [
        {
            "id": v["id"],
            "impact": v.get("impact"),
            "help": v["help"],
            "nodes": [n["target"] for n in v["nodes"]][:5],
        }
        for v in results["violations"]
    ]


# A page with one planted fault of each kind the desk must not have.
BAD_PAGE = """<!doctype html><html><head><title>planted</title></head><body>
<div>
<button id="b"></button>
<input id="i" type="text">
<img id="m" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
<a id="a" href="#"></a>
<select id="s"><option>x</option></select>
<span id="t" tabindex="3">positive tabindex</span>
</div></body></html>"""

# What axe-core must name on it.
PLANTED = {"button-name", "label", "image-alt", "link-name", "select-name", "tabindex"}


def self_test(driver, source):
    """The audit fails a page with planted faults: every planted rule is named. Returns
    the rules found."""
    import urllib.parse

    driver.get("data:text/html;charset=utf-8," + urllib.parse.quote(BAD_PAGE))
    _, violations = audit(driver, source)
    found = {v["id"] for v in violations}
    missed = PLANTED - found
    if missed:
        raise AssertionError("the audit missed planted faults %s (found %s)" % (sorted(missed), sorted(found)))
    return found
