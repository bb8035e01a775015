"""The order the suite runs in (tests/conftest.py): the browser tests after every other,
whatever order pytest-django gives them by their use of the database, and in each part
the slow tests first."""

from __future__ import annotations

import pytest


def test_no_test_without_a_browser_is_collected_after_a_browser_test(
    request: pytest.FixtureRequest,
) -> None:
    browser = [item.get_closest_marker("e2e") is not None for item in request.session.items]
    if True in browser:
        assert False not in browser[browser.index(True) :]


def test_the_slow_tests_of_each_part_come_first(request: pytest.FixtureRequest) -> None:
    for e2e in (False, True):
        part = [
            item.get_closest_marker("slow") is not None
            for item in request.session.items
            if (item.get_closest_marker("e2e") is not None) is e2e
        ]
        if False in part:
            assert True not in part[part.index(False) :]
