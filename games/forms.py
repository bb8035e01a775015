"""The New game form: rules, table options and seats."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, cast

from django import forms
from django.conf import settings
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from games import rules
from games.bidi import isolated_text
from games.errors import rules_message
from games.models import BOT_LEVELS, Seat, bot_name
from games.names import MAX_NAME, MAX_NAME_TYPED, name_too_long, same_name, seat_name
from games.services import MAX_SEATS, SeatSpec

BOT_LEVEL_CHOICES = list(BOT_LEVELS.items())

RULESET_CHOICES = [
    ("yatzy", _("Scandinavian Yatzy")),
    ("yahtzee", _("American Yahtzee")),
    ("maxi_yatzy", _("Maxi Yatzy")),
]


# The home page's three ways in, each a button of the one form (its field ``way``):
# what each sets, when More options leave it at nothing (``NewGameForm.clean``).
WAYS = {
    "friends": _("Play with friends"),  # a room with an invitation
    "computer": _("Play the computer"),  # a computer player, at the level chosen
    "together": _("Pass and play"),  # the players named, at this screen
}


TURN_TIMERS = [
    (0, _("No timer")),
    (30, _("30 seconds")),
    (60, _("60 seconds")),
    (120, _("120 seconds")),
]


class NewGameForm(forms.Form):
    # measured as it shows, in clean() (``name_too_long``), not in code points as
    # max_length would; in the browser too (data-max-characters, names.js)
    name = forms.CharField(
        label=_("Your name"),
        # a name typed in Arabic or Hebrew runs right to left in the field as on the table
        widget=forms.TextInput(
            attrs={"maxlength": MAX_NAME_TYPED, "dir": "auto", "data-max-characters": MAX_NAME}
        ),
    )
    ruleset = forms.ChoiceField(label=_("Rules"), choices=RULESET_CHOICES, initial="yatzy")
    players = forms.CharField(
        label=_("More players at this screen"),
        help_text=_("One name per line. They take turns on this device."),
        required=False,
        widget=forms.Textarea(
            attrs={
                "rows": 2,
                "dir": "auto",
                "placeholder": _("One name per line"),
                "data-max-characters": MAX_NAME,  # on each line (names.js)
            }
        ),
    )
    invites = forms.IntegerField(
        label=_("Friends to invite"),
        help_text=_("Each gets a seat through the invite link."),
        min_value=0,
        max_value=MAX_SEATS - 1,
        initial=0,
    )
    bots = forms.IntegerField(
        label=_("Computer players"),
        help_text=_("They play their turns by themselves, at a pace you can follow."),
        min_value=0,
        max_value=MAX_SEATS - 1,
        initial=0,
        required=False,
    )
    bot_level = forms.ChoiceField(
        label=_("Computer strength"),
        choices=BOT_LEVEL_CHOICES,
        initial="good",
        required=False,
    )
    computer_pace = forms.ChoiceField(
        label=_("Computer pace"),
        choices=[
            ("relaxed", _("Relaxed: a move at a time you can follow")),
            ("fast", _("Fast: a whole turn in about a second")),
        ],
        initial="relaxed",
        required=False,
    )
    turn_seconds = forms.TypedChoiceField(
        label=_("Turn timer"),
        help_text=_("When a player's time runs out, their turn is skipped: 0 in a category."),
        choices=TURN_TIMERS,
        coerce=int,
        initial=0,
        required=False,
    )
    forced_order = forms.BooleanField(
        label=_("Forced order"),
        help_text=_("Fill the scorecard from top to bottom."),
        required=False,
    )
    declared_target = forms.BooleanField(
        label=_("Declared target"),
        help_text=_("After the first roll, declare the category you play for."),
        required=False,
    )
    upper_only = forms.BooleanField(
        label=_("Upper section only"),
        help_text=_("A short game of ones to sixes and the bonus."),
        required=False,
    )
    auto_first_roll = forms.BooleanField(
        label=_("Automatic first roll"),
        help_text=_("The dice are rolled for each player as their turn begins."),
        required=False,
    )
    teams = forms.TypedChoiceField(
        label=_("Teams"),
        choices=[
            (0, _("No teams")),
            (2, _("Two teams")),
            (3, _("Three teams")),
            (4, _("Four teams")),
        ],
        coerce=int,
        initial=0,
        help_text=_("Seats join the teams in turn: first seat team 1, second seat team 2, ..."),
    )
    upper_bonus = forms.TypedChoiceField(
        label=_("Upper bonus (Scandinavian Yatzy)"),
        choices=[(50, _("50 points")), (25, _("25 points"))],
        coerce=int,
        initial=50,
    )
    yahtzee_bonus = forms.BooleanField(
        label=_("Yahtzee bonus of 100 for each extra Yahtzee (American Yahtzee)"),
        required=False,
        initial=True,
    )
    coach = forms.BooleanField(
        label=_("Coach"),
        help_text=_("Players may ask for a hint at their turn. Leave off for a competitive game."),
        required=False,
    )
    public = forms.BooleanField(
        label=_("Show the finished game in the public history"),
        required=False,
        initial=True,
    )
    watchable = forms.BooleanField(
        label=_("Anyone may watch"),
        help_text=_("The game is listed on the Watch page while it is played."),
        required=False,
    )
    open_to_anyone = forms.BooleanField(
        label=_("Open to anyone"),
        help_text=_(
            "Strangers may take the invited seats: the room is listed on the Open tables"
            " page while it waits, and anyone may watch the game."
        ),
        required=False,
    )
    way = forms.ChoiceField(choices=[("", ""), *WAYS.items()], required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if seconds := settings.YATZY_TEST_TURN_TIMER:  # a test server's (settings.py)
            label = ngettext("%(seconds)d second a turn", "%(seconds)d seconds a turn", seconds)
            timer = cast(forms.TypedChoiceField, self.fields["turn_seconds"])
            timer.choices = [*TURN_TIMERS, (seconds, label % {"seconds": seconds})]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if self.errors:
            return data
        host = seat_name(data["name"])
        if not host:
            self.add_error("name", gettext("Please tell the table your name."))
            return data
        lines = data["players"].splitlines()
        for field, typed in (("name", [data["name"]]), ("players", lines)):
            if refusal := next(filter(None, map(name_too_long, typed)), ""):
                self.add_error(field, refusal)
                return data
        names = [name for name in map(seat_name, lines) if name]
        data["player_names"] = names
        data["bots"] = data.get("bots") or 0
        if data["way"] == "friends":
            data["invites"] = data["invites"] or 1
        elif data["way"] == "computer":
            data["bots"] = data["bots"] or 1
        elif data["way"] == "together" and not names:
            self.add_error(
                "players", gettext("Write the names of the players at this screen, one per line.")
            )
            return data
        data["bot_level"] = data.get("bot_level") or "good"
        data["computer_pace"] = data.get("computer_pace") or "relaxed"
        data["turn_seconds"] = data.get("turn_seconds") or 0
        computers = [bot_name(n, data["bot_level"]) for n in range(1, data["bots"] + 1)]
        data["computer_names"] = computers
        taken: list[str] = []
        for name in [host, *names, *computers]:
            if any(same_name(name, other) for other in taken):
                message = gettext(
                    "Two players cannot both be called %(name)s: no one could tell them apart."
                )
                raise forms.ValidationError(message % {"name": isolated_text(name)})
            taken.append(name)
        seats = 1 + len(names) + data["invites"] + data["bots"]
        if seats > MAX_SEATS:
            raise forms.ValidationError(
                gettext("A table has at most %(max)s seats.") % {"max": MAX_SEATS}
            )
        if data["open_to_anyone"] and not data["invites"]:
            self.add_error(
                "open_to_anyone",
                gettext("A room open to anyone needs a seat to invite to: add one under Players."),
            )
            return data
        if data["teams"] and seats < data["teams"]:
            raise forms.ValidationError(
                gettext("%(teams)s teams need at least %(teams)s seats.") % {"teams": data["teams"]}
            )
        ruleset = data["ruleset"]
        options = rules.TableOptions(
            forced_order=data["forced_order"],
            declared_target=data["declared_target"],
            upper_only=data["upper_only"],
            auto_first_roll=data["auto_first_roll"],
            upper_bonus=data["upper_bonus"] if ruleset == "yatzy" else None,
            yahtzee_bonus=data["yahtzee_bonus"] if ruleset == "yahtzee" else True,
        )
        try:
            options.validate(rules.get_ruleset(ruleset))
        except rules.RulesError as error:
            raise forms.ValidationError(rules_message(error)) from None
        data["options"] = options
        return data

    def seat_specs(self) -> list[SeatSpec]:
        data = self.cleaned_data
        specs = [SeatSpec(Seat.Kind.LOCAL, data["name"].strip())]
        specs += [SeatSpec(Seat.Kind.LOCAL, name) for name in data["player_names"]]
        specs += [SeatSpec(Seat.Kind.REMOTE) for _ in range(data["invites"])]
        level = data["bot_level"]
        specs += [
            SeatSpec(Seat.Kind.BOT, name, bot_level=level, bot_number=number)
            for number, name in enumerate(data["computer_names"], start=1)
        ]
        if data["teams"]:
            specs = [
                replace(spec, team=index % data["teams"] + 1) for index, spec in enumerate(specs)
            ]
        return specs
