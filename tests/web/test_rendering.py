"""The table rendered once a move, the same bytes for every browser at it, and what
each page shows its viewer of it (its classes: ``tests/seen.py``)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client, override_settings
from django.utils import timezone, translation

from games import rendering, rules, scorecard
from games.bounded import Bounded
from games.models import Game, Seat, read_game
from tests.conftest import create_game, unisolated, version
from tests.seen import seen
from tests.web.test_room import bobs_turn

HTMX = {"HTTP_HX_REQUEST": "true"}
MOVER = {"my-turn", "player", "host"}  # the classes of the mover's page, at the host's screen
WATCHER: set[str] = set()  # of a spectator's


def test_a_roll_is_answered_with_the_table_everyone_is_shown(
    alice: Client, spectator: Client, dice: object
) -> None:
    game = create_game(alice, players="Bob")
    answer = alice.post(f"/g/{game.code}/roll/", {"version": version(game)}, **HTMX)
    watched = spectator.get(f"/g/{game.code}/", **HTMX)

    assert answer.status_code == watched.status_code == 200
    assert answer.content == watched.content  # the same bytes, whoever looks
    assert 'class="score-option' in seen(answer.content.decode(), MOVER)
    assert 'class="score-option' not in seen(watched.content.decode(), WATCHER)
    assert "Your turn, <bdi>Alice</bdi>" in seen(answer.content.decode(), MOVER)
    assert "<bdi>Alice</bdi>'s turn" in seen(watched.content.decode(), WATCHER)
    assert "Your turn" not in seen(watched.content.decode(), WATCHER)


def test_the_page_says_who_is_looking(alice: Client, spectator: Client, dice: object) -> None:
    game = create_game(alice, players="Bob")

    mine = alice.get(f"/g/{game.code}/").content.decode()
    theirs = spectator.get(f"/g/{game.code}/").content.decode()

    # Alice and Bob at one screen: pass and play (the dice's bar says to hand it on)
    assert '<div class="table-page my-turn host player hot-seat"' in mine
    assert '<div id="me" hidden data-players="0 1">' in mine
    assert '<div class="table-page"' in theirs and 'data-players="">' in theirs
    assert 'id="roll-button" class="primary roll-button if-mine"' in mine


def test_a_scorecard_reused_across_versions_shows_every_new_score(
    alice: Client, dice: object
) -> None:
    game = create_game(alice, players="Bob")
    alice.post(f"/g/{game.code}/roll/", {"version": version(game)}, **HTMX)
    rendering.render_table(read_game(id=game.id))
    alice.post(
        f"/g/{game.code}/score/",
        {"version": version(game), "category": "chance", "confirm": "1"},
        **HTMX,
    )

    after = rendering.render_table(read_game(id=game.id))

    chance = read_game(id=game.id).score_entries.get(category="chance").points
    row = after.partition('id="rule-of-chance"')[2]
    assert row.split("</tr>")[0].count(f">{chance}</td>") == 1


def test_the_host_is_offered_the_skip_once_the_player_to_move_is_away(
    alice: Client, bob: Client, spectator: Client, dice: object
) -> None:
    game = bobs_turn(alice, bob, create_game(alice, invites="1"))

    def pages() -> tuple[str, str]:
        return tuple(  # type: ignore[return-value]
            unisolated(seen(client.get(f"/g/{game.code}/").content.decode()))
            for client in (alice, spectator)
        )

    skip = "Skip Bob's turn"
    assert not any(skip in page for page in pages())  # Bob is at the table

    Seat.objects.filter(name="Bob").update(away_since=timezone.now() - timedelta(minutes=1))
    host, watcher = pages()
    assert read_game(id=game.id).status == Game.Status.PLAYING
    assert skip in host
    assert skip not in watcher


def test_the_scorecard_and_dice_are_in_the_language_of_the_table(
    alice: Client, dice: object
) -> None:
    game = create_game(alice, declared_target="on")
    alice.post(f"/g/{game.code}/roll/", {"version": version(game)}, **HTMX)
    declaring = read_game(id=game.id)

    with translation.override("en"):
        english = rendering.render_table(declaring)
    with translation.override("fi"):
        finnish = rendering.render_table(declaring)
        target = translation.gettext("Target")

    assert target != "Target"
    assert 'aria-label="Die 1: ' in english and 'title="Click to hold"' in english
    assert 'aria-label="Noppa 1: ' in finnish and 'title="Lukitse napsauttamalla"' in finnish
    assert (
        'class="declare if-mine" aria-label="Declare Chance as target">Target</button>' in english
    )
    assert f">{target}</button>" in finnish and ">Target</button>" not in finnish


@pytest.mark.parametrize(
    "options",
    [
        {"ruleset": "yahtzee", "players": "Bob"},
        {"ruleset": "yatzy", "players": "Bob", "declared_target": "on"},
        {"ruleset": "maxi_yatzy", "players": "Bob", "forced_order": "on"},
    ],
)
def test_a_table_from_the_cache_reads_as_one_rendered_afresh(
    alice: Client, dice: object, options: dict[str, str]
) -> None:
    """Through whole games (rolls, holds, declarations, scores): the table rendered with
    the caches of its parts filled as play goes on equals the same table rendered
    with none, so a part's key holds everything it shows."""
    game = create_game(alice, **options)
    while True:
        current = read_game(id=game.id)
        state = current.engine_state()
        if state.is_finished:
            break
        cached = rendering.render_table(current)
        with override_settings(YATZY_RENDER_CACHE=False):
            assert rendering.render_table(current) == cached
        _next_move(alice, current, state)


def _next_move(client: Client, game: Game, state: rules.GameState) -> None:
    """Declare if the table asks for it, hold a die after the first roll, roll to the
    last roll, score."""
    url, data = f"/g/{game.code}/roll/", {"version": game.version}
    if state.options.declared_target and state.roll_number and not state.target:
        url, data["category"] = f"/g/{game.code}/declare/", state.open_categories()[-1]
    elif state.roll_number == 1 and not state.held:
        url, data["die"] = f"/g/{game.code}/hold/", "0"
    elif state.roll_number == rules.MAX_ROLLS:
        url = f"/g/{game.code}/score/"
        data.update(category=next(iter(rules.scoring_options(state))), confirm="1")
    assert client.post(url, data, **HTMX).status_code == 200


def scorecard_html(card: scorecard.Scorecard) -> str:
    return rendering.scorecard_html(card)


@pytest.mark.parametrize("box, bonus", [(50, True), (50, False), (0, True)])
def test_an_extra_yahtzee_is_offered_its_bonus_only_where_it_is_earned(
    db: None, box: int, bonus: bool
) -> None:
    """Five sixes offered in Sixes, on scorecards and tables that differ only in the
    bonus they earn (a Yahtzee box of 50 or 0, a table with the bonus or without)."""
    options = rules.TableOptions(yahtzee_bonus=bonus)
    state = rules.new_game("yahtzee", [[0]], options)
    card = rules.Scorecard(players=(0,), entries=(("yahtzee", box),))
    state = state.evolve(scorecards=(card,), dice=(6,) * 5, roll_number=1)

    shown = scorecard_html(scorecard.scorecard(state, {0: "Alice"}, True, False))

    earned = box == 50 and bonus
    assert ("Score 30 in Sixes and a Yahtzee bonus of 100" in shown) is earned
    assert ('aria-label="Score 30 in Sixes"' in shown) is not earned


def test_a_cache_keeps_its_most_recently_written_entries() -> None:
    cache: Bounded[str, int] = Bounded(2)
    cache["a"], cache["b"] = 1, 2
    cache["a"] = 3  # written again: the newest
    cache["c"] = 4

    assert list(cache.items()) == [("a", 3), ("c", 4)]


def test_each_name_of_a_teams_column_is_isolated_on_its_own(db: None) -> None:
    """One isolate around "Mallory & Bob" would let the override (U+202E) stored in the
    first name reverse the second: each is in <bdi> of its own, and escaped."""
    state = rules.new_game("yatzy", [[0, 1], [2]], rules.TableOptions())
    names = {0: "\u202eMallory", 1: "<b>Bob</b>", 2: "محمد"}

    heads = scorecard.column_heads(state, names)
    table = scorecard_html(scorecard.scorecard(state, names, False, False))

    mallory_and_bob = "<bdi>\u202eMallory</bdi> &amp; <bdi>&lt;b&gt;Bob&lt;/b&gt;</bdi>"
    assert heads == [mallory_and_bob, "<bdi>محمد</bdi>"]
    assert f">{mallory_and_bob}</span></th>" in table and "><bdi>محمد</bdi></span></th>" in table
    # and so in the heads' titles, in plain text (a name cut short is read in full there)
    assert 'title="\u2068\u202eMallory\u2069 &amp; \u2068&lt;b&gt;Bob&lt;/b&gt;\u2069"' in table
