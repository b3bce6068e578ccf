"""Shared test setup: a Hypothesis profile for CI, and no skips under CI."""

from __future__ import annotations

import os
from collections.abc import Generator

import pytest
from hypothesis import settings

IN_CI = os.environ.get("CI") == "true"

settings.register_profile("ci", derandomize=True, print_blob=True, deadline=None)
if IN_CI:
    settings.load_profile("ci")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, None]:
    """Under CI=true a skipped test fails: a missing browser or database is an error there."""
    outcome = yield
    report: pytest.TestReport = outcome.get_result()
    if IN_CI and report.skipped:
        report.outcome = "failed"
        report.longrepr = f"skipped under CI=true, which is a failure: {report.longrepr}"
