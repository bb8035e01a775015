"""The table's markup, built in Python: the part of the page every move sends again.

Every move renders the table once for its mover and once for everyone else, and
pushes it to every browser at the table: rendering was two fifths of what the server
does for a move (docs/performance.md, round 7). Django's template language costs
microseconds per tag and per variable, and the table partial had some eighty of them;
here the same markup is a few f-strings joined around parts that are cached by what
they show (dice, the roll button, the presence list, the scorecard, the turn banner).
Every text still goes through ``gettext`` (the message ids are those of the template
it came from), every value through ``escape``, and every player's name through
``bidi.isolated`` (a name in a right-to-left script reorders no text beside it). The
parts a move rarely shows stay in ``table.html`` as partials: the final ranking, the
host's skip buttons, and what only an answer carries (the zero score to confirm, the
coach's hint).
"""

from __future__ import annotations

from functools import lru_cache
from html import escape
from typing import NamedTuple

from django.template.loader import render_to_string
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import get_text_list
from django.utils.translation import get_language, gettext, ngettext

from games.bidi import isolated
from games.models import Seat
from games.rules import Joker, TableOptions

TEMPLATE = "games/table.html"
WATCHING_MARK = "<!--watching-->"  # the spectators' line, filled in per browser

_PIPS = {
    1: ((50, 50),),
    2: ((28, 28), (72, 72)),
    3: ((28, 28), (50, 50), (72, 72)),
    4: ((28, 28), (72, 28), (28, 72), (72, 72)),
    5: ((28, 28), (72, 28), (50, 50), (28, 72), (72, 72)),
    6: ((28, 25), (72, 25), (28, 50), (72, 50), (28, 75), (72, 75)),
}


def _face_svg(face: int) -> str:
    circles = "".join(f'<circle cx="{x}" cy="{y}" r="9"/>' for x, y in _PIPS[face])
    return (
        '<svg class="die-face" viewBox="0 0 100 100" aria-hidden="true" focusable="false">'
        f'<rect x="4" y="4" width="92" height="92" rx="16"/>{circles}</svg>'
    )


# Six faces, drawn once per process instead of once per die per rendering.
_FACES = {face: _face_svg(face) for face in _PIPS}


class Turn(NamedTuple):
    """What the title, the turn banner and the target line say."""

    ruleset_name: str
    options: TableOptions  # said under the title (``options_words``), with teams
    teams: bool
    finished: bool
    # the names of those in first place (several for a tie; markup, ``column_heads``) and
    # their total, once over, and whether first place is a team's (its name is its
    # players': "Alice & Carol")
    winner: tuple[tuple[str, ...], int, bool] | None
    live: bool  # the viewer is to move
    player_to_move: str
    roll_number: int
    declaring: bool  # the viewer must declare a target before scoring
    rolls_left: int
    target_name: str  # the declared target of this turn, translated
    # how the joker rule applies to the dice rolled, with the translated name of the
    # upper box of their face; said to everyone, as it explains the scores offered
    joker: tuple[Joker, str] | None


class Table(NamedTuple):
    """Everything the table shows one viewer at one version, but the version."""

    code: str
    urls: dict[str, str]
    turn: Turn
    dice: tuple[int, ...]
    held: tuple[int, ...]
    dice_count: int
    can_hold: bool
    can_roll: bool
    can_hint: bool
    # (kind, name, connected, a friend's seat the computer plays for now) per seat
    presence: tuple[tuple[str, str, bool, bool], ...]
    can_skip: bool
    skip_category: str  # where a skip would score its zero, translated (when can_skip)
    can_play_again: bool  # a player's, at the end
    ranking: tuple[tuple[int, str, int, bool], ...]  # (rank, name as markup, total, winner)
    scorecard: str
    redirect: str  # where a browser at a finished table goes next, if anywhere
    last_move: str  # what happened last ("Bob's turn was skipped: 0 in Ones"): markup
    turn_passed: bool  # and it passed the turn on
    perfect_as_good: str  # that its Perfect computer players play as Good, translated


def table(
    view: Table,
    version: int,
    *,
    request=None,
    message: str | None = None,
    confirm: tuple[str, str] | None = None,
    hint: object | None = None,
) -> SafeString:
    """The ``#table`` section as ``view`` shows it at ``version``. With ``request`` (a
    whole page) the forms carry the CSRF token for browsers without JavaScript;
    htmx sends it in a header. ``confirm`` is a category (key, translated name)
    whose zero score waits for the player; ``message`` and ``hint`` are for the
    answer to one request."""
    turn = view.turn
    urls = view.urls
    csrf = _csrf_input(request)
    hidden = f'{csrf}<input type="hidden" name="version" value="{version}">'
    parts = [
        '<section id="table" class="table',
        " my-turn" if turn.live else "",
        f'" data-version="{version}" data-live="{"1" if turn.live else "0"}"',
        ' hx-target="this" hx-swap="outerHTML"',
        f' data-redirect="{escape(view.redirect)}">' if view.redirect else ">",
        _turn(turn, get_language()),
    ]
    if view.last_move:
        parts.append(f'<p class="last-move">{view.last_move}</p>')
    if message:
        parts.append(
            f'<p id="notice" class="notice" role="alert" data-answer>{escape(str(message))}</p>'
        )
    extra = {"urls": urls, "version": version, "turn": turn}
    if confirm:
        # an extra Yahtzee the joker rule puts at 0 still earns the Yahtzee bonus
        bonus = turn.joker[0].bonus if turn.joker else 0
        parts.append(
            _partial("confirm", request, extra, category=confirm[0], name=confirm[1], bonus=bonus)
        )
    if not turn.finished:
        parts.append(_dice_area(view, hidden))
    if hint:
        parts.append(_partial("hint", request, extra, hint=hint))
    at_the_table = escape(gettext("At the table"))  # xgettext reads no f-string
    parts.append(
        f'<ul class="presence" aria-label="{at_the_table}">'
        f"{_presence(view.presence, get_language())}{WATCHING_MARK}</ul>"
    )
    if view.perfect_as_good:
        parts.append(f'<p class="presence-note">{escape(view.perfect_as_good)}</p>')
    if view.can_skip:
        parts.append(_partial("skip", request, extra, category=view.skip_category))
    if view.ranking:
        parts.append(
            _partial(
                "ranking", request, extra, ranking=view.ranking, can_play_again=view.can_play_again
            )
        )
    action = urls["declare"] if turn.declaring else urls["score"]
    parts.append(
        f'<form method="post" action="{action}" hx-post="{action}" class="scorecard-form">'
        f'{hidden}<div class="scorecard-scroll">{view.scorecard}</div></form></section>'
    )
    parts.append(_announcement(view))
    # safe: every value above is escaped, or markup built (and escaped) here
    return mark_safe("".join(parts))


def _announcement(view: Table) -> str:
    """The last move in words, and whose turn it is if the move passed it on, for a
    screen reader to say. Its element stays on the page, outside ``#table``, and each
    new table fills it (``hx-swap-oob``): a live region that is replaced with the
    table at every move, as the turn banner is, is not reliably read out. Its words are
    markup as the table's are: the names in them are in ``<bdi>``, which a screen
    reader reads as the text it holds."""
    said = view.last_move
    joker = _joker(view.turn.joker, get_language()) if view.turn.joker else ""
    if joker:  # the dice just rolled (or held) are an extra Yahtzee
        said += " " + joker
    if view.turn_passed:
        said += " " + _banner(view.turn, get_language())
    return (
        '<p id="announcement" class="visually-hidden" aria-live="polite"'
        f' hx-swap-oob="innerHTML">{said}</p>'
    )


def _partial(partial: str, request, context: dict, **more) -> str:
    """One of the table's rarer parts, rendered from its partial in ``table.html``."""
    return render_to_string(f"{TEMPLATE}#{partial}", {**context, **more}, request=request)


def _csrf_input(request) -> str:
    if request is None:
        return ""
    from django.middleware.csrf import get_token

    return f'<input type="hidden" name="csrfmiddlewaretoken" value="{get_token(request)}">'


@lru_cache(maxsize=512)  # a banner reads the same for everyone but the mover, turn by turn
def _turn(turn: Turn, language: str) -> str:
    """The title, the turn banner and the target line (``language`` keys the cache)."""
    # The translations' own text is markup, as in a template; only the values are escaped.
    title = escape(str(turn.ruleset_name))
    # the house rules are said at the table: a player in forced order, say, is offered
    # a single score, and would not know why
    house_rules = escape(options_words(turn.options, turn.teams))
    if house_rules:
        title += f' <small class="house-rules">{house_rules}</small>'
    html = (
        f'<h1 class="table-title">{title}</h1>'
        # it takes the keyboard's focus when the control that had it is gone (table.js)
        f'<p id="turn" class="turn-banner" role="status" tabindex="-1">'
        f"{_banner(turn, language)}</p>"
    )
    if turn.target_name:
        target = gettext("Target this turn: %(category)s") % {"category": escape(turn.target_name)}
        html += f'<p class="target">{target}</p>'
    joker = _joker(turn.joker, language) if turn.joker else ""
    if joker:
        html += f'<p class="joker">{joker}</p>'
    return html


@lru_cache(maxsize=64)
def _joker(joker: tuple[Joker, str], language: str) -> str:
    """Why an extra Yahtzee is offered the scores it is (the joker rule, RULES.md 2.2)
    and the Yahtzee bonus it earns, in words (``language`` keys the cache)."""
    rule, name = joker
    category = {"category": escape(name)}
    said = []
    if rule.goes_in == "upper":
        said.append(gettext("Joker rule: this Yahtzee must go in %(category)s.") % category)
    elif rule.goes_in == "lower":
        said.append(
            gettext(
                "Joker rule: %(category)s is used, so this Yahtzee must go in an open lower"
                " category, where Full house and the straights score in full."
            )
            % category
        )
    elif rule.goes_in == "scratch":
        said.append(
            gettext(
                "Joker rule: %(category)s is used and the lower section is full, so this"
                " Yahtzee scores 0 in an open upper category."
            )
            % category
        )
    elif rule.upper_used:  # where the table's options put it
        said.append(
            gettext(
                "Joker rule: with %(category)s used, Full house and the straights score in full."
            )
            % category
        )
    if rule.bonus:
        said.append(
            gettext("Yahtzee bonus: +%(bonus)s on top of the score.") % {"bonus": rule.bonus}
        )
    elif rule.yahtzee_scratched:
        said.append(gettext("No Yahtzee bonus: the Yahtzee box holds 0."))
    return " ".join(said)


@lru_cache(maxsize=512)
def _banner(turn: Turn, language: str) -> str:
    """Whose turn it is and what they may do, or who won: the turn banner's words
    (``language`` keys the cache)."""
    if turn.finished and turn.winner:
        names, total, team = turn.winner
        if len(names) == 1 and team:
            banner = gettext("Game over: %(names)s win with %(total)s points.") % {
                "names": names[0],
                "total": total,
            }
        elif len(names) == 1:
            banner = gettext("Game over: %(name)s wins with %(total)s points.") % {
                "name": names[0],
                "total": total,
            }
        else:
            together = get_text_list(list(names), gettext("and"))
            banner = gettext("Game over: %(names)s share first place with %(total)s points.") % {
                "names": together,
                "total": total,
            }
    elif turn.live:
        if turn.roll_number == 0:
            todo = gettext("Roll the dice.")
        elif turn.declaring:
            todo = gettext("Declare your target category.")
        elif turn.rolls_left:
            todo = gettext("Hold dice and roll again, or score.")
        else:
            todo = gettext("Choose a category to score.")
        banner = gettext("Your turn, %(name)s.") % {"name": isolated(turn.player_to_move)}
        banner += " " + todo
    else:
        banner = gettext("%(name)s's turn.") % {"name": isolated(turn.player_to_move)}
    return banner


def options_words(options: TableOptions, teams: bool) -> str:
    """The table options beyond the rule set's own, in words ("Upper section only,
    Forced order"); empty for none."""
    chosen = [
        (options.upper_only, gettext("Upper section only")),
        (options.forced_order, gettext("Forced order")),
        (options.declared_target, gettext("Declared target")),
        (options.auto_first_roll, gettext("Automatic first roll")),
        (options.upper_bonus == 25, gettext("Upper bonus of 25")),
        # an upper-section-only game has no Yahtzee box, so no Yahtzee bonus to go without
        (not options.yahtzee_bonus and not options.upper_only, gettext("No Yahtzee bonus")),
        (teams, gettext("Teams")),
    ]
    return ", ".join(text for on, text in chosen if on)


def _dice_area(view: Table, hidden: str) -> str:
    urls = view.urls
    language = get_language()
    if view.dice:
        dice = "".join(
            _die_button(i, face, i in view.held, view.can_hold, language)
            for i, face in enumerate(view.dice)
        )
    else:
        waiting = ngettext(
            "%(counter)s die waiting for the first roll.",
            "%(counter)s dice waiting for the first roll.",
            view.dice_count,
        ) % {"counter": view.dice_count}
        dice = f'<p class="no-dice">{waiting}</p>'
    hint = ""
    if view.can_hint:
        label = gettext("Hint")
        hint = (
            f'<a class="button hint-button" href="{urls["hint"]}" hx-get="{urls["hint"]}">'
            f"{label}</a>"
        )
    return (
        '<div class="dice-area">'
        f'<form class="dice" method="post" action="{urls["hold"]}" hx-post="{urls["hold"]}">'
        f"{hidden}{dice}</form>"
        f'<form class="roll" method="post" action="{urls["roll"]}" hx-post="{urls["roll"]}">'
        f"{hidden}{_roll_button(view.can_roll, view.turn.rolls_left, language)}</form>"
        f"{hint}</div>"
    )


@lru_cache(maxsize=512)  # 6 faces x 2 x 5 positions x 2 x the languages
def _die_button(position: int, face: int, held: bool, can_hold: bool, language: str) -> str:
    """One die's button (``language`` keys the cache: its name and tooltip are in it).
    Its id lets keyboard focus survive a new table; the face is decorative, the
    button carries the name."""
    label = gettext("Die %(number)s: %(face)s") % {"number": position + 1, "face": face}
    # a die this viewer cannot hold (a spectator's, another player's turn) has no tip
    # telling them to click it
    tip = gettext("Held: click to release") if held else gettext("Click to hold")
    tip = f' title="{escape(tip)}"' if can_hold else " disabled"
    return (
        f'<button type="submit" id="die-{position}" name="die" value="{position}"'
        f' class="die{" held" if held else ""}" aria-pressed="{"true" if held else "false"}"'
        f' aria-label="{escape(label)}"{tip}>{_FACES[face]}</button>'
    )


@lru_cache(maxsize=64)  # 2 x 4 x the languages
def _roll_button(can_roll: bool, rolls_left: int, language: str) -> str:
    """The roll button, with the rolls left (``language`` keys the cache)."""
    rolls = ngettext("%(counter)s roll left", "%(counter)s rolls left", rolls_left) % {
        "counter": rolls_left
    }
    roll = gettext("Roll")
    return (
        f'<button type="submit" id="roll-button" class="primary roll-button"'
        f"{'' if can_roll else ' disabled'}>{roll}"
        f' <span class="rolls-left">({rolls})</span></button>'
    )


@lru_cache(maxsize=512)  # a table's list changes only when someone comes or goes
def _presence(seats: tuple[tuple[str, str, bool, bool], ...], language: str) -> str:
    """The presence list's lines: the players, connected or away, and the computer
    players. The players at the host's screen are listed only at a table with friends
    (at a table of one screen, all are there or none), also once the computer plays
    for all of them. The site's own computer players are one line when there are
    several ("15 computer players"): always there, they each took a line between the
    dice and the scorecard, which a phone scrolled past every turn; their names head
    the scorecard's columns. A friend's seat the computer plays for keeps its line.
    Seats are given as ``Table.presence``; ``language`` keys the cache."""
    lines = []
    computers = []
    friends = any(kind == Seat.Kind.REMOTE or handed for kind, _name, _on, handed in seats)
    for kind, name, connected, handed in seats:
        if kind == Seat.Kind.REMOTE or (kind == Seat.Kind.LOCAL and friends):
            state = gettext("connected") if connected else gettext("away")
            css = "online" if connected else "offline"
            lines.append(f'<li class="{css}">{isolated(name)}: {state}</li>')
        elif kind == Seat.Kind.BOT:
            bot = gettext("computer player")
            line = f'<li class="bot">{isolated(name)}: {bot}</li>'
            (lines if handed else computers).append(line)
    if len(computers) > 1:
        counted = ngettext(
            "%(counter)s computer player", "%(counter)s computer players", len(computers)
        ) % {"counter": len(computers)}
        computers = [f'<li class="bot">{counted}</li>']
    return "".join(lines + computers)


def watching(spectators: int) -> str:
    """The presence list's line that counts the spectators; none for none."""
    return _watching(spectators, get_language()) if spectators else ""


@lru_cache(maxsize=256)  # filled in on every table sent
def _watching(spectators: int, language: str) -> str:
    """``watching``'s line in ``language`` (which keys the cache)."""
    text = ngettext("%(counter)s watching", "%(counter)s watching", spectators) % {
        "counter": spectators
    }
    return format_html('<li class="watching">{}</li>', text)
