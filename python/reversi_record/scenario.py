"""Rule scenarios for engine authors' tests (``spec/scenario.md``).

>>> from reversi_record import scenario
>>> t = scenario.run("rules: othello:6x6\\nmoves: b3")
>>> t["moves"][0]["flips"]
['c3']
"""

from __future__ import annotations

from typing import Any

from ._native import scenario_run as _run


def run(text: str) -> dict[str, Any]:
    """Parses and runs a scenario; the JSON transcript as a dict, its text form under
    ``"text"``. Raises ``ScenarioError`` (with ``code`` and ``line``)."""
    return _run(text)


__all__ = ["run"]
