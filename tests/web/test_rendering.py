"""What a move costs in renderings: the table once per distinct view, shared by the
viewers who see the same, and what they are shown from it."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client, override_settings
from django.utils import timezone, translation

from games import rendering, rules, scorecard, seating
from games.bounded import Bounded
from games.models import Game, Seat
from games.snapshots import read_game
from games.viewer import Viewer, peek_viewer
from tests.conftest import create_game, unisolated, version
from tests.web.test_room import bobs_turn

HTMX = {"HTTP_HX_REQUEST": "true"}


def viewer_of(client: Client) -> Viewer:
    return peek_viewer(client.session)


def test_a_roll_shows_the_mover_its_options_and_the_watchers_the_same_scorecard(
    alice: Client, dice: object
) -> None:
    game = create_game(alice, players="Bob")
    alice.post(f"/g/{game.code}/roll/", {"version": version(game)}, **HTMX)
    watched = rendering.table_partial(read_game(id=game.id), Viewer(""))

    answer = alice.post(f"/g/{game.code}/roll/", {"version": version(game)}, **HTMX)
    moved = read_game(id=game.id)
    watched_again = rendering.table_partial(moved, Viewer(""))

    assert answer.status_code == 200
    scorecard = watched.partition('<table class="scorecard')[2].partition("</table>")[0]
    again = watched_again.partition('<table class="scorecard')[2].partition("</table>")[0]
    assert scorecard and again == scorecard
    assert 'class="score-option' in answer.content.decode()  # the mover's has its options
    assert 'class="score-option' not in watched_again


def test_a_scorecard_reused_across_versions_shows_every_new_score(
    alice: Client, dice: object
) -> None:
    game = create_game(alice, players="Bob")
    alice.post(f"/g/{game.code}/roll/", {"version": version(game)}, **HTMX)
    rendering.table_partial(read_game(id=game.id), Viewer(""))
    alice.post(
        f"/g/{game.code}/score/",
        {"version": version(game), "category": "chance", "confirm": "1"},
        **HTMX,
    )

    after = rendering.table_partial(read_game(id=game.id), Viewer(""))

    chance = read_game(id=game.id).score_entries.get(category="chance").points
    row = after.partition('<tr class="row-category"><th scope="row">Chance</th>')[2]
    assert row.split("</tr>")[0].count(f">{chance}</td>") == 1


def test_the_host_sees_the_others_table_unless_the_player_to_move_is_away(
    alice: Client, bob: Client, dice: object
) -> None:
    game = bobs_turn(alice, bob, create_game(alice, invites="1"))
    host, spectator = viewer_of(alice), Viewer("")

    present = read_game(id=game.id)
    shown = [rendering.table_partial(present, viewer) for viewer in (host, spectator)]
    assert shown[0] == shown[1]  # Bob is at the table

    Seat.objects.filter(name="Bob").update(away_since=timezone.now() - timedelta(minutes=1))
    away = read_game(id=game.id)
    assert away.status == Game.Status.PLAYING
    host_sees = unisolated(rendering.table_partial(away, host))
    assert "Skip Bob&#x27;s turn" in host_sees or "Skip Bob's turn" in host_sees
    assert "Skip <bdi>Bob" not in rendering.table_partial(away, spectator)


def test_the_scorecard_and_dice_are_in_the_language_of_the_table(
    alice: Client, dice: object
) -> None:
    game = create_game(alice, declared_target="on")
    alice.post(f"/g/{game.code}/roll/", {"version": version(game)}, **HTMX)
    declaring = read_game(id=game.id)
    viewer = viewer_of(alice)

    with translation.override("en"):
        english = rendering.table_partial(declaring, viewer)
    with translation.override("fi"):
        finnish = rendering.table_partial(declaring, viewer)
        target = translation.gettext("Target")

    assert target != "Target"
    assert 'aria-label="Die 1: ' in english and 'title="Click to hold"' in english
    assert 'aria-label="Noppa 1: ' in finnish and 'title="Lukitse napsauttamalla"' in finnish
    assert 'class="declare" aria-label="Declare Chance as target">Target</button>' in english
    assert f">{target}</button>" in finnish and ">Target</button>" not in finnish


@pytest.mark.parametrize(
    "options",
    [
        {"ruleset": "yahtzee", "players": "Bob"},
        {"ruleset": "yatzy", "players": "Bob", "declared_target": "on"},
        {"ruleset": "maxi_yatzy", "players": "Bob", "forced_order": "on"},
    ],
)
def test_a_scorecard_from_the_cache_reads_as_one_rendered_afresh(
    alice: Client, dice: object, options: dict[str, str]
) -> None:
    """Through whole games (rolls, holds, declarations, scores): every viewer's table
    with the cache filled as play goes on equals the same table rendered with an empty
    cache, so the cache key holds everything a table shows."""
    game = create_game(alice, **options)
    mover = viewer_of(alice)
    while True:
        current = read_game(id=game.id)
        state = current.engine_state()
        if state.is_finished:
            break
        for viewer in (mover, Viewer("")):
            cached = rendering.table_partial(current, viewer)
            with override_settings(YATZY_RENDER_CACHE=False):
                assert rendering.table_partial(current, viewer) == cached
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


def test_a_read_of_the_game_shows_the_skip_its_key_says_however_late_it_is_rendered(
    alice: Client, bob: Client, dice: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Whether Bob may be skipped changes with time alone: the host's table rendered
    # after the deadline for a key worked out before it would be everyone's table.

    game = bobs_turn(alice, bob, create_game(alice, invites="1"))  # Bob never connected
    monkeypatch.setattr(seating, "AWAY_BEFORE_SKIP", timedelta(hours=1))
    kept = read_game(id=game.id)
    rendering._view_key(kept, Viewer(""), "en")  # worked out for a spectator, on the loop
    monkeypatch.setattr(seating, "AWAY_BEFORE_SKIP", timedelta(0))  # time passes

    host = rendering.table_partial(kept, peek_viewer(alice.session))
    spectator = rendering.table_partial(kept, Viewer(""))

    assert "Skip <bdi>Bob" not in host and "Skip <bdi>Bob" not in spectator
    host_now = rendering.table_partial(read_game(id=game.id), peek_viewer(alice.session))
    assert "Skip <bdi>Bob</bdi>" in host_now


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
