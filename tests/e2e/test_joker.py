"""An extra Yahtzee at the table: the joker rule and the Yahtzee bonus are said before
the player scores, on a phone and on a desktop."""

from __future__ import annotations

from dataclasses import replace

import pytest
from playwright.sync_api import Page, expect

from games.models import Game
from tests.e2e.conftest import more_options, screenshot
from tests.servers import Server


def an_extra_yahtzee_rolled(page: Page, site: Server) -> Game:
    """Alice's hot-seat game of American Yahtzee with Bob, her Yahtzee box holding 50,
    her Sixes 24 and five sixes just rolled; shown on ``page``."""
    page.goto(site.url + "/")
    page.get_by_label("Your name").fill("Alice")
    more_options(page)
    page.get_by_label("Rules").select_option("yahtzee")
    page.get_by_label("More players at this screen").fill("Bob")
    page.get_by_role("button", name="Create game").click()
    expect(page.get_by_role("button", name="Roll")).to_be_enabled()
    game = Game.objects.get()
    state = game.engine_state()
    card = replace(state.scorecards[0], entries=(("yahtzee", 50), ("sixes", 24)))
    rolled = state.evolve(scorecards=(card, state.scorecards[1]), dice=(6,) * 5, roll_number=1)
    game.set_engine_state(rolled)
    game.version += 1
    game.save()
    page.reload()
    return game


@pytest.mark.parametrize(("width", "height"), [(375, 740), (1280, 900)])
def test_an_extra_yahtzee_says_its_joker_and_bonus_before_it_is_scored(
    new_page, site: Server, width: int, height: int
) -> None:
    page: Page = new_page(width, height)
    game = an_extra_yahtzee_rolled(page, site)

    joker = page.locator(".joker")
    expect(joker).to_have_text(
        "Joker rule: Sixes is used, so this Yahtzee must go in an open lower category, where"
        " Full house and the straights score in full."
        " Yahtzee bonus: +100 on top of the score."
    )
    full_house = page.get_by_role(
        "button", name="Score 25 in Full house and a Yahtzee bonus of 100", exact=True
    )
    expect(full_house).to_have_text("25 +100")
    box = full_house.bounding_box()
    assert box["height"] < 50  # on one line
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    screenshot(page, f"joker-{width}")

    page.set_extra_http_headers({"Accept-Language": "fi"})
    page.reload()
    expect(page.locator(".joker")).to_contain_text("Jokerisääntö: Kuutoset on käytetty")
    expect(
        page.get_by_role("button", name="Kirjaa 25 kohtaan Täyskäsi ja Yahtzee-bonus 100")
    ).to_have_text("25 +100")
    screenshot(page, f"joker-{width}-fi")

    page.set_extra_http_headers({"Accept-Language": "en"})
    page.reload()
    page.get_by_role("button", name="Score 25 in Full house and a Yahtzee bonus of 100").click()
    expect(page.locator(".last-move")).to_have_text(
        "Alice scored 25 in Full house and a Yahtzee bonus of 100."
    )
    expect(joker).to_have_count(0)  # Bob's turn: no extra Yahtzee on the table
    assert Game.objects.get(pk=game.pk).engine_state().totals(0).total == 50 + 24 + 25 + 100
