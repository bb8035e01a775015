"""A name field keeps to the 40 characters a name may have, as the server counts them
(issue 46: it took 800, refused only once sent), and cuts no name the server would
take: an emoji is one character, however many UTF-16 code units the browser counts."""

from __future__ import annotations

from django.test import Client
from playwright.sync_api import Page, expect

from tests.conftest import create_game
from tests.servers import Server

FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466"  # 11 code units, 1 character


def test_typing_stops_at_the_names_limit(new_page, site: Server) -> None:
    page: Page = new_page(375, 740)
    page.goto(site.url + "/")
    name = page.get_by_label("Your name")

    name.press_sequentially("n" * 500)

    expect(name).to_have_value("n" * 40)
    page.get_by_role("button", name="Play the computer").click()
    expect(page.locator("#roll-button")).to_be_visible()  # the server took it


def test_a_name_of_emoji_the_server_takes_is_not_cut(new_page, site: Server) -> None:
    page: Page = new_page()
    page.goto(site.url + "/")
    name = page.get_by_label("Your name")

    name.focus()
    page.keyboard.insert_text(FAMILY * 40)  # 440 code units, each family one character
    expect(name).to_have_value(FAMILY * 40)
    page.keyboard.insert_text(FAMILY + "\U0001f600")
    expect(name).to_have_value(FAMILY * 40)  # and not one more

    name.fill("")
    page.keyboard.insert_text("\U0001f600" * 45)  # a paste past the limit keeps its start
    expect(name).to_have_value("\U0001f600" * 40)
    page.get_by_role("button", name="Play the computer").click()
    expect(page.locator("#roll-button")).to_be_visible()


def test_each_line_of_the_players_keeps_to_the_limit(new_page, site: Server) -> None:
    page: Page = new_page()
    page.goto(site.url + "/")
    page.locator("#id_players").press_sequentially("Bob\n" + "C" * 60)

    expect(page.locator("#id_players")).to_have_value("Bob\n" + "C" * 40)


def test_the_join_field_keeps_to_the_limit(new_page, site: Server) -> None:
    game = create_game(Client(), invites="1")
    page: Page = new_page()
    page.goto(f"{site.url}/g/{game.code}/join/")
    name = page.get_by_label("Your name")

    name.press_sequentially("b" * 45)

    expect(name).to_have_value("b" * 40)
