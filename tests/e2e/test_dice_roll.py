"""Dice that roll, for everyone at the table: big enough to see and tap, tumbling when
rolled (the rolled ones only) in the roller's browser and in the others', still under
prefers-reduced-motion, with an optional sound; and a disabled Roll that reads, as
does what the others read in its place."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import screenshot
from tests.e2e.test_layout import sit_at_a_table
from tests.e2e.test_remote import alice_and_bob_at_the_table
from tests.servers import Server

ROLLING = "#table .die.rolling"

# the contrast ratio (WCAG 2) of an element's text against the first background behind it
CONTRAST = """element => {
    const rgb = text => text.match(/[\\d.]+/g).map(Number);
    const luminance = ([r, g, b]) => {
        const linear = c => (c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
        return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
    };
    let behind = element;
    while (behind && rgb(getComputedStyle(behind).backgroundColor)[3] === 0) {
        behind = behind.parentElement;
    }
    const style = getComputedStyle(element);
    if (style.opacity !== "1") return 0;
    const [light, dark] = [rgb(style.color), rgb(getComputedStyle(behind).backgroundColor)]
        .map(luminance).sort((a, b) => b - a);
    return (light + 0.05) / (dark + 0.05);
}"""


def roll_on_screen(page: Page, roll: int) -> None:
    """Wait for the table of the turn's ``roll``-th roll."""
    expect(page.locator(f"#table .dice-area[data-roll$='.{roll}']")).to_be_attached()


def test_a_roll_tumbles_the_rolled_dice_in_every_browser_and_not_the_held_ones(
    new_page, site: Server
) -> None:
    alice, bob = alice_and_bob_at_the_table(new_page, site)
    alice.get_by_role("button", name="Roll").click()
    for page in (alice, bob):  # her answer, his push
        roll_on_screen(page, 1)
        expect(page.locator(ROLLING)).to_have_count(5)

    alice.get_by_role("button", name="Die 2:").click()
    alice.get_by_role("button", name="Die 4:").click()
    for page in (alice, bob):  # holding moves no die
        expect(page.locator("#table .die.held")).to_have_count(2)
        expect(page.locator(ROLLING)).to_have_count(0)

    alice.get_by_role("button", name="Roll").click()
    for page in (alice, bob):
        roll_on_screen(page, 2)
        expect(page.locator(ROLLING)).to_have_count(3)
        expect(page.locator("#table .die.held.rolling")).to_have_count(0)
        rolled = page.locator(ROLLING).evaluate_all("dice => dice.map(die => die.id)")
        assert rolled == ["die-0", "die-2", "die-4"]
        timing = page.locator(f"{ROLLING} .die-face").first.evaluate(
            "face => [getComputedStyle(face).animationName,"
            " getComputedStyle(face).animationDuration]"
        )
        assert timing[0].startswith("die-roll"), timing
        assert float(timing[1].removesuffix("s")) <= 0.6, timing  # within ~600 ms

    bob.reload()  # a table that comes with the page is not a roll
    expect(bob.locator("#table .die")).to_have_count(5)
    expect(bob.locator(ROLLING)).to_have_count(0)


def test_nothing_moves_under_reduced_motion(new_page, site: Server) -> None:
    page: Page = new_page(375, 667)
    page.emulate_media(reduced_motion="reduce")
    sit_at_a_table(page, site, 2)
    page.get_by_role("button", name="Roll").click()  # a second roll
    roll_on_screen(page, 2)
    expect(page.locator(ROLLING)).to_have_count(0)
    # and were a die marked, its face would not move
    face = page.locator("#die-0 .die-face")
    page.locator("#die-0").evaluate("die => die.classList.add('rolling')")
    assert face.evaluate("face => getComputedStyle(face).animationName") == "none"
    assert page.evaluate("document.getAnimations().length") == 0


@pytest.mark.parametrize(("width", "least"), [(375, 56), (1280, 64)])
def test_the_dice_are_big_enough_and_a_disabled_roll_reads(
    new_page, site: Server, width: int, least: int
) -> None:
    alice, bob = alice_and_bob_at_the_table(new_page, site)
    alice.set_viewport_size({"width": width, "height": 800})
    bob.set_viewport_size({"width": width, "height": 800})
    alice.get_by_role("button", name="Roll").click()
    roll_on_screen(bob, 1)
    for die in bob.locator("#table .die").all():
        box = die.bounding_box()
        assert box["width"] >= least and box["height"] >= least, box

    # Alice's turn: in place of a Roll Bob cannot press, what she is doing (issue 46)
    expect(bob.locator("#roll-button")).to_be_hidden()
    line = bob.locator(".dice-area .turn-line")
    expect(line).to_have_text("Alice is rolling…", use_inner_text=True)
    assert line.evaluate(CONTRAST) >= 4.5  # WCAG AA, for its words
    screenshot(bob, f"dice-others-turn-{width}")
    for _again in range(2):  # Alice's rolls used up: her Roll cannot be pressed, and reads
        alice.get_by_role("button", name="Roll").click()
        expect(alice.locator(".htmx-request")).to_have_count(0)
    roll = alice.locator("#roll-button")
    expect(roll).to_contain_text("0 rolls left")
    expect(roll).to_be_disabled()
    assert roll.evaluate(CONTRAST) >= 4.5


def test_the_dice_sound_is_off_until_asked_for_and_remembered(new_page, site: Server) -> None:
    page: Page = new_page()
    sit_at_a_table(page, site, 2)
    assert page.evaluate("window.yatzyRollSounds") == 0  # off by default
    sound = page.get_by_role("button", name="Sound of the dice")
    expect(sound).to_have_attribute("aria-pressed", "false")
    sound.click()
    expect(sound).to_have_attribute("aria-pressed", "true")

    page.reload()
    expect(sound).to_have_attribute("aria-pressed", "true")  # remembered
    page.get_by_role("button", name="Roll").click()
    roll_on_screen(page, 2)
    page.wait_for_function("() => window.yatzyRollSounds === 1")  # a function: CSP forbids eval
    sound.click()
    expect(sound).to_have_attribute("aria-pressed", "false")
    page.get_by_role("button", name="Roll").click()
    roll_on_screen(page, 3)
    assert page.evaluate("window.yatzyRollSounds") == 1


# The rolled dice at a moment of their tumble, as the eye sees them then (the pips'
# opacity, the face's motion): their tumble begun again (a slow machine may be past
# the real one's half second) and held at ``ms`` milliseconds in.
AT_MOMENT = """([selector, ms]) => {
    document.querySelectorAll(selector).forEach(die => {
        die.classList.remove('rolling');
        void die.offsetWidth;
        die.classList.add('rolling');
    });
    document.getAnimations().forEach(animation => {
        animation.pause();
        animation.currentTime = ms;
    });
    return [...document.querySelectorAll(selector)].map(die => ({
        pips: [...die.querySelectorAll('.die-face circle')].map(c => getComputedStyle(c).opacity),
        moving: getComputedStyle(die.querySelector('.die-face')).transform !== 'none',
    }));
}"""


def test_a_tumbling_die_shows_its_face_only_as_it_lands(new_page, site: Server) -> None:
    """Issue 46: the dice showed their final faces while they tumbled."""
    page: Page = new_page(375, 667)
    sit_at_a_table(page, site, 2)
    page.get_by_role("button", name="Roll").click()
    roll_on_screen(page, 2)
    expect(page.locator(ROLLING)).to_have_count(5)

    tumbling = page.evaluate(AT_MOMENT, [ROLLING, 100])
    assert all(die["moving"] for die in tumbling)
    assert {opacity for die in tumbling for opacity in die["pips"]} == {"0"}  # no face yet
    screenshot(page, "dice-tumbling-375")
    landed = page.evaluate(AT_MOMENT, [ROLLING, 490])
    assert {opacity for die in landed for opacity in die["pips"]} == {"1"}  # the roll shows
    # and once over, the faces stay
    page.evaluate("document.getAnimations().forEach(animation => animation.finish())")
    expect(page.locator("#table .die-face circle").first).to_have_css("opacity", "1")
