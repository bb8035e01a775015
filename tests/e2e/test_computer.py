"""A game against a computer player with the coach on, in a real browser: the bot's
moves arrive live, the hint shows, and the review prices the game."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from games.models import Game, GameEvent
from tests.e2e.conftest import more_options, score_first_option, screenshot
from tests.servers import Server


@pytest.mark.slow
def test_a_game_against_the_computer_with_the_coach(new_page, site: Server) -> None:
    page: Page = new_page()
    page.goto(site.url + "/")
    page.get_by_label("Your name").fill("Alice")
    more_options(page)
    page.get_by_label("Computer players").fill("1")
    page.get_by_label("Upper section only").check()  # solved on the spot: Perfect is offered
    page.get_by_label("Computer strength").select_option("perfect")
    page.get_by_label("Coach").check()
    page.get_by_role("button", name="Create game").click()
    expect(page.get_by_role("columnheader", name="Computer 1 (Perfect)")).to_be_visible()
    chime = page.get_by_role("button", name="Chime when it is my turn")
    chime.click()
    expect(chime).to_have_attribute("aria-pressed", "true")

    for turn in range(6):
        expect(page.get_by_role("status")).to_contain_text("Your turn, Alice.")
        page.get_by_role("button", name="Roll").click()
        expect(page.get_by_role("button", name=re.compile(r"^Die 1: "))).to_be_enabled()
        page.get_by_role("link", name="Hint").click()
        hint = page.get_by_role("region", name="The coach says")
        expect(hint).to_contain_text("Expected final score:")
        if turn == 0:
            screenshot(page, "coach-hint")
        score_first_option(page)
        if turn < 5:  # the computer's turn plays out on this page without a reload
            expect(page.get_by_role("status")).to_contain_text("Computer 1 (Perfect)'s turn.")

    expect(page.get_by_role("status")).to_contain_text("Game over")
    assert page.evaluate("window.yatzyTurnSignals") == 5  # each turn back from the computer
    game = Game.objects.get()
    bot_moves = GameEvent.objects.filter(game=game, seat_position=1)
    assert bot_moves.filter(kind=GameEvent.Kind.SCORE).count() == 6
    computer = page.locator("table.scorecard tr", has=page.locator("th:text-is('Total')"))
    assert computer.locator("td").nth(1).inner_text() == str(game.engine_state().totals(1).total)

    page.get_by_role("link", name="Review the game").click()
    expect(page.get_by_role("heading", name="Skill and luck")).to_be_visible()
    expect(page.get_by_role("img", name="Expected final score after each turn")).to_be_visible()
    screenshot(page, "review-skill")


def test_a_keyboard_player_keeps_the_focus_through_the_computers_turn(
    new_page, site: Server
) -> None:
    """After a score the focus goes to the turn banner; the computer's first push took
    it to the page's top (the new banner could not be focused), and a keyboard player
    tabbed from there every turn. It stays, and goes to the roll when the turn is back."""
    page: Page = new_page()
    page.goto(site.url + "/")
    page.get_by_label("Your name").fill("Alice")
    more_options(page)
    page.get_by_label("Computer players").fill("1")
    page.get_by_label("Upper section only").check()
    page.get_by_role("button", name="Create game").click()
    page.get_by_role("button", name="Roll").focus()
    page.keyboard.press("Enter")
    score = page.get_by_role("button", name=re.compile(r"^Score [1-9]\d* in ")).first
    expect(score).to_be_enabled()
    # the new table settled, htmx has its forms (a submission before that is dropped)
    expect(page.locator(".htmx-request, .htmx-swapping, .htmx-settling")).to_have_count(0)
    score.focus()
    page.keyboard.press("Enter")
    expect(page.get_by_role("status")).to_contain_text("Computer 1 (Good)'s turn.")

    expect(page.get_by_role("status")).to_contain_text("Your turn, Alice.")
    expect(page.get_by_role("button", name="Roll")).to_be_focused()
    page.keyboard.press("Enter")  # and rolls
    expect(page.get_by_role("button", name="Roll")).to_contain_text("2 rolls left")
