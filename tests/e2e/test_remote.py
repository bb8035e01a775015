"""Two friends in two browsers: invite link, lobby, a whole game over WebSockets,
a spectator, and a page closed and reopened mid-game."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.e2e.conftest import more_options, score_first_option, screenshot
from tests.servers import Server

DIE = re.compile(r"^Die \d: \d$")
SAME_DICE = """labels => labels.join() === [...document.querySelectorAll('.die')]
    .map(button => button.getAttribute('aria-label')).join()"""


def dice_of(page: Page) -> list[str]:
    return page.get_by_role("button", name=DIE).evaluate_all(
        "buttons => buttons.map(b => b.getAttribute('aria-label'))"
    )


@pytest.mark.slow
def test_two_friends_play_a_game_by_invite_link(new_page, site: Server) -> None:
    alice: Page = new_page()
    alice.goto(site.url + "/")
    alice.get_by_label("Your name").fill("Alice")
    more_options(alice)
    alice.get_by_label("Friends to invite").fill("1")
    alice.get_by_label("Upper section only").check()
    alice.get_by_role("button", name="Create game").click()
    invite = alice.get_by_label("Invite link").input_value()
    assert "/join/" in invite
    expect(alice.get_by_role("img", name="QR code of the invite link")).to_be_visible()

    bob: Page = new_page(360, 740)
    bob.goto(invite)
    bob.get_by_label("Your name").fill("Bob")
    bob.get_by_role("button", name="Join").click()
    expect(alice.get_by_text("Bob", exact=True)).to_be_visible()  # the lobby fills live
    screenshot(alice, "lobby-desktop")
    # Bob's lobby, on his phone: his personal link, folded away, wraps instead of
    # widening the page
    bob.get_by_text("Continue on another device", exact=True).click()
    expect(bob.get_by_text("Your personal link")).to_be_visible()
    assert bob.evaluate("document.documentElement.scrollWidth") <= 360
    screenshot(bob, "lobby-phone")
    alice.get_by_role("button", name="Start game").click()
    expect(alice.get_by_role("status")).to_contain_text("Your turn, Alice.")
    expect(bob.get_by_role("status")).to_contain_text("Alice's turn.")  # followed by itself

    watcher: Page = new_page()
    watcher.goto(alice.url)
    expect(watcher.get_by_role("status")).to_contain_text("Alice's turn.")

    players = {"Alice": alice, "Bob": bob}
    for turn in range(12):
        name, other = ("Alice", "Bob") if turn % 2 == 0 else ("Bob", "Alice")
        me, them = players[name], players[other]
        if turn == 5:  # Bob's phone drops the page and comes back
            bob.close()
            bob = players["Bob"] = new_page_in(bob, site)
            me, them = players[name], players[other]
        expect(me.get_by_role("status")).to_contain_text(f"Your turn, {name}.")
        before = me.locator("#table").get_attribute("data-version")
        with me.expect_response(lambda r: "/roll/" in r.url) as answer:
            me.get_by_role("button", name="Roll").click()
        if turn == 0:  # the move names its page, as the page's socket does (and CSRF)
            sent = answer.value.request.headers
            socket_page = me.locator(".table-page").get_attribute("ws-connect").split("/")[-2]
            assert sent.get("x-yatzy-page") == socket_page and sent.get("x-csrftoken")
        # The answer has arrived; htmx swaps it in a moment later (under load, later
        # still): read the dice once the rolled table is on screen, not the one before.
        expect(me.locator("#table")).not_to_have_attribute("data-version", before)
        rolled = dice_of(me)
        expect(them.get_by_role("button", name=DIE).first).to_be_visible()
        for who, viewer in ((other, them), ("the spectator", watcher)):
            see_the_same_dice(viewer, rolled, f"turn {turn}: {who} after {name}'s roll")
        if turn == 2:
            screenshot(bob, "remote-phone")
        score_first_option(me)
        if turn < 11:
            expect(them.get_by_role("status")).to_contain_text(f"Your turn, {other}.")

    for page in (alice, players["Bob"], watcher):
        expect(page.get_by_role("status")).to_contain_text("Game over")
    totals = [
        alice.locator("tr.row-total td").all_inner_texts(),
        players["Bob"].locator("tr.row-total td").all_inner_texts(),
        watcher.locator("tr.row-total td").all_inner_texts(),
    ]
    assert totals[0] == totals[1] == totals[2]
    screenshot(alice, "remote-finished")


def bob_in_alices_lobby(
    new_page, site: Server, bob: Page | None = None, friends: int = 1
) -> tuple[Page, Page]:
    """Alice's game on ``site`` for ``friends`` friends, Bob (``bob``, else a new page)
    joined by her invite link."""
    alice: Page = new_page()
    alice.goto(site.url + "/")
    alice.get_by_label("Your name").fill("Alice")
    more_options(alice)
    alice.get_by_label("Friends to invite").fill(str(friends))
    alice.get_by_role("button", name="Create game").click()
    bob = bob or new_page()
    bob.goto(alice.get_by_label("Invite link").input_value())
    bob.get_by_label("Your name").fill("Bob")
    bob.get_by_role("button", name="Join").click()
    expect(alice.get_by_text("Bob", exact=True)).to_be_visible()
    return alice, bob


# Counts the messages of the page's socket, from each page's start.
COUNT_PUSHES = """
window.yatzyPushes = 0;
document.addEventListener('htmx:wsAfterMessage', () => { window.yatzyPushes += 1; });
"""
# the table page, with its socket's first table in (a function: CSP forbids eval)
LIVE_TABLE = "() => document.getElementById('roll-button') !== null && window.yatzyPushes >= 1"


def alice_and_bob_at_the_table(new_page, site: Server) -> tuple[Page, Page]:
    """Alice's game on ``site``, Bob joined by her invite link, started: her turn, and
    both pages live (the table their socket brings on connecting is in: a move made
    before it may be answered by that table instead, which replaces the one the
    answer was for)."""
    alice, bob = bob_in_alices_lobby(new_page, site)
    for page in (alice, bob):
        page.add_init_script(COUNT_PUSHES)
    alice.get_by_role("button", name="Start game").click()
    expect(alice.get_by_role("status")).to_contain_text("Your turn, Alice.")
    expect(bob.get_by_role("status")).to_contain_text("Alice's turn.")
    for page in (alice, bob):
        page.wait_for_function(LIVE_TABLE)
    return alice, bob


def test_a_friend_coming_and_going_leaves_the_players_buttons_in_place(
    new_page, site: Server
) -> None:
    """A friend's phone drops and comes back while Alice is to move: her presence list
    says so, and only it is replaced, so a click of hers at that moment still lands,
    and a question the site has just asked her is still there to answer."""
    alice, bob = alice_and_bob_at_the_table(new_page, site)
    expect(alice.get_by_text("Bob: connected")).to_be_visible()
    alice.evaluate("window.rollShown = document.getElementById('roll-button')")

    bob.close()
    expect(alice.get_by_text("Bob: away")).to_be_visible()
    bob = new_page_in(bob, site)
    expect(alice.get_by_text("Bob: connected")).to_be_visible()

    assert alice.evaluate("window.rollShown === document.getElementById('roll-button')")
    alice.get_by_role("button", name="Roll").click()
    expect(alice.get_by_role("button", name="Roll")).to_contain_text("2 rolls left")
    expect(bob.get_by_role("button", name=DIE).first).to_be_visible()

    # What the answer to her own request added stays too: here a zero to confirm.
    alice.locator(".score-option.zero").first.click()
    confirm = alice.get_by_role("button", name=re.compile(r"^Yes, score 0 in "))
    expect(confirm).to_be_visible()
    bob.close()
    expect(alice.get_by_text("Bob: away")).to_be_visible()
    expect(confirm).to_be_visible()
    screenshot(alice, "confirm-while-a-friend-is-away")
    confirm.click()
    expect(alice.get_by_role("status")).to_contain_text("Bob's turn.")


@pytest.mark.slow
def test_the_skip_buttons_come_without_wiping_what_the_host_was_told(
    new_page, impatient_site: Server
) -> None:
    """Bob leaves at his turn, and after a while Alice's page offers to skip him: a
    change of the table's shape at the version on screen, which used to replace the
    whole table and wipe the refusal her page had just been answered."""
    alice, bob = alice_and_bob_at_the_table(new_page, impatient_site)
    alice.get_by_role("button", name="Roll").click()
    score_first_option(alice)
    expect(bob.get_by_role("status")).to_contain_text("Your turn, Bob.")
    # A page of Alice's from before (another tab, say) asks to roll: refused, and
    # said on the table she has.
    alice.evaluate(
        """htmx.ajax('POST', location.pathname + 'roll/', {target: '#table',
        swap: 'outerHTML', values: {version: document.querySelector('#table').dataset.version}})"""
    )
    notice = alice.get_by_role("alert")
    expect(notice).to_contain_text("Bob")

    bob.close()
    expect(alice.get_by_text("Bob: away")).to_be_visible()
    expect(alice.get_by_role("button", name="Skip Bob's turn (0 in Ones)")).to_be_visible()

    expect(notice).to_be_visible()
    expect(alice.locator("#table .skip")).to_have_count(2)
    # in its place (beside the scorecard with the dice, issue 46)
    expect(alice.locator("#table > .turn-side > .presence + .skip-offer")).to_have_count(1)
    screenshot(alice, "skip-offered-beside-a-refusal")
    alice.get_by_role("button", name="Skip Bob's turn (0 in Ones)").click()
    expect(alice.get_by_role("status")).to_contain_text("Your turn, Alice.")


def see_the_same_dice(page: Page, rolled: list[str], what: str) -> None:
    """Wait for ``page`` to show the dice that were rolled; if it never does, say what
    it shows instead."""
    try:
        page.wait_for_function(SAME_DICE, arg=rolled)
    except PlaywrightTimeout:
        shown = page.locator("#table").get_attribute("data-version")
        raise AssertionError(
            f"{what}: expected {rolled}, shows {dice_of(page)} at version {shown}"
        ) from None


def new_page_in(closed: Page, site: Server) -> Page:
    """A new tab in the same browser (same cookies) opened on the table again."""
    page = closed.context.new_page()
    page.goto(closed.url)
    return page


CLICK_AT_ONCE = """() => {
    // a die clicked as soon as the rolled table is swapped in, before the browser has
    // even painted it: faster than any finger
    document.body.addEventListener("htmx:afterSwap", () => setTimeout(() => {
        document.getElementById("die-0").click();
        document.body.dataset.clickedAtOnce = "yes";
    }, 0), {once: true});
    document.getElementById("roll-button").click();
}"""


def test_a_click_on_a_table_just_swapped_in_is_a_press(new_page, site: Server) -> None:
    """htmx took a new table's forms over 20 ms after swapping it in: a click before
    that was sent by the browser without the CSRF header ("This page has expired"),
    and later dropped, a press lost. Now the table is taken over as it comes in."""
    alice, _bob = alice_and_bob_at_the_table(new_page, site)
    table_url = alice.url
    holds: list[str] = []  # each request to the die's address: a page ("document") or htmx's
    alice.on(
        "request", lambda request: "/hold/" in request.url and holds.append(request.resource_type)
    )

    alice.evaluate(CLICK_AT_ONCE)
    expect(alice.locator("body[data-clicked-at-once]")).to_be_attached()
    expect(alice.get_by_role("button", name="Roll")).to_contain_text("2 rolls left")
    expect(alice.locator("#die-0")).to_have_attribute("aria-pressed", "true")

    assert holds == ["xhr"]
    assert alice.url == table_url
    expect(alice.get_by_text("This page has expired")).to_have_count(0)


REFUSED_TAKE_BACK = """url => {
    // the take-back's form, as the page shows it to a player whose seat was handed over
    const form = document.createElement("form");
    form.method = "post";
    form.action = url;
    const token = JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"];
    form.innerHTML = '<input type="hidden" name="csrfmiddlewaretoken" value="' + token + '">';
    document.body.appendChild(form);
    form.submit();
}"""


def test_a_page_at_a_refused_posts_address_resynchronises_from_the_table(
    new_page, site: Server
) -> None:
    _alice, bob = alice_and_bob_at_the_table(new_page, site)
    table_url = bob.url

    with bob.expect_navigation():
        bob.evaluate(REFUSED_TAKE_BACK, table_url + "takeback/")
    expect(bob.get_by_text("No seat at this table was handed over")).to_be_visible()
    assert bob.url.endswith("/takeback/")
    with bob.expect_response(lambda r: r.request.method == "GET" and "/g/" in r.url) as resync:
        bob.evaluate("document.dispatchEvent(new Event('visibilitychange'))")  # back to the tab

    assert resync.value.url == table_url and resync.value.status == 200
    expect(bob.get_by_role("status").first).to_contain_text("Alice's turn.")
    expect(bob.get_by_text("does not take that kind of request")).to_have_count(0)


def test_the_lobby_follows_the_game_to_its_table_without_an_error(new_page, site: Server) -> None:
    """A lobby page was pushed the table too, which it has no place for: htmx logged an
    error on every page in the lobby as the game started."""
    bob: Page = new_page()
    errors: list[str] = []
    bob.on("console", lambda message: message.type == "error" and errors.append(message.text))
    alice, bob = bob_in_alices_lobby(new_page, site, bob)
    lobby_url = bob.url

    with bob.expect_navigation():
        alice.get_by_role("button", name="Start game").click()

    expect(bob.get_by_role("status").first).to_contain_text("Alice's turn.")
    assert bob.url != lobby_url
    assert errors == []


@pytest.mark.parametrize("clipboard", ["api", "none"])
def test_the_invite_link_is_copied_and_the_button_says_so(
    new_page, site: Server, clipboard: str
) -> None:
    """Where the page has no clipboard API (a site on the home network, over plain
    HTTP), the link is copied all the same."""
    alice: Page = new_page()
    alice.context.grant_permissions(["clipboard-read", "clipboard-write"])
    if clipboard == "none":
        alice.add_init_script(
            "Object.defineProperty(navigator, 'clipboard', {value: undefined, configurable: true})"
        )
    alice.goto(site.url + "/")
    alice.get_by_label("Your name").fill("Alice")
    more_options(alice)
    alice.get_by_label("Friends to invite").fill("1")
    alice.get_by_role("button", name="Create game").click()
    link = alice.get_by_label("Invite link").input_value()

    copy = alice.locator(".invite").get_by_role("button", name="Copy")
    copy.click()

    expect(alice.locator(".invite").get_by_role("button", name="Copied")).to_be_visible()
    if clipboard == "none":
        alice.evaluate("delete navigator.clipboard")  # only this check reads it back
    assert alice.evaluate("navigator.clipboard.readText()") == link
    expect(copy).to_be_visible()  # and says Copy again


def test_the_personal_link_is_whole_and_copied_also_after_the_lobby_is_pushed(
    new_page, site: Server
) -> None:
    """Bob's link to his seat, to go on on another device: it was shown as a bare path
    (/g/.../seat/.../), of no use typed on a phone, and had no Copy button. A friend's
    arrival pushes the lobby over the socket, which knows no address of the site."""
    alice, bob = bob_in_alices_lobby(new_page, site, friends=2)
    bob.context.grant_permissions(["clipboard-read", "clipboard-write"])
    bob.get_by_text("Continue on another device", exact=True).click()
    field = bob.get_by_label("Your personal link, not to share, to continue on another device:")
    expect(field).to_have_value(re.compile("^" + re.escape(site.url) + "/g/[^/]+/seat/[^/]+/$"))
    link = field.input_value()

    carol = new_page()
    carol.goto(alice.get_by_label("Invite link").input_value())
    carol.get_by_label("Your name").fill("Carol")
    carol.get_by_role("button", name="Join").click()
    # the pushed lobby, once Carol's page is there too (no push to come to cut the copy short)
    expect(bob.locator(".seats li", has_text="Carol").locator(".online")).to_have_text("here")
    expect(field).to_have_value(link)

    bob.get_by_role("button", name="Copy my personal link").click()
    expect(bob.locator(".rejoin").get_by_role("button", name="Copied")).to_be_visible()
    assert bob.evaluate("navigator.clipboard.readText()") == link
    other_device = new_page()
    other_device.goto(link)
    expect(other_device.get_by_role("heading", name="Take this seat?")).to_be_visible()
    screenshot(other_device, "take-this-seat")
    other_device.get_by_role("button", name="Take this seat").click()
    expect(other_device.get_by_text("Carol", exact=True)).to_be_visible()  # Bob's lobby
    other_device.get_by_text("Continue on another device", exact=True).click()
    expect(other_device.get_by_label(re.compile("personal link"))).to_have_value(link)


def test_the_other_players_moves_are_announced_in_a_region_that_stays(
    new_page, site: Server
) -> None:
    """A screen reader reads a live region out when its text changes, not one that
    comes with its text: the table, turn banner included, is new at every move, so
    Bob heard nothing of Alice's moves. The announcement stays, and each move's table
    fills it."""
    alice, bob = alice_and_bob_at_the_table(new_page, site)
    announcement = bob.locator("#announcement")
    expect(announcement).to_have_attribute("aria-live", "polite")
    announcement.evaluate("e => e.dataset.first = 'yes'")

    alice.get_by_role("button", name="Roll").click()
    expect(announcement).to_have_text(re.compile(r"^Alice rolled \d, \d, \d, \d, \d\.$"))
    expect(bob.locator(".last-move")).to_have_text(announcement.inner_text())
    alice.get_by_role("button", name=re.compile(r"^Score \d+ in Chance$")).click()
    expect(announcement).to_have_text(
        re.compile(r"^Alice scored \d+ in Chance\. Your turn, Bob\. Roll the dice\.$")
    )
    assert announcement.evaluate("e => e.dataset.first") == "yes"  # the same element
    expect(alice.locator("#announcement")).to_contain_text("Alice scored")  # her own too


def test_a_friend_in_the_lobby_shows_here_or_away_and_may_leave(new_page, site: Server) -> None:
    """The host could not tell a friend who had closed the lobby from one still there,
    and a friend who joined by mistake could not give the seat up."""
    alice: Page = new_page()
    alice.goto(site.url + "/")
    alice.get_by_label("Your name").fill("Alice")
    more_options(alice)
    alice.get_by_label("Friends to invite").fill("2")
    alice.get_by_role("button", name="Create game").click()
    friends = []
    for name in ("Bob", "Carol"):
        friend = new_page()
        friend.goto(alice.get_by_label("Invite link").input_value())
        friend.get_by_label("Your name").fill(name)
        friend.get_by_role("button", name="Join").click()
        expect(alice.locator(".seats li", has_text=name).locator(".online")).to_have_text("here")
        friends.append(friend)
    bob, carol = friends

    bob.close()
    expect(alice.locator(".seats li", has_text="Bob").locator(".offline")).to_have_text("away")

    screenshot(carol, "lobby-friend")
    screenshot(alice, "lobby-host")
    carol.get_by_role("button", name="Leave this table").click()
    expect(carol.get_by_role("button", name="Join")).to_be_visible()  # the invite, again
    expect(alice.locator(".seats li.open")).to_contain_text("waiting for a friend")
    expect(alice.locator(".seats")).not_to_contain_text("Carol")


START_BUTTON = "document.querySelector('#lobby button.primary')"


def test_a_friend_coming_and_going_leaves_the_hosts_start_button_in_place(
    new_page, site: Server
) -> None:
    """Each friend's page arriving or leaving pushed a whole new lobby, which replaced
    the Start button: a press made as it came was lost (CI, once)."""
    alice, bob = bob_in_alices_lobby(new_page, site)
    expect(alice.locator(".seats li", has_text="Bob").locator(".online")).to_have_text("here")
    alice.evaluate(f"() => {{ window.startShown = {START_BUTTON}; }}")

    bob.close()
    expect(alice.locator(".seats li", has_text="Bob").locator(".offline")).to_have_text("away")

    assert alice.evaluate(f"() => window.startShown === {START_BUTTON}")
    alice.get_by_role("button", name="Start game").click()
    expect(alice.get_by_role("status")).to_contain_text("Your turn, Alice.")


def test_a_friend_who_closed_the_table_finds_it_again_from_the_home_page(
    new_page, site: Server
) -> None:
    _alice, bob = alice_and_bob_at_the_table(new_page, site)
    table = bob.url

    bob.goto(site.url + "/")  # the tab went elsewhere; the session is the browser's
    bob.set_viewport_size({"width": 375, "height": 740})
    going = bob.get_by_role("region", name="Your games in progress")
    expect(going).to_contain_text("playing")
    screenshot(bob, "home-in-progress-phone")
    going.get_by_role("link", name="Scandinavian Yatzy: Alice, Bob").click()

    assert bob.url == table
    expect(bob.get_by_role("status")).to_contain_text("Alice's turn.")
