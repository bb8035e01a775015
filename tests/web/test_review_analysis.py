"""The review's skill-and-luck figures on a scripted game, checked against the solver."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games import analysis, rules, services
from games.models import Game
from games.strategy import advice, tables
from games.strategy.solver import Variant
from tests.conftest import (
    create_game,
    fresh,
    play_to_the_end,
    script_dice,
    solved_tables,
    unisolated,
    version,
)

# Upper section only, one player: 6 turns. Dice of every roll, in order.
DICE = [6] * 5 + [5] * 5 + [1, 2, 3, 4, 4] + [4, 4, 1] + [2, 2, 2, 3, 3] + [3, 3, 3, 1, 1]
DICE += [1, 1, 1, 2, 2]


@pytest.fixture
def scripted_game(alice: Client, monkeypatch: pytest.MonkeyPatch):
    script_dice(monkeypatch, rules.ScriptedDice(DICE))
    game = create_game(alice, upper_only="on")

    def post(action: str, **data: str) -> None:
        response = alice.post(f"/g/{game.code}/{action}/", {"version": version(game), **data})
        assert response.status_code == 302, response.content.decode()[:500]

    def score(category: str) -> None:
        post("roll")
        post("score", category=category, confirm="1")

    score("ones")  # five sixes thrown away on Ones: the blunder
    score("fives")  # five fives on Fives: the obvious best
    post("roll")
    post("hold", die="3")
    post("hold", die="4")
    post("roll")  # keeps 4, 4: one decision
    post("score", category="fours", confirm="1")
    score("twos")
    score("threes")
    score("sixes")
    return fresh(game)


def test_the_review_prices_each_decision(alice: Client, scripted_game) -> None:
    solver = solved_tables(Variant("yatzy", upper_only=True))
    result = analysis.analyse(scripted_game)
    (card,) = result.cards

    assert card.final == fresh(scripted_game).engine_state().totals(0).total == 0 + 25 + 16 + 6 + 9
    assert card.expected_start == pytest.approx(solver.expected_score)
    assert card.decisions == 7  # six scorings and one keep
    blunder = result.decisions[2]  # step 1 is the roll, step 2 the score in Ones
    assert blunder.chosen == "Score 0 in Ones"
    assert blunder.best == "score 30 in Sixes"  # said inside a sentence
    assert blunder.loss > 10
    assert result.decisions[4].is_best and result.decisions[4].chosen == "Score 25 in Fives"
    keep = result.decisions[8]  # roll, hold, hold, then the roll that kept 4, 4
    assert keep.chosen == "Hold 4, 4 and roll the rest"
    assert keep.judged == "holding 4 4 of 1 2 3 4 4"  # not the dice its roll brought
    assert blunder.judged == ""  # a score's line says what it judges
    assert card.total_loss == pytest.approx(sum(d.loss for d in result.decisions.values()))
    assert card.luck == pytest.approx(card.final - (card.expected_start - card.total_loss))
    assert len(card.curve) == 7 and card.curve[0] == card.expected_start
    assert card.curve[-1] == pytest.approx(card.final)  # nothing left to expect at the end


def test_the_review_page_shows_skill_luck_and_the_chart(alice: Client, scripted_game) -> None:
    (card,) = analysis.analyse(scripted_game).cards

    page = alice.get(f"/g/{scripted_game.code}/review/").content.decode()

    assert "Skill and luck" in page
    row = re.search(r"<tr><th scope=\"row\"><bdi>Alice</bdi></th>(.*?)</tr>", page).group(1)
    cells = re.findall(r"<td>(.*?)</td>", row)
    assert cells == [
        str(card.final),
        f"{card.expected_start:.1f}",
        "7",
        str(card.mistakes),
        f"{card.total_loss:.1f}",
        f"{card.total_loss / 7:.2f}",
        f"{card.luck:+.1f}",
    ]
    assert "lost " in page and "best was score 30 in Sixes" in page
    assert "best choice" in page
    svg = re.search(r"<svg.*?</svg>", page, re.S).group(0)
    assert 'role="img"' in svg and "Expected final score after each turn" in svg
    assert len(re.search(r'<polyline points="([^"]+)"', svg).group(1).split()) == 7


def test_the_review_writes_decimals_in_finnish_but_draws_with_points(
    alice: Client, scripted_game
) -> None:
    in_english = alice.get(f"/g/{scripted_game.code}/review/").content.decode()
    alice.post("/i18n/setlang/", {"language": "fi", "next": "/"})

    page = alice.get(f"/g/{scripted_game.code}/review/").content.decode()

    figures = r"<tr><th scope=\"row\"><bdi>Alice</bdi></th>(.*?)</tr>"
    english = re.findall(r"<td>(.*?)</td>", re.search(figures, in_english).group(1))
    finnish = re.findall(r"<td>(.*?)</td>", re.search(figures, page).group(1))
    assert finnish == [cell.replace(".", ",") for cell in english] != english
    assert coordinates(page) == coordinates(in_english)


def test_the_review_gives_its_advice_in_each_readers_language(
    alice: Client, bob: Client, scripted_game
) -> None:
    # The analysis is kept once for every reader: its words are not.
    alice.post("/i18n/setlang/", {"language": "fi", "next": "/"})
    in_finnish = alice.get(f"/g/{scripted_game.code}/review/").content.decode()

    in_english = bob.get(f"/g/{scripted_game.code}/review/").content.decode()

    assert "paras valinta: kirjaa 30 kohtaan Kuutoset" in in_finnish  # a command, as the coach
    assert "best was score 30 in Sixes" in in_english
    assert "Kirjaa" not in in_english


def test_the_charts_numbers_are_a_table_under_it(alice: Client, scripted_game) -> None:
    """The chart's values were in its drawing alone: a screen reader had its title
    and nothing more, and nobody could read a number off it exactly."""
    (card,) = analysis.analyse(scripted_game).cards

    page = alice.get(f"/g/{scripted_game.code}/review/").content.decode()

    numbers = re.search(r'<details class="chart-numbers">(.*?)</details>', page, re.S).group(1)
    assert "<summary>Show the chart's numbers</summary>" in numbers
    assert '<caption id="chart-caption">Expected final score after each turn</caption>' in numbers
    assert '<th scope="col">Turn</th><th scope="col"><bdi>Alice</bdi></th>' in numbers
    rows = re.findall(r'<tr><th scope="row">(.*?)</th><td>(.*?)</td></tr>', numbers)
    assert rows == [
        ("Start" if turn == 0 else str(turn), f"{value:.1f}")
        for turn, value in enumerate(card.curve)
    ]
    assert len(rows) == 7

    alice.post("/i18n/setlang/", {"language": "fi", "next": "/"})
    finnish = alice.get(f"/g/{scripted_game.code}/review/").content.decode()

    assert "<summary>Näytä kaavion luvut</summary>" in finnish
    assert '<th scope="col">Vuoro</th>' in finnish
    assert f'<tr><th scope="row">Alku</th><td>{card.curve[0]:.1f}</td>'.replace(".", ",") in finnish


def test_the_charts_lines_differ_by_more_than_their_colour() -> None:
    """The first eight lines differed by their colour alone; past eight, colours came
    round again, a dashed line for a solid one. Each line has its mark now: the first
    eight all differ by it, and no two of sixteen have both one mark and one dash."""
    cards = tuple(
        analysis.Card(index=i, final=200, expected_start=190.0, curve=[190.0, 180.0 + i])
        for i in range(services.MAX_SEATS)
    )
    names = [f"Player {i}" for i in range(services.MAX_SEATS)]

    lines = analysis.chart(analysis.Analysis(cards=cards), names, rounds=1).lines

    assert len({line.mark for line in lines[:8]}) == 8
    assert len({(line.mark, line.dash) for line in lines}) == 16
    assert all(0 <= line.mark < len(analysis.MARKS) for line in lines)


def test_the_review_marks_each_point_of_a_line(alice: Client, scripted_game) -> None:
    page = alice.get(f"/g/{scripted_game.code}/review/").content.decode()

    drawing = re.search(r"<svg class=\"chart-drawing\".*?</figure>", page, re.S).group(0)
    assert '<path id="chart-mark-0" d="' in drawing
    marks = re.findall(r'<use href="#chart-mark-0" x="[\d.]+%?" y="[\d.]+"', drawing)
    assert len(marks) == 7 + 1  # at each of the line's points, and one in its legend's key


def coordinates(page: str) -> list[str]:
    """The chart's attributes (its points, lines and box), as written in the page."""
    drawing = re.search(r"<svg.*?</svg>", page, re.S).group(0)
    return re.findall(r'(?:points|x\d?|y\d?|cx|cy|viewBox)="([^"]*)"', drawing)


def test_a_maxi_game_without_its_tables_says_so_without_a_command(
    alice: Client, dice: object, no_tables_built: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("YATZY_BUILD_TABLES", "1")  # a server that builds others unasked
    game = create_game(alice, ruleset="maxi_yatzy")
    play_first_open_category(alice, game)

    page = alice.get(f"/g/{game.code}/review/").content.decode()

    assert "There is no analysis: this site has not worked out perfect play" in page
    assert "manage.py" not in page
    assert "chart-drawing" not in page  # no chart
    assert "Next mistake" not in page and "costliest" not in page  # nor mistakes to go to


def test_a_review_whose_tables_nothing_builds_says_so_without_a_command(
    alice: Client, dice: object, no_tables_built: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("YATZY_BUILD_TABLES", "0")
    game = create_game(alice, upper_bonus="25")
    play_first_open_category(alice, game)

    page = alice.get(f"/g/{game.code}/review/").content.decode()

    assert "Reload in a minute" not in page
    assert (
        "There is no analysis: this site has not worked out perfect play for these rules." in page
    )
    assert "manage.py" not in page  # no operator's command for a player (issue 46)


def test_maxi_yatzy_upper_section_is_solved_and_reviewed(alice: Client, dice: object) -> None:
    game = create_game(alice, ruleset="maxi_yatzy", upper_only="on")
    play_first_open_category(alice, game)

    page = alice.get(f"/g/{game.code}/review/").content.decode()

    assert "Skill and luck" in page and "<svg" in page


def play_first_open_category(client: Client, game) -> None:
    while not fresh(game).engine_state().is_finished:
        state = fresh(game).engine_state()
        client.post(f"/g/{game.code}/roll/", {"version": version(game)})
        key = state.open_categories(0)[0]
        client.post(
            f"/g/{game.code}/score/", {"version": version(game), "category": key, "confirm": "1"}
        )


def test_a_keeps_verdict_says_which_dice_it_judges(alice: Client, scripted_game) -> None:
    """A keep is judged beside the roll that followed it: its verdict names the dice it
    was made on, or it would read as advice on the new dice (QA finding)."""
    keep = analysis.analyse(scripted_game).decisions[8]
    page = unisolated(alice.get(f"/g/{scripted_game.code}/review/?step=8").content.decode())
    alice.post("/i18n/setlang/", {"language": "fi", "next": "/"})
    in_finnish = alice.get(f"/g/{scripted_game.code}/review/?step=8").content.decode()

    assert "Alice rolls 4 4 1 4 4 (roll 2)." in page
    verdict = "holding 4 4 of 1 2 3 4 4" + (
        ": best choice" if keep.is_best else f" lost {keep.loss:.1f}: best was "
    )
    assert page.count(verdict) == 2  # in the stepper and in the turn's list
    assert "heitosta 1 2 3 4 4 lukittu 4 4" in in_finnish


def test_the_review_marks_the_moves_a_perfect_computer_player_played_as_good(
    alice: Client, dice: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its tables came while it played: the turns before were played as Good, and each
    of their verdicts says so, or 'Perfect' lost points it never played for."""
    solved_tables(Variant("yahtzee"))  # for the review; the player has none at first
    game = create_game(alice, ruleset="yahtzee", bots="1", bot_level="perfect")
    with monkeypatch.context() as without_tables:
        without_tables.setattr(advice, "solver_for", lambda state: None)
        while fresh(game).engine_state().turn < 4:  # two turns each
            if not services.bot_move(game.code, fresh(game).version):
                alice.post(f"/g/{game.code}/roll/", {"version": version(game)})
                key = fresh(game).engine_state().open_categories(0)[0]
                data = {"version": version(game), "category": key, "confirm": "1"}
                alice.post(f"/g/{game.code}/score/", data)
    play_to_the_end(alice, game)

    decisions = analysis.analyse(fresh(game)).decisions.values()
    page = alice.get(f"/g/{game.code}/review/").content.decode()

    as_good = [d for d in decisions if d.played_as == "good"]
    assert as_good and all(d.before.turn < 4 for d in as_good)
    assert all(d.played_as == "" for d in decisions if d.before.turn >= 4)
    costliest = re.search(r'<section class="costliest".*?</section>', page, re.S).group()
    steps = page.replace(costliest, "")
    assert steps.count("(played as Good)") == len(as_good)  # the last step is not one
    listed = analysis.analyse(fresh(game)).costliest()
    assert costliest.count("(played as Good)") == sum(d.played_as == "good" for d in listed)
    assert "Computer 1 (Perfect, partly played as Good)" in page
    assert (
        "Computer 1 (Perfect) played as Good in 2 of its 13 turns, while its strategy tables"
        " were not ready." in page
    )


def test_the_review_prices_a_declaration_as_a_decision_of_its_own(
    alice: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A declared target (issue 36, item 2): the declaration is judged against the best
    one to declare on the same dice, then the turn aimed at it."""
    script_dice(monkeypatch, rules.ScriptedDice([6] * 5 + [1, 2, 3, 4, 5] * 5))
    game = create_game(alice, upper_only="on", declared_target="on")
    for category in ("ones", "twos", "threes", "fours", "fives", "sixes"):
        chosen = {"category": category}
        turn = (("roll", {}), ("declare", chosen), ("score", {**chosen, "confirm": "1"}))
        for action, data in turn:
            response = alice.post(f"/g/{game.code}/{action}/", {"version": version(game), **data})
            assert response.status_code == 302, response.content.decode()[:500]
    assert fresh(game).engine_state().is_finished
    solver = solved_tables(Variant("yatzy", upper_only=True, declared_target=True))

    result = analysis.analyse(fresh(game))

    declaration = result.decisions[2]  # step 1 is the roll, step 2 declares Ones on five sixes
    assert declaration.chosen == "Declare Ones as target"
    assert declaration.best == "declare Sixes as target"
    assert declaration.loss > 10
    (card,) = result.cards
    assert card.expected_start == pytest.approx(solver.expected_score)
    assert card.total_loss == pytest.approx(sum(d.loss for d in result.decisions.values()))
    page = alice.get(f"/g/{game.code}/review/").content.decode()
    assert "best was declare Sixes as target" in page


@pytest.mark.parametrize(
    "options",
    [rules.TableOptions(), rules.TableOptions(declared_target=True)],
    ids=["maxi_yatzy", "maxi_yatzy-declared"],
)
def test_full_maxi_yatzy_once_built_has_its_perfect_player_and_review(
    alice: Client, options: rules.TableOptions
) -> None:
    """Full Maxi Yatzy's tables are built by hand (``manage.py solve``, docs/strategy.md);
    where they are, a Perfect computer player plays by them from the first turn, the
    coach advises by them, and the review judges every decision against them. Skipped
    where they are not built."""
    variant = Variant.of("maxi_yatzy", options)
    if not tables.ready(variant):
        pytest.skip(f"no {variant.name} table: manage.py solve --variant {variant.name}")
    declared = "on" if options.declared_target else ""
    game = create_game(
        alice,
        ruleset="maxi_yatzy",
        declared_target=declared,
        bots="1",
        bot_level="perfect",
        coach="on",
    )
    hints = []
    while fresh(game).status == Game.Status.PLAYING:
        if services.bot_move(game.code, fresh(game).version):
            continue
        alice.post(f"/g/{game.code}/roll/", {"version": version(game)})
        if not hints:
            hints.append(alice.get(f"/g/{game.code}/hint/", HTTP_HX_REQUEST="true"))
        chosen = {"category": fresh(game).engine_state().open_categories(0)[0]}
        if options.declared_target:
            alice.post(f"/g/{game.code}/declare/", {"version": version(game), **chosen})
        scored = alice.post(
            f"/g/{game.code}/score/", {"version": version(game), **chosen, "confirm": "1"}
        )
        assert scored.status_code == 302, scored.content.decode()[:500]

    result = analysis.analyse(fresh(game))
    page = alice.get(f"/g/{game.code}/review/").content.decode()

    solver = tables.load(variant)
    assert solver is not None
    assert [card.expected_start for card in result.cards] == pytest.approx(
        [solver.expected_score] * 2
    )
    assert all(decision.played_as == "" for decision in result.decisions.values())
    assert "manage.py solve" not in page
    assert "Computer 1 (Perfect)" in page
    (hint,) = (response.content.decode() for response in hints)
    assert "The coach says" in hint and "Expected final score:" in hint
    assert ("as target" in hint) == options.declared_target  # the declaration first


def test_the_review_lists_the_three_costliest_decisions_first(alice: Client, scripted_game) -> None:
    result = analysis.analyse(scripted_game)
    wrong = sorted((d for d in result.decisions.values() if not d.is_best), key=lambda d: -d.loss)
    assert len(wrong) > 3  # more mistakes than are listed

    page = unisolated(alice.get(f"/g/{scripted_game.code}/review/").content.decode())

    section = re.search(r'<section class="costliest".*?</section>', page, re.S).group()
    assert page.index('class="costliest"') < page.index('class="skill"')  # at the top
    items = re.findall(r"<li>(.*?)</li>", section, re.S)
    assert len(items) == 3
    for item, decision in zip(items, wrong, strict=False):  # the costliest first
        assert f'href="?step={decision.step}"' in item
        assert f"Cost: {decision.loss:.1f} points." in item
    # who, in which turn, on which dice, what they did and what was best
    assert (
        ">Alice, turn 1</a>: with 6 6 6 6 6: Score 0 in Ones; best was score 30 in Sixes."
        in (items[0])
    )


def test_next_and_previous_mistake_jump_over_the_steps_between(
    alice: Client, scripted_game
) -> None:
    mistakes = analysis.analyse(scripted_game).mistakes
    review = f"/g/{scripted_game.code}/review/"

    def links(step: int) -> dict[str, str | None]:
        page = alice.get(review, {"step": step}, HTTP_HX_REQUEST="true").content.decode()
        found = {}
        for which in ("previous", "next"):
            link = re.search(rf'<a class="button" id="mistake-{which}"([^>]*)>', page).group(1)
            target = re.search(r'href="\?step=(\d+)"', link)
            found[which] = target.group(1) if target else None
            assert (target is None) == ('aria-disabled="true"' in link)
        return found

    assert links(0) == {"previous": None, "next": str(mistakes[0])}
    between = mistakes[0] + 1
    assert between not in mistakes  # a step that is none: the jumps skip to the mistakes
    assert links(between) == {"previous": str(mistakes[0]), "next": str(mistakes[1])}
    assert links(mistakes[1]) == {"previous": str(mistakes[0]), "next": str(mistakes[2])}
    assert links(mistakes[-1])["next"] is None  # no mistake after the last
    # the mistake a jump lands on is shown with its verdict
    shown = alice.get(review, {"step": mistakes[0]}).content.decode()
    stepper = re.search(r'<section id="stepper".*?</section>', shown, re.S).group()
    assert 'class="verdict loss"' in stepper
