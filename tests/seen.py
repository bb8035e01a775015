"""What a table page shows its viewer of a table, read from the HTML.

The table is the same bytes for every browser at it; a page keeps its viewer's part
by its classes (``.table-page``: my-turn, host, player, hot-seat) and the table's
``data-skippers`` (``keepOwnPart`` in static/js/table.js; the bar's words for the
player to move by site.css). ``seen`` drops what that removes, so that a test of the
test client asserts what this viewer reads, as a browser test does. (A whole page is
rendered with its viewer's part only: ``seen`` leaves it as it is.)"""

from __future__ import annotations

import re
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}


def page_classes(html: str) -> set[str]:
    """The classes of the page's ``.table-page``."""
    match = re.search(r'<div class="table-page([^"]*)"', html)
    assert match, "not a table page"
    return set(match.group(1).split())


def hidden(classes: set[str], page: set[str], skippers: str) -> bool:
    """Whether table.js removes an element of ``classes`` on a page of ``page``'s
    classes, at a table whose skip offer is for ``skippers``."""
    mine = "my-turn" in page
    player = "player" in page
    if ("if-mine" in classes and not mine) or ("if-theirs" in classes and mine):
        return True
    if ("if-player" in classes and not player) or ("if-spectator" in classes and player):
        return True
    # the bar's words for the player to move before the first roll, by whether the
    # page holds several seats (site.css hides the other)
    if ("hand-over" in classes and "hot-seat" not in page) or (
        "your-turn" in classes and "hot-seat" in page
    ):
        return True
    if "skip-offer" in classes:
        may = ("host" in page and skippers) or (player and skippers == "players")
        return mine or not may
    return False


class _Seen(HTMLParser):
    def __init__(self, page: set[str]) -> None:
        super().__init__(convert_charrefs=False)
        self.page = page
        self.out: list[str] = []
        self.skipping = 0  # depth inside a hidden element
        self.skippers = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "section" and values.get("id") == "table":
            self.skippers = values.get("data-skippers") or ""
        if self.skipping:
            if tag not in VOID:
                self.skipping += 1
            return
        if hidden(set((values.get("class") or "").split()), self.page, self.skippers):
            if tag not in VOID:
                self.skipping = 1
            return
        self.out.append(self.get_starttag_text() or "")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if not self.skipping:
            self.out.append(self.get_starttag_text() or "")

    def handle_endtag(self, tag: str) -> None:
        if self.skipping:
            self.skipping -= 1
            return
        self.out.append(f"</{tag}>")

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            self.out.append(data)

    def handle_entityref(self, name: str) -> None:
        self.handle_data(f"&{name};")

    def handle_charref(self, name: str) -> None:
        self.handle_data(f"&#{name};")

    def handle_comment(self, data: str) -> None:
        pass


def seen(html: str, page: set[str] | None = None) -> str:
    """``html`` as its viewer sees it: a whole table page read with its own classes, a
    table (an answer, a push) with those of the page it goes to (``page``)."""
    parser = _Seen(page_classes(html) if page is None else page)
    parser.feed(html)
    parser.close()
    return "".join(parser.out)


def seen_by(html: str, client: object, game: object) -> str:
    """A table (an answer, a push) as the page of ``client`` (a test client) at ``game``
    shows it: its classes as the page carries them (``tableview.Me``), its turn by the
    table's own player to move, as table.js marks it."""
    from games.models import read_game
    from games.tableview import me
    from games.viewer import peek_viewer

    looking = me(read_game(id=game.id), peek_viewer(client.session))  # type: ignore[attr-defined]
    page = set(looking.classes.split()) - {"my-turn"}
    to_move = re.search(r'<section id="table"[^>]* data-to-move="(\d+)"', html)
    if to_move and int(to_move.group(1)) in looking.players:
        page.add("my-turn")
    return seen(html, page)
