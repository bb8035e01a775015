"""Tables not built yet: the small ones are solved on the spot, a whole game's are built
in a process of their own the first time a table asks (games/strategy/tables.py)."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games import rules
from games.strategy import advice, tables
from games.strategy.build import variants_named
from games.strategy.solver import Variant


class _Builds:
    """Stands for ``subprocess.Popen``: the builds started, none run."""

    def __init__(self) -> None:
        self.commands: list[list[str]] = []

    def __call__(self, command: list[str], **kwargs: object) -> _Builds:
        self.commands.append(command)
        return self

    def wait(self) -> int:
        return 0


@pytest.fixture
def builds(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> _Builds:
    started = _Builds()
    monkeypatch.setenv("YATZY_SOLVER_CACHE", str(tmp_path))  # no tables at all
    monkeypatch.setenv("YATZY_BUILD_TABLES", "1")
    monkeypatch.setattr(tables, "_LOADED", {})
    monkeypatch.setattr(tables, "_STARTED", {})
    monkeypatch.setattr(tables.subprocess, "Popen", started)
    return started


def a_table(ruleset: str, **options: object) -> rules.GameState:
    return rules.new_game(ruleset, [[0]], rules.TableOptions(**options))


def test_missing_tables_of_a_whole_game_are_built_once_in_the_background(
    builds: _Builds, monkeypatch: pytest.MonkeyPatch
) -> None:
    bonus25 = a_table("yatzy", upper_bonus=25)

    assert advice.solver_for(bonus25) is None  # not yet: the coach says so
    assert advice.solver_for(bonus25) is None  # asked again meanwhile: no second build
    advice.solver_for(a_table("yahtzee", yahtzee_bonus=False))

    names = [command[-1].removeprefix("--variant=") for command in builds.commands]
    assert names == ["yatzy-bonus25", "yahtzee-nobonus"]
    assert all(c[1:4] == ["-m", "games.strategy.build", "--if-missing"] for c in builds.commands)
    assert variants_named(names) == [
        Variant("yatzy", upper_bonus=25),
        Variant("yahtzee", yahtzee_bonus=False),
    ]

    # a build that died is tried again, later
    monkeypatch.setattr(tables, "_BUILD_AGAIN_AFTER", 0.0)
    advice.solver_for(bonus25)
    assert len(builds.commands) == 3


def test_small_tables_are_solved_on_the_spot_and_maxi_is_not_built(builds: _Builds) -> None:
    assert advice.solver_for(a_table("yatzy", forced_order=True)) is not None
    assert advice.solver_for(a_table("maxi_yatzy")) is None

    assert builds.commands == []


def test_builds_can_be_turned_off(builds: _Builds, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("YATZY_BUILD_TABLES", "0")

    assert advice.solver_for(a_table("yatzy", upper_bonus=25)) is None
    assert builds.commands == []


def test_make_runs_build_in_the_background_is_off_where_the_server_builds_no_tables(
    builds: _Builds, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With YATZY_BUILD_TABLES=0 the pages say nothing builds the missing tables here;
    `make run`'s `solve --if-missing --background` built Yatzy's and Yahtzee's all the
    same. An explicit `manage.py solve`, the command the pages name, still builds."""
    call_command("solve", "--if-missing", "--background", stdout=StringIO())
    assert len(builds.commands) == 1

    monkeypatch.setenv("YATZY_BUILD_TABLES", "0")
    said = StringIO()
    call_command("solve", "--if-missing", "--background", stdout=said)

    assert len(builds.commands) == 1
    assert "YATZY_BUILD_TABLES=0: not building the solver's tables" in said.getvalue()


@pytest.mark.parametrize("name", ["yatzy-nobonus", "yahtzee-bonus25", "yatzy_forced", "chess"])
def test_solve_refuses_a_variant_no_table_plays_and_lists_the_valid_ones(name: str) -> None:
    with pytest.raises(CommandError) as refused:
        call_command("solve", "--variant", name, stdout=StringIO())

    said = str(refused.value)
    assert f"{name!r} is not a variant the site plays" in said
    assert "yatzy, yatzy-bonus25," in said and "yahtzee-nobonus" in said and "maxi_yatzy" in said


def test_solve_says_what_a_build_will_cost_before_and_what_it_cost_after(
    no_tables_built: None,
) -> None:
    said = StringIO()

    call_command("solve", "--variant", "maxi_yatzy-forced", stdout=said)

    before, *after = said.getvalue().splitlines()
    assert before.startswith("maxi_yatzy-forced: 1,265 positions (")
    assert " on " in before and " cores " in before
    assert "expected score 184.9779" in after[0]
    assert "s wall time" in after[1] and "s CPU time" in after[1]


def test_a_forced_order_table_stores_only_the_scorecards_that_exist(
    no_tables_built: None,
) -> None:
    tables.build(Variant("maxi_yatzy", forced_order=True), progress=False, workers=1)

    assert tables.path_of(Variant("maxi_yatzy", forced_order=True)).stat().st_size < 10_000
