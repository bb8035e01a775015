"""Real browsers against a real server: headless Chromium (Debian's) driven by
Playwright, and the site served by daphne in its own process on the test database.

Without /usr/bin/chromium the browser tests skip and say why, except under CI,
where a missing browser fails the run.

Every wait is for a condition, bounded by YATZY_E2E_TIMEOUT_S (30 s unless set): on a
busy machine a page takes seconds where it takes milliseconds on an idle one, and a
bound that short failed tests that were right. A test that fails still fails, later.

Screenshots, to be looked at (a layout bug hides from assertions), are saved to
var/screenshots/ with YATZY_SCREENSHOTS=1 only: a full page's PNG costs a busy
machine's CPU, some 300 of them a run. A failed test saves its open pages' there
whatever the variable says (``failed-<test>-<n>.png``), and says so in its report.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import pytest
from django.db import connection, connections
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect

from games.models import Game
from tests.servers import Server, database_url_of_this_run
from tests.waits import WAIT_S

T = TypeVar("T")
CHROMIUM = "/usr/bin/chromium"
SHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"
TAKE_SCREENSHOTS = os.environ.get("YATZY_SCREENSHOTS", "") not in ("", "0")
# The turn timer the test servers offer beside the real ones (YATZY_TEST_TURN_TIMER_S)
SHORT_TURN_S = 10


# How long any wait for a page (an expectation, a click, a navigation) may take.
TIMEOUT_MS = WAIT_S * 1000
expect.set_options(timeout=TIMEOUT_MS)

# Playwright's sync API runs an event loop in the test's thread; the Django calls
# the tests make there are ordinary blocking ones.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


# Every uncaught script error ("pageerror") on any page a test opens, as
# "url: message", until ``no_script_error`` takes it at the end of the test.
SCRIPT_ERRORS: list[str] = []

# Every page the test opened, for the screenshots of a failed test
PAGES: list[Page] = []


def watch_page(page: Page) -> None:
    """Keep ``page``'s uncaught script errors in ``SCRIPT_ERRORS``, and the page in
    ``PAGES``."""
    page.on("pageerror", lambda error: SCRIPT_ERRORS.append(f"{page.url}: {error}"))
    PAGES.append(page)


def screenshots_of_a_failure(item: pytest.Item) -> list[str]:
    """Save every page the failed test still has open; where each went."""
    saved = []
    name = re.sub(r"[^\w.-]+", "-", item.name)
    for number, page in enumerate(PAGES):
        if page.is_closed():
            continue
        path = SHOTS / f"failed-{name}-{number}.png"
        try:
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(path), full_page=True, timeout=5_000)
        except Exception as error:  # a page that cannot be drawn says why, and no more
            saved.append(f"{page.url}: no screenshot ({error})")
        else:
            saved.append(f"{page.url}: {path}")
    return saved


# The requests each context of the test has made and not had answered, by Playwright's
# request: (when it was made, what), told with a failed test's report, so that a page
# load that timed out says what it was waiting for (``pytest_runtest_makereport``).
IN_FLIGHT: dict[object, tuple[float, str]] = {}


def watch_requests(context: BrowserContext) -> None:
    """Keep ``context``'s requests in ``IN_FLIGHT`` until answered or failed."""
    context.on(
        "request",
        lambda request: IN_FLIGHT.__setitem__(
            request,
            (time.monotonic(), f"{request.method} {request.url} ({request.resource_type})"),
        ),
    )
    context.on("requestfinished", lambda request: IN_FLIGHT.pop(request, None))
    context.on("requestfailed", lambda request: IN_FLIGHT.pop(request, None))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):
    """A failed browser test's report tells the requests still unanswered and the end
    of the site's log: a page that did not load says what it waited for."""
    report = yield
    if report.failed:
        now = time.monotonic()
        waiting = [f"{now - made:.1f} s: {what}" for made, what in IN_FLIGHT.values()]
        report.sections.append(("requests unanswered", "\n".join(waiting) or "none"))
        server = getattr(item, "funcargs", {}).get("site")
        if isinstance(server, Server):
            report.sections.append(("the site's log, its end", server.log_tail()))
        if report.when == "call":
            shots = screenshots_of_a_failure(item)
            report.sections.append(("screenshots of its pages", "\n".join(shots) or "none"))
    if report.when == "teardown":
        IN_FLIGHT.clear()
        PAGES.clear()
    return report


class WatchedBrowser:
    """The browser, each page of whose contexts is watched for uncaught script errors
    (``watch_page``) and unanswered requests (``watch_requests``): a test that opens a
    context of its own is watched too."""

    def __init__(self, browser: Browser) -> None:
        self.browser = browser

    def new_context(self, **options: Any) -> BrowserContext:
        # The site's service worker only where a test asks for it (test_offline.py):
        # each new context would install it again (the offline page in five languages,
        # the CSS, the icons), for nothing the test looks at. (It was left out first for
        # a page load just after a change of language, which waited 30 s for the new
        # language's worker taking over, once in three full runs; there is one worker
        # for every language since.)
        options.setdefault("service_workers", "block")
        context = self.browser.new_context(**options)
        context.on("page", watch_page)
        watch_requests(context)
        return context

    def new_page(self, **options: Any) -> Page:
        page = self.browser.new_page(**options)
        watch_page(page)
        return page

    def __getattr__(self, name: str) -> Any:
        return getattr(self.browser, name)


@pytest.fixture(autouse=True)
def no_script_error() -> Iterator[None]:
    """Fail the test if any page it opened threw an error no script caught (issue 46)."""
    SCRIPT_ERRORS.clear()
    yield
    errors = list(SCRIPT_ERRORS)
    SCRIPT_ERRORS.clear()
    if errors:
        pytest.fail("uncaught script error on a page:\n" + "\n".join(errors))


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is missing: CI must run the browser tests")
        pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium) - browser tests skipped")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        yield WatchedBrowser(chromium)
        chromium.close()


def serve_site(django_db_blocker: object, **env: str) -> Server:
    """daphne serving the site on this test run's database (and Redis, if set), with
    the settings ``env`` gives beside."""
    with django_db_blocker.unblock():  # type: ignore[attr-defined]
        if connection.vendor == "sqlite":
            database = f"sqlite:///{connection.settings_dict['NAME']}"
        else:
            database = database_url_of_this_run()
    # computer players step every 0.2 s here (0.9 s on a real table), and a turn timer
    # of 10 s is offered beside the real ones (30 s and up), to keep the run short
    defaults = {
        "DATABASE_URL": database,
        "LOG_LEVEL": "WARNING",
        "YATZY_BOT_DELAY_MS": "200",
        "YATZY_TEST_TURN_TIMER_S": str(SHORT_TURN_S),
    }
    # (the start, Django's imports and the first /healthz, took over 30 s on a 2-core
    # machine at a load of 15: a server is given twice a page's wait)
    return Server({**defaults, **env}).start(timeout=2 * WAIT_S)


@pytest.fixture(scope="session")
def site(django_db_setup: None, django_db_blocker: object) -> Iterator[Server]:
    server = serve_site(django_db_blocker)
    yield server
    server.stop()


# The servers of other settings are kept for the run (or the module) as ``site`` is: a
# server's start is seconds of a busy machine's CPU, and it keeps nothing of a test that
# another test meets (each test's games, browsers and sockets are its own).
@pytest.fixture(scope="session")
def impatient_site(django_db_blocker: object, site: Server) -> Iterator[Server]:
    """The site where the player to move may be skipped after 2 s away, not 30."""
    server = serve_site(django_db_blocker, YATZY_AWAY_BEFORE_SKIP_S="2")
    yield server
    server.stop()


@pytest.fixture
def new_page(browser: object, site: Server, transactional_db: None):
    """Open a fresh browser context (a separate person) and a page in it."""
    contexts = []

    def open_page(
        width: int = 1280, height: int = 900, clock: bool = False, service_worker: bool = False
    ):
        """``clock``: the page's time is the test's (``page.clock.run_for``), so that
        the retries a page would make in a minute are made at once. ``service_worker``:
        the site's service worker is let in (``WatchedBrowser.new_context``)."""
        context = browser.new_context(  # type: ignore[attr-defined]
            viewport={"width": width, "height": height},
            service_workers="allow" if service_worker else "block",
        )
        context.set_default_timeout(TIMEOUT_MS)
        context.set_default_navigation_timeout(TIMEOUT_MS)
        if clock:
            context.clock.install()
        contexts.append(context)
        return context.new_page()

    yield open_page
    for context in contexts:
        context.close()


def screenshot(shown: Page | Locator, name: str, full_page: bool = True) -> None:
    """Save a page (the whole of it, or what the window shows) or an element as
    var/screenshots/<name>.png, with YATZY_SCREENSHOTS=1 (the module's docstring)."""
    if not TAKE_SCREENSHOTS:
        return
    SHOTS.mkdir(parents=True, exist_ok=True)
    if isinstance(shown, Page):
        shown.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full_page)
    else:
        shown.screenshot(path=str(SHOTS / f"{name}.png"))


def score_first_option(page: object) -> None:
    """Click the first score button on ``page``, confirming a zero if asked; return once
    the table after the score is on the page.

    The answer's arrival is not enough: htmx swaps it in after it arrives, and a check
    for the confirmation made in between found none and left the zero unconfirmed."""
    from playwright.sync_api import expect

    # a move clicked just before (a roll) must be on the page first: htmx marks the
    # element of a request in flight until its answer is swapped in
    expect(page.locator(".htmx-request")).to_have_count(0)  # type: ignore[attr-defined]
    version = page.locator("#table").get_attribute("data-version")  # type: ignore[attr-defined]
    scored = page.locator(f"#table:not([data-version='{version}'])")  # type: ignore[attr-defined]
    option = page.get_by_role("button", name=re.compile(r"^Score \d+ in ")).first  # type: ignore[attr-defined]
    option.click()
    confirm = page.get_by_role("button", name=re.compile(r"^Yes, score 0 in "))  # type: ignore[attr-defined]
    expect(confirm.or_(scored)).to_be_attached()
    if confirm.count():
        confirm.click()
    expect(scored).to_be_attached()


def in_a_thread(work: Callable[[], T]) -> T:
    """``work()`` in a thread of its own, its connections closed after (Playwright's
    event loop runs in the test's thread, where Django's database calls may not)."""

    def run() -> T:
        try:
            return work()
        finally:
            connections.close_all()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(run).result()


def play_turns_over_http(site: Server, players: dict[int, Page], code: str, turns: int) -> int:
    """Play ``turns`` turns of game ``code``, each player rolling once and scoring in
    their first open category, by the moves the table's buttons send (htmx's POSTs, the
    CSRF token with them), sent from the browser context of the player to move
    (``players``, by player index) without clicking: for a test whose point comes after
    those turns. The open pages hear each move from the server as after a click;
    clicking through whole games is tested in test_hot_seat.py and test_remote.py.
    Returns the game's version after the last move: a page showing it has heard them all
    (``#table[data-version]``)."""

    def state() -> tuple[int, int, str]:
        game = Game.objects.get(code=code)
        now = game.engine_state()
        return game.version, now.current_player, now.open_categories(now.current_index)[0]

    def post(page: Page, move: str, form: dict[str, str | int]) -> None:
        token = next(c["value"] for c in page.context.cookies() if c["name"] == "csrftoken")
        headers = {"HX-Request": "true", "X-CSRFToken": token}
        answer = page.request.post(f"{site.url}/g/{code}/{move}/", form=form, headers=headers)
        assert answer.ok, (move, answer.status, answer.text()[:500])

    for _turn in range(turns):
        version, player, _category = in_a_thread(state)
        post(players[player], "roll", {"version": version})
        version, player, category = in_a_thread(state)
        form = {"version": version, "category": category, "confirm": "1"}
        post(players[player], "score", form)
    return in_a_thread(lambda: Game.objects.get(code=code).version)


def more_options(page: object) -> None:
    """Open the home page's More options (the rules, the table's options, Create game),
    if they are not open yet."""
    details = page.locator("details.more-options")  # type: ignore[attr-defined]
    if details.get_attribute("open") is None:
        details.locator("summary").click()
