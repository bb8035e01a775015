"""Playing by keys: R or Space rolls, 1-6 hold a die, S goes to the scorecard, "?" shows
them in a dialog; the keys press the buttons a click would (and are announced as a
click is), and do nothing while a text field or a dialog has them."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.e2e.test_layout import sit_at_a_table
from tests.servers import Server


def roll_shown(page: Page, roll: int) -> None:
    expect(page.locator(f"#table .dice-area[data-roll$='.{roll}']")).to_be_attached()


def test_the_keys_roll_hold_and_reach_the_scorecard(new_page, site: Server) -> None:
    page: Page = new_page()
    sit_at_a_table(page, site, 2)  # Alice has rolled once
    page.locator("#turn").focus()

    page.keyboard.press("2")
    die = page.get_by_role("button", name=re.compile("^Die 2:"))
    expect(die).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#announcement")).to_have_text(re.compile(r"^Alice holds \d\.$"))
    page.keyboard.press("2")
    expect(die).to_have_attribute("aria-pressed", "false")
    page.keyboard.press("5")
    expect(page.get_by_role("button", name=re.compile("^Die 5:"))).to_have_attribute(
        "aria-pressed", "true"
    )

    page.keyboard.press("r")
    roll_shown(page, 2)
    expect(page.locator("#announcement")).to_have_text(re.compile(r"^Alice rolled [\d, ]+\.$"))
    page.locator("#turn").focus()
    page.keyboard.press(" ")  # Space, where no control has the focus
    roll_shown(page, 3)

    page.keyboard.press("s")
    expect(page.locator(".score-option").first).to_be_focused()


def test_space_on_a_die_presses_the_die_not_roll(new_page, site: Server) -> None:
    page: Page = new_page()
    sit_at_a_table(page, site, 2)
    page.locator("#die-0").focus()
    page.keyboard.press(" ")
    expect(page.locator("#die-0")).to_have_attribute("aria-pressed", "true")
    roll_shown(page, 1)  # not rolled


def test_the_keys_do_nothing_in_a_text_field_or_behind_the_help(new_page, site: Server) -> None:
    page: Page = new_page()
    sit_at_a_table(page, site, 2)
    # a text field at the table (a page's search, a future chat): typing is typing
    page.evaluate(
        "() => { const f = document.createElement('input'); f.id = 'typing';"
        " f.setAttribute('aria-label', 'Words'); document.body.append(f); }"
    )
    field = page.get_by_label("Words")
    field.focus()
    page.keyboard.type("r 1 s ?")
    expect(field).to_have_value("r 1 s ?")
    expect(page.get_by_role("dialog")).to_have_count(0)
    expect(page.locator("#table .die.held")).to_have_count(0)
    roll_shown(page, 1)

    page.locator("#turn").focus()
    page.keyboard.press("?")
    help = page.get_by_role("dialog", name="Keyboard shortcuts")
    expect(help).to_be_visible()
    expect(help).to_contain_text("Roll the dice")
    expect(help).to_contain_text("Hold or release that die")
    page.keyboard.press("1")  # the page behind the dialog is out of reach
    expect(page.locator("#table .die.held")).to_have_count(0)
    help.get_by_role("button", name="Close").click()
    expect(help).to_be_hidden()

    page.get_by_role("button", name="Keyboard shortcuts").click()  # also by its button
    expect(help).to_be_visible()
    page.keyboard.press("Escape")
    expect(help).to_be_hidden()


def test_the_turn_banner_shows_the_focus_ring_when_the_rolls_are_used_up(
    new_page, site: Server
) -> None:
    """After the last roll the focus goes to the turn banner: it had the browser's thin
    dark outline, hardly seen on the banner's green, not the site's yellow ring."""
    page: Page = new_page()
    sit_at_a_table(page, site, 2)
    page.locator("#roll-button").focus()
    page.keyboard.press("Enter")
    roll_shown(page, 2)
    page.locator("#roll-button").focus()
    page.keyboard.press("Enter")
    roll_shown(page, 3)

    banner = page.locator("#turn")
    expect(banner).to_be_focused()
    expect(banner).to_have_css("outline-style", "solid")
    expect(banner).to_have_css("outline-width", "3px")
    expect(banner).to_have_css("outline-color", "rgb(226, 164, 0)")  # the site's accent
