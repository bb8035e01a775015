"""What a page must keep in view: the history's Review links on a phone, and the
category names and the width of a scorecard of many players."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from itertools import pairwise

import pytest
from django.db import connections
from django.test import Client
from playwright.sync_api import Locator, Page, expect

from games.models import Game
from tests.conftest import create_game, play_to_the_end
from tests.e2e.conftest import more_options, score_first_option, screenshot
from tests.e2e.test_remote import alice_and_bob_at_the_table
from tests.servers import Server

# True when ``element`` is what a tap at its centre reaches, the window scrolled
# (upright only) to bring it into view: nothing is over it.
REACHED_AT_ITS_CENTRE = """element => {
    const box = element.getBoundingClientRect();
    window.scrollBy(0, box.top - window.innerHeight / 2);
    const { left, top, width, height } = element.getBoundingClientRect();
    return element.contains(document.elementFromPoint(left + width / 2, top + height / 2));
}"""


def reached_at_its_centre(locator: Locator) -> bool:
    return locator.evaluate(REACHED_AT_ITS_CENTRE)


@pytest.fixture
def finished_games(transactional_db: None, dice: object) -> list[Game]:
    """A game of two and a Maxi Yatzy game of five, played to the end by Alice.

    Played in a thread of its own: the moves' broadcasts must not meet the event loop
    Playwright runs in the test's thread."""

    def play() -> list[Game]:
        alice = Client()
        five = "\n".join(["Bob", "Christina", "Dominique", "Evangeline"])
        try:
            return [
                play_to_the_end(alice, create_game(alice, players="Bob", upper_only="on")),
                play_to_the_end(
                    alice, create_game(alice, ruleset="maxi_yatzy", players=five, upper_only="on")
                ),
            ]
        finally:
            connections.close_all()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(play).result()


def test_every_review_link_of_the_history_is_in_view_on_a_phone(
    new_page, site: Server, finished_games: list[Game]
) -> None:
    page: Page = new_page(360, 740)
    page.goto(site.url + "/history/?tab=public")
    reviews = page.get_by_role("link", name="Review")
    expect(reviews).to_have_count(len(finished_games))
    screenshot(page, "layout-history-phone")

    table = page.locator(".scorecard-scroll")  # what shows of the table: none cut off
    shown = table.bounding_box()
    assert shown["x"] >= 0 and shown["x"] + shown["width"] <= 360
    for review in reviews.all():
        box = review.bounding_box()
        assert shown["x"] <= box["x"] and box["x"] + box["width"] <= shown["x"] + shown["width"]
        assert reached_at_its_centre(review)
    assert table.evaluate("e => e.scrollLeft") == 0


@pytest.mark.parametrize("width", [900, 1280])
def test_each_review_link_of_the_history_stays_in_its_games_row_on_a_desktop(
    new_page, site: Server, finished_games: list[Game], width: int
) -> None:
    """The review page's two columns (a grid from 56rem up) took the history's Review
    cells too: each link was pulled out of its row, under the table."""
    page: Page = new_page(width, 900)
    page.goto(site.url + "/history/?tab=public")
    expect(page.get_by_role("link", name="Review")).to_have_count(len(finished_games))
    screenshot(page, f"layout-history-{width}")

    table = page.locator(".history").bounding_box()
    for row in page.locator(".history tr").all():  # the head's row too
        line = row.bounding_box()
        cell = row.locator(".review").bounding_box()  # a cell of the row, as tall as it
        assert cell["y"] == pytest.approx(line["y"], abs=1)
        assert cell["height"] == pytest.approx(line["height"], abs=1)
        assert cell["x"] + cell["width"] <= table["x"] + table["width"] + 0.5


def sit_at_a_table(page: Page, site: Server, players: int, ruleset: str = "yatzy") -> None:
    """Open a hot-seat game of ``players`` (Alice and the players after her) and roll."""
    page.goto(site.url + "/")
    page.get_by_label("Your name").fill("Alice")
    more_options(page)
    page.get_by_label("Rules").select_option(ruleset)
    more = "\n".join(f"Player {number}" for number in range(2, players + 1))
    page.get_by_label("More players at this screen").fill(more)
    page.get_by_role("button", name="Create game").click()
    page.get_by_role("button", name="Roll").click()
    expect(page.locator(".score-option").first).to_be_visible()


def test_the_players_of_the_history_are_readable_on_a_phone_in_finnish(
    new_page, site: Server, finished_games: list[Game]
) -> None:
    """Finnish's long words ('Katselmointi' beside 'Skandinaavinen Yatzy') left the
    players and totals a column of ~38 px: 'Com… 1 (G…', under the Review link."""
    page: Page = new_page(375, 740)
    page.set_extra_http_headers({"Accept-Language": "fi"})
    page.goto(site.url + "/history/?tab=public")
    expect(page.get_by_role("heading", name="Historia")).to_be_visible()
    screenshot(page, "layout-history-phone-fi")

    table = page.locator(".scorecard-scroll")
    assert table.evaluate("e => e.scrollWidth <= e.clientWidth")  # nothing under the links
    for player in page.locator(".history td span").all():
        assert player.bounding_box()["width"] < 300, player  # a name and a total a line


@pytest.mark.parametrize(
    ("language", "names"), [("en", ("Rules", "Player name")), ("fi", ("Säännöt", "Pelaajan nimi"))]
)
def test_each_history_filters_label_stays_beside_its_field_on_a_phone(
    new_page, site: Server, language: str, names: tuple[str, str]
) -> None:
    """'Player name' ended a line and its field began the next."""
    page: Page = new_page(375, 740)
    page.set_extra_http_headers({"Accept-Language": language})
    page.goto(site.url + "/history/")
    for name in names:
        label = page.locator(".filters label", has_text=name).bounding_box()
        field = page.get_by_label(name).bounding_box()
        assert label and field, name
        assert field["y"] <= label["y"] + label["height"] / 2 <= field["y"] + field["height"]
        assert field["x"] >= label["x"] + label["width"], name


# (sixteen players' columns fit 1280 px: each 4rem, issue 33)
@pytest.mark.parametrize("width", [360, 1024])
def test_the_category_names_stay_in_view_as_a_wide_scorecard_scrolls(
    new_page, site: Server, width: int
) -> None:
    page: Page = new_page(width, 900)
    sit_at_a_table(page, site, 16, "maxi_yatzy")
    scroll = page.locator(".scorecard-scroll")

    scroll.evaluate("e => e.scrollLeft = e.scrollWidth")
    assert scroll.evaluate("e => e.scrollLeft") > 0  # the scorecard is wider than its place
    assert page.evaluate("document.documentElement.scrollWidth") <= width  # not the page
    screenshot(page, f"layout-16-players-scrolled-{width}")

    left = scroll.bounding_box()["x"]
    heads = [page.locator(".scorecard caption"), page.get_by_role("columnheader", name="Category")]
    heads += [
        page.get_by_role("rowheader", name=name, exact=True)
        for name in ("Ones", "Bonus", "Three of a kind", "Maxi Yatzy", "Total")
    ]
    for head in heads:
        assert abs(head.bounding_box()["x"] - left) < 1, head
        assert reached_at_its_centre(head), head


def test_a_score_reached_by_keyboard_is_not_left_under_the_category_names(
    new_page, site: Server
) -> None:
    page: Page = new_page(1280, 900)
    sit_at_a_table(page, site, 16, "maxi_yatzy")
    page.locator(".scorecard-scroll").evaluate("e => e.scrollLeft = e.scrollWidth")

    score = page.locator(".score-option").first  # in Alice's column, the first
    score.focus()

    names = page.get_by_role("columnheader", name="Category").bounding_box()
    assert score.bounding_box()["x"] >= names["x"] + names["width"]
    assert reached_at_its_centre(score)


PARTS = (".dice-area", ".scorecard-scroll")  # the page's column, the scorecard's place


def test_a_scorecard_of_many_players_takes_the_window_and_one_of_two_sits_beside_the_dice(
    new_page, site: Server
) -> None:
    """Sixteen players' card is wider than the page's column, in the window; two
    players' sits beside the dice, in the window (issue 46: it kept to the page's
    column under them)."""
    sixteen: Page = new_page(1280, 900)
    sit_at_a_table(sixteen, site, 16, "maxi_yatzy")
    two: Page = new_page(1280, 900)
    sit_at_a_table(two, site, 2)
    screenshot(sixteen, "layout-16-players-1280")
    screenshot(two, "layout-2-players-1280")

    page_column, scorecard = (sixteen.locator(part).bounding_box() for part in PARTS)
    assert scorecard["width"] > page_column["width"] + 200
    assert scorecard["x"] >= 0 and scorecard["x"] + scorecard["width"] <= 1280
    dice, scorecard = (two.locator(part).bounding_box() for part in PARTS)
    assert scorecard["x"] >= dice["x"] + dice["width"]
    assert scorecard["x"] + scorecard["width"] <= 1280
    assert scorecard["y"] <= dice["y"]


def test_a_long_name_without_spaces_keeps_to_a_phones_width(new_page, site: Server) -> None:
    """A 40-letter name ran out of the turn banner and its column's head, and the whole
    page scrolled sideways (839 px on a 375 px phone); in the lobby too."""
    page: Page = new_page(375, 740)
    page.goto(site.url + "/")
    page.get_by_label("Your name").fill("W" * 40)
    more_options(page)
    page.get_by_label("Friends to invite").fill("1")
    page.get_by_role("button", name="Create game").click()
    expect(page.locator(".seats")).to_contain_text("W" * 40)
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    screenshot(page, "layout-long-name-lobby")

    page.get_by_role("button", name="Start game").click()
    page.get_by_role("button", name="Roll").click()
    expect(page.locator(".score-option").first).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    screenshot(page, "layout-long-name-table")


def test_many_computer_players_leave_the_scorecard_close_under_the_dice_on_a_phone(
    new_page, site: Server
) -> None:
    """You and fifteen computer players: the presence list put fifteen lines between
    the dice and the score buttons, scrolled past every turn."""
    page: Page = new_page(375, 740)
    page.goto(site.url + "/")
    page.get_by_label("Your name").fill("Alice")
    more_options(page)
    page.get_by_label("Rules").select_option("maxi_yatzy")
    page.get_by_label("Computer players").fill("15")
    page.get_by_role("button", name="Create game").click()
    page.get_by_role("button", name="Roll").click()
    expect(page.locator(".score-option").first).to_be_visible()

    presence = page.get_by_role("list", name="At the table")
    expect(presence.get_by_role("listitem")).to_have_text(["15 computer players"])
    dice = page.locator(".dice-area").bounding_box()
    scorecard = page.locator(".scorecard").bounding_box()
    assert scorecard["y"] - (dice["y"] + dice["height"]) < 100  # a line, not fifteen
    screenshot(page, "presence-many-computers-phone")


@pytest.mark.slow
@pytest.mark.parametrize(("width", "language"), [(375, "fi"), (1280, "en")])
def test_the_hosts_skip_buttons_keep_their_distance_from_the_scorecard(
    new_page, impatient_site: Server, width: int, language: str
) -> None:
    """The host's skip and hand-over buttons touched the scorecard's heading below them."""
    alice, bob = alice_and_bob_at_the_table(new_page, impatient_site)
    alice.set_viewport_size({"width": width, "height": 900})
    alice.get_by_role("button", name="Roll").click()
    score_first_option(alice)
    expect(bob.get_by_role("status")).to_contain_text("Your turn, Bob.")
    alice.set_extra_http_headers({"Accept-Language": language})
    bob.close()
    expect(alice.locator("#table .skip")).to_have_count(2)
    alice.reload()  # in the language asked for
    expect(alice.locator("#table .skip")).to_have_count(2)

    heading = alice.locator(".scorecard caption")
    # a push (Bob's seat now away) may be swapping the table in: read it once it is there
    expect(heading).to_be_visible()
    screenshot(alice, f"skip-buttons-{width}-{language}")
    skip, hand_over = (form.bounding_box() for form in alice.locator("#table .skip").all())
    caption = heading.bounding_box()
    assert hand_over["y"] - (skip["y"] + skip["height"]) >= 6
    if width >= 1024:  # the card beside them (issue 46)
        assert caption["x"] - (hand_over["x"] + hand_over["width"]) >= 12
    else:  # under them
        assert caption["y"] - (hand_over["y"] + hand_over["height"]) >= 12


def test_a_name_refused_as_too_long_keeps_to_a_phones_width(new_page, site: Server) -> None:
    """The refusal of an 80-letter name said it whole, in one unbroken line: the page
    scrolled sideways, on the new game form and on the invite's."""
    too_long = "W" * 80
    host: Page = new_page(375, 740)
    host.goto(site.url + "/")
    # a browser that cannot count a name's characters (no Intl.Segmenter) lets it be
    # typed; this one's field keeps to 40 (names.js), and is made to let it be
    unlimited = "field => field.removeAttribute('data-max-characters')"
    host.get_by_label("Your name").evaluate(unlimited)
    host.get_by_label("Your name").fill(too_long)
    more_options(host)
    host.get_by_role("button", name="Create game").click()
    expect(host.locator(".error")).to_contain_text(too_long)
    assert host.evaluate("document.documentElement.scrollWidth") <= 375
    screenshot(host, "layout-long-name-refused-new-game")

    host.get_by_label("Your name").fill("Alice")
    more_options(host)
    host.get_by_label("Friends to invite").fill("1")
    host.get_by_role("button", name="Create game").click()
    friend: Page = new_page(375, 740)
    friend.goto(host.get_by_label("Invite link").input_value())
    friend.get_by_label("Your name").evaluate(unlimited)
    friend.get_by_label("Your name").fill(too_long)
    friend.get_by_role("button", name="Join").click()
    expect(friend.locator(".notice")).to_contain_text(too_long)
    assert friend.evaluate("document.documentElement.scrollWidth") <= 375
    screenshot(friend, "layout-long-name-refused-join")


# Every control a tap may reach that is shown, with its box: buttons, links, fields; not
# a link in a sentence (WCAG's exception: the line's height is the text's, such as the
# personal link after "Your personal link, to continue on another device:").
CONTROLS = """() => [...document.querySelectorAll(
    'button, a[href], a.button, select, input:not([type=hidden]), textarea, summary'
)].filter(e => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden')
  .filter(e => !(e.matches('p > a') && getComputedStyle(e).display === 'inline'))
  .map(e => e.type === 'checkbox' && e.labels.length ? e.labels[0] : e)  // a box: its label
  .map(e => {
    const box = e.getBoundingClientRect();
    const name = (e.getAttribute('aria-label') || e.textContent || e.name || '').trim();
    return [`${e.tagName.toLowerCase()}.${e.className} ${name.slice(0, 30)}`,
            Math.round(box.width * 10) / 10, Math.round(box.height * 10) / 10];
  })"""
TAP = 44  # CSS px, across and down: WCAG 2.5.5's target size
# A score's (or a target's, or a category name's) button on the table is as wide, and
# 24 px tall at least (WCAG 2.2's 2.5.8): so every category's row fits above the dice's
# bar (issue 46).
CARD_TAP = 24
CARD_BUTTONS = ("button.score-option", "button.declare", "button.category-rule")


def too_small_to_tap(page: Page) -> list[tuple[str, float, float]]:
    def small(name: str, width: float, height: float) -> bool:
        if name.startswith(CARD_BUTTONS):
            return width < TAP - 0.5 or height < CARD_TAP - 0.5
        return min(width, height) < TAP - 0.5

    return [c for c in page.evaluate(CONTROLS) if small(*c)]


def test_every_control_is_big_enough_to_tap_on_a_phone(new_page, site: Server) -> None:
    """Score buttons were 42x27 px, Target buttons 60x24, the lobby's Remove 73x24, the
    language's list 66x19, the header's links 19 px tall: a thumb missed them."""
    page: Page = new_page(375, 740)
    page.goto(site.url + "/")
    assert too_small_to_tap(page) == []
    screenshot(page, "tap-new-game-phone")

    page.get_by_label("Your name").fill("Alice")
    page.get_by_label("More players at this screen").fill("Bob")
    more_options(page)
    page.get_by_label("Friends to invite").fill("1")
    page.get_by_label("Declared target").check()
    page.get_by_role("button", name="Create game").click()
    expect(page.get_by_role("button", name="Remove").first).to_be_visible()
    assert too_small_to_tap(page) == []
    screenshot(page, "tap-lobby-phone")

    page.get_by_role("button", name="Start game").click()
    page.get_by_role("button", name="Roll").click()
    declare = page.get_by_role("button", name="Declare Chance as target")
    expect(declare).to_be_visible()
    assert too_small_to_tap(page) == []
    screenshot(page, "tap-table-declaring-phone")
    for row in page.locator(".scorecard tbody tr:has(button)").all():  # no taller than that
        assert row.bounding_box()["height"] <= TAP + 2, row

    declare.click()
    expect(page.locator("td.target")).to_have_count(1)
    assert too_small_to_tap(page) == []
    screenshot(page, "tap-table-scoring-phone")


def in_sight(page: Page) -> bool:
    """Whether the column of the player to move is whole in the scorecard's place, clear
    of the category names at its left edge."""
    return page.evaluate("""() => {
        const scorecard = document.querySelector('#table .scorecard-scroll');
        const place = scorecard.getBoundingClientRect();
        const names = scorecard.querySelector('thead th:first-child').getBoundingClientRect();
        const head = scorecard.querySelector('thead th.current').getBoundingClientRect();
        return head.left >= names.right - 0.5
            && head.right <= place.left + scorecard.clientWidth + 0.5;
    }""")


def next_frame(page: Page) -> None:
    page.evaluate("() => new Promise(done => requestAnimationFrame(() => setTimeout(done)))")


def test_the_column_of_the_player_to_move_comes_into_sight_on_a_phone(
    new_page, site: Server
) -> None:
    """Six at one phone: the scorecard scrolls sideways, and the fifth and sixth players'
    columns were out of sight at their turn, their score buttons with them."""
    page: Page = new_page(375, 740)
    sit_at_a_table(page, site, 6)
    scorecard = page.locator("#table .scorecard-scroll")
    assert scorecard.evaluate("e => e.scrollWidth > e.clientWidth")
    score_first_option(page)
    for number in range(2, 7):
        expect(page.get_by_role("status")).to_contain_text(f"Your turn, Player {number}.")
        assert in_sight(page), number
        page.get_by_role("button", name="Roll").click()
        expect(page.locator(".score-option").first).to_be_visible()
        assert in_sight(page), number  # the new table, after the roll, too
        if number == 6:
            break
        score_first_option(page)
    screenshot(page, "layout-sixth-players-turn-phone")

    # a player who scrolls back to look at the others' scores is left there
    scorecard.evaluate("e => e.scrollLeft = 0")
    next_frame(page)
    page.get_by_role("button", name="Roll").click()
    expect(page.locator("#roll-button")).to_contain_text("1 roll left")
    next_frame(page)
    assert scorecard.evaluate("e => e.scrollLeft") == 0
    assert page.get_by_role("rowheader", name="Ones").bounding_box()["x"] < 20  # still sticky
    score_first_option(page)
    expect(page.get_by_role("status")).to_contain_text("Your turn, Alice.")
    assert in_sight(page)


def test_a_friends_column_comes_into_sight_on_his_phone_at_his_turn(new_page, site: Server) -> None:
    """Bob on his phone, the fifth at Alice's table: his turn came over the WebSocket
    with his column, and his score buttons, out of sight."""
    alice: Page = new_page()
    alice.goto(site.url + "/")
    alice.get_by_label("Your name").fill("Alice")
    alice.get_by_label("More players at this screen").fill("Christina\nDominique\nEvangeline")
    more_options(alice)
    alice.get_by_label("Friends to invite").fill("1")
    alice.get_by_role("button", name="Create game").click()
    bob: Page = new_page(375, 740)
    bob.goto(alice.get_by_label("Invite link").input_value())
    bob.get_by_label("Your name").fill("Bob")
    bob.get_by_role("button", name="Join").click()
    # Start before Bob's seat reached her lobby would be a stale page's Start, refused
    expect(alice.get_by_text("Bob", exact=True)).to_be_visible()
    alice.get_by_role("button", name="Start game").click()
    expect(bob.get_by_role("status")).to_contain_text("Alice's turn.")
    last = bob.locator("thead th").last  # the last column: Bob, short and whole
    assert (
        last.locator(".player-short").inner_text(),
        last.locator(".player-name").inner_text(),
    ) == ("Bob", "Bob")

    players = ["Alice", "Christina", "Dominique", "Evangeline", "Bob"]
    for name, after in pairwise(players):
        expect(alice.get_by_role("status")).to_contain_text(f"Your turn, {name}.")
        alice.get_by_role("button", name="Roll").click()
        score_first_option(alice)
        expect(bob.locator("thead th.current .player-name")).to_have_text(after)
    expect(bob.get_by_role("status")).to_contain_text("Your turn, Bob.")
    assert in_sight(bob)
    screenshot(bob, "layout-friends-turn-phone")

    bob.reload()  # and on coming to the table
    expect(bob.get_by_role("status")).to_contain_text("Your turn, Bob.")
    assert in_sight(bob)


# Where ``needle`` is drawn inside ``element``: the left edge of its first occurrence
# in the element's text, measured on the text itself (null when it is not there).
LEFT_OF_TEXT = """(element, needle) => {
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const at = node.data.indexOf(needle);
        if (at >= 0) {
            const range = document.createRange();
            range.setStart(node, at);
            range.setEnd(node, at + needle.length);
            return range.getBoundingClientRect().left;
        }
    }
    return null;
}"""


@pytest.fixture
def game_with_an_overriding_name(transactional_db: None, dice: object) -> tuple[Game, list[int]]:
    """A finished public game of Alice's and Bob's, Alice's stored name holding a
    right-to-left override (U+202E), as names could before they were cleaned of it;
    with the two totals."""

    def play() -> tuple[Game, list[int]]:
        alice = Client()
        try:
            game = play_to_the_end(alice, create_game(alice, players="Bob", upper_only="on"))
            game.seats.filter(name="Alice").update(name="\u202eMallory")
            return game, [game.engine_state().totals(i).total for i in (0, 1)]
        finally:
            connections.close_all()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(play).result()


def test_a_name_with_a_right_to_left_override_leaves_the_rest_of_its_history_row_as_it_is(
    new_page, site: Server, game_with_an_overriding_name: tuple[Game, list[int]]
) -> None:
    """The public history showed "Mallory 22, Bob 35" as "53 boB ,22 yrollaM": the
    override ran on to the end of the row, over the other player's name and score."""
    _game, (mallory, bob) = game_with_an_overriding_name
    page: Page = new_page()
    page.goto(site.url + "/history/?tab=public")
    first, second = page.locator("table.history tbody tr").first.locator("td span").all()

    def left(span: Locator, needle: str) -> float:
        at = span.evaluate(LEFT_OF_TEXT, needle)
        assert at is not None, (needle, span.inner_text())
        return at

    # each name before its score, and the override's name (drawn reversed, its own
    # business) before Bob's, as the row is written
    assert left(first, "Mallory") < left(first, str(mallory))
    assert left(second, "Bob") < left(second, str(bob))
    assert left(first, "Mallory") < left(second, "Bob")
    assert left(first, str(mallory)) < left(second, "Bob")
