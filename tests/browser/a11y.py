"""An accessibility audit of a page in the browser: axe-core (Deque's rules engine, the
one browsers' own audits use) run on the page as it is, every violation reported.

`audit(driver)` injects axe-core and returns its violations (rules of WCAG 2.x A and AA,
and the best practices: names for every control, labels, landmarks, headings, alt
texts, tab order, contrast). `self_test(driver)` shows that the audit can fail: a small
page with a planted fault of each kind must have each named by a violation.
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
        # The tags this axe-core knows (an older one has no `wcag22aa`).
        "const known = new Set(axe.getRules().flatMap((r) => r.tags));"
        "const tags = %s.filter((t) => known.has(t));"
        "axe.run(%s, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']})"
        ".then((r) => done({version: axe.version, violations: r.violations}), (e) => done({error: String(e)}));"
        % (json.dumps(TAGS), context)
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

# The planted faults, each of which the audit must name (by the element's id): an
# unnamed button, an unlabelled input, an image without alt, an unnamed link, an unnamed
# select, a positive tabindex.
PLANTED = {"#b", "#i", "#m", "#a", "#s", "#t"}


def self_test(driver, source):
    """The audit fails a page with planted faults: every planted element is named by a
    violation. Returns the elements named, and the rules."""
    import urllib.parse

    driver.get("data:text/html;charset=utf-8," + urllib.parse.quote(BAD_PAGE))
    _, violations = audit(driver, source)
    named = {target for v in violations for node in v["nodes"] for target in node}
    missed = PLANTED - named
    if missed:
        raise AssertionError("the audit missed planted faults %s (found %s)" % (sorted(missed), violations))
    return named, {v["id"] for v in violations}
