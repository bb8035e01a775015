"""The coach of a table whose strategy tables are still being built: it says so, and
its advice comes by itself once they are, without another press of Hint (it said "ask
again in a minute", and nothing came until the player did)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import more_options, serve_site
from tests.servers import Server

BUILD_S = 300  # Yahtzee's tables: ~2 s of two idle cores, much more on a busy one


@pytest.fixture
def building_site(django_db_blocker: object, site: Server, tmp_path: Path) -> Iterator[Server]:
    """The site with no tables built, which builds a table's when first asked for them."""
    server = serve_site(django_db_blocker, YATZY_SOLVER_CACHE=str(tmp_path), YATZY_BUILD_TABLES="1")
    yield server
    server.stop()


@pytest.mark.slow
def test_the_coachs_advice_comes_by_itself_once_its_tables_are_built(
    new_page, building_site: Server
) -> None:
    page: Page = new_page()
    page.goto(building_site.url + "/")
    page.get_by_label("Your name").fill("Alice")
    more_options(page)
    page.get_by_label("Rules").select_option("yahtzee")
    page.get_by_label("Coach").check()
    page.get_by_role("button", name="Create game").click()
    page.get_by_role("button", name="Roll").click()
    expect(page.get_by_role("button", name=re.compile(r"^Die 1: "))).to_be_enabled()

    page.get_by_role("link", name="Hint").click()
    hint = page.get_by_role("region", name="The coach says")
    expect(hint).to_contain_text("still working out this table's strategy")

    expect(hint).to_contain_text("Expected final score:", timeout=BUILD_S * 1000)
    expect(hint.locator(".hint-best strong")).not_to_be_empty()
    expect(page.get_by_role("region", name="The coach says")).to_have_count(1)
    expect(page.locator("#roll-button")).to_contain_text("2 rolls left")  # the table as it was
