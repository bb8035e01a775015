"""Accounts in real browsers (issue 47): Alice signs up and plays a game in one
browser, logs in in a second one and finds there the game, her profile and her
skill rating; the account's pages in every language the site speaks."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.conf import settings
from django.template.defaultfilters import floatformat
from django.utils import timezone, translation
from django.utils.translation import gettext
from playwright.sync_api import Page, expect

from games.models import Game
from games.strategy.solver import Variant
from players.models import Player, Record
from tests.conftest import solved_tables
from tests.e2e.conftest import (
    in_a_thread,
    more_options,
    play_turns_over_http,
    score_first_option,
    screenshot,
)
from tests.servers import Server
from tests.waits import eventually

PASSWORD = "dice-tumble-42"
EARLIER_LOSSES = (31.5, 27.0, 24.25, 29.0)  # four rated games before this one


def earlier_games(username: str) -> None:
    """Four rated games of the player's before today's, as their records."""
    player = Player.objects.get(user__username=username)
    start = timezone.now() - dt.timedelta(days=10)
    for number, lost in enumerate(EARLIER_LOSSES):
        game = Game.objects.create(ruleset="yatzy", host_browser=player.browser_id)
        Record.objects.create(
            player=player,
            game=game,
            position=0,
            ruleset="yatzy",
            finished_at=start + dt.timedelta(days=number),
            score=190,
            scorecards=1,
            won=False,
            yatzy=False,
            upper_bonus=True,
            rated=True,
            lost=lost,
        )


def sign_up(page: Page, site: Server) -> None:
    page.goto(site.url + "/")
    page.get_by_role("link", name="Sign up").click()
    page.get_by_label("Username").fill("alice")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    expect(page.locator(".site-header")).to_contain_text("Logged in as alice")


def log_in(page: Page, site: Server) -> None:
    page.goto(site.url + "/")
    page.get_by_role("link", name="Log in").click()
    page.get_by_label("Username").fill("alice")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.locator(".site-header")).to_contain_text("Logged in as alice")


def play_a_game(page: Page, site: Server) -> str:
    """A whole game of Scandinavian Yatzy, alone; its code. Its first 14 turns are the
    table's moves sent from the page's browser without a click
    (``play_turns_over_http``), the last is clicked."""
    page.goto(site.url + "/")
    page.get_by_label("Your name").fill("Alice")
    more_options(page)
    page.get_by_role("button", name="Create game").click()
    code = re.search(r"/g/([^/]+)/", page.url).group(1)
    version = play_turns_over_http(site, {0: page}, code, 14)
    expect(page.locator(f"#table[data-version='{version}']")).to_be_attached()
    page.get_by_role("button", name="Roll").click()
    expect(page.get_by_role("button", name=re.compile(r"^Die 1: "))).to_be_enabled()
    score_first_option(page)
    expect(page.get_by_role("status")).to_contain_text("Game over")
    return code


@pytest.mark.slow
def test_a_player_finds_their_game_profile_and_rating_on_a_second_browser(
    new_page, site: Server, transactional_db: None
) -> None:
    solved_tables(Variant("yatzy"))  # the review's pricing, for the rating
    laptop = new_page(1280, 900)
    sign_up(laptop, site)
    in_a_thread(lambda: earlier_games("alice"))
    code = play_a_game(laptop, site)
    # worked out by the server in the background once the game is over
    eventually(
        lambda: in_a_thread(
            lambda: Record.objects.filter(game__code=code, lost__isnull=False).exists()
        ),
        "the game's record, analysed",
    )

    phone = new_page(375, 800)
    log_in(phone, site)

    phone.get_by_role("link", name="History").click()
    expect(phone.locator(f'a[href="/g/{code}/review/"]')).to_be_visible()
    phone.get_by_role("link", name="alice").click()
    expect(phone.get_by_role("heading", name="alice", exact=True)).to_be_visible()
    expect(phone.get_by_role("heading", name="Scandinavian Yatzy")).to_be_visible()
    expect(phone.locator(".stats")).to_contain_text("Games played5")
    record = in_a_thread(lambda: Record.objects.get(game__code=code))
    losses = [*EARLIER_LOSSES, record.lost]
    # rounded as the page rounds it (a mean of 63.65 shows as 63.7: Django's floatformat
    # rounds its decimal half up, where Python's "%.1f" of that float gives 63.6)
    mean = floatformat(sum(losses) / len(losses), 1)
    expect(phone.locator(".rating-value")).to_contain_text(f"{mean} ± ", use_inner_text=True)
    expect(phone.locator(".rating")).to_contain_text("over the last 5 games")
    expect(phone.get_by_role("link", name=re.compile("^Review")).first).to_have_attribute(
        "href", f"/g/{code}/review/"
    )
    screenshot(phone, "account-profile-phone")
    phone.get_by_role("link", name="What the rating means, and why luck cannot move it").click()
    expect(phone.get_by_role("heading", name="Why luck cannot move it")).to_be_visible()


@pytest.mark.slow
def test_the_accounts_pages_speak_every_language_of_the_site(
    new_page, site: Server, transactional_db: None
) -> None:
    page = new_page(1280, 900)
    sign_up(page, site)
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            words = {
                "profile": gettext("This profile is private: only you see it."),
                "logged in": gettext("Logged in as"),
                "rating": gettext("Why luck cannot move it"),
                "delete": gettext("Delete your account"),
            }
        page.goto(f"{site.url}/players/alice/?lang={language}")
        expect(page.locator(f'html[lang="{language}"]')).to_be_attached()
        expect(page.locator("main")).to_contain_text(words["profile"])
        expect(page.locator(".site-header")).to_contain_text(words["logged in"])
        page.goto(f"{site.url}/rating/?lang={language}")
        expect(page.get_by_role("heading", name=words["rating"])).to_be_visible()
        page.goto(f"{site.url}/accounts/delete/?lang={language}")
        expect(page.get_by_role("heading", name=words["delete"])).to_be_visible()
        screenshot(page, f"account-delete-{language}")
