"""Forms of the tournaments pages: they read and type what was posted; the services decide."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from scoring.wording import preset_choices
from tournaments.models import POOLS_MAX, SWISS_ROUNDS_MAX
from tournaments.services.setup import FORMAT_PRESETS, SEEDINGS


class SetupForm(forms.Form):
    """One page to set up a tournament: its name, format, rules, teams, seeds; then start."""

    name = forms.CharField(label=_("Name"), max_length=200)
    starts_on = forms.DateField(
        label=_("Day"), widget=forms.DateInput(attrs={"type": "date"}), initial=dt.date.today
    )
    venue = forms.CharField(label=_("Venue"), max_length=200, required=False)
    format = forms.ChoiceField(
        label=_("Format"),
        choices=[(p.slug, p.label) for p in FORMAT_PRESETS.values()],
        widget=forms.RadioSelect,
        initial="pools_single",
    )
    pool_count = forms.IntegerField(
        label=_("Pools"),
        min_value=1,
        max_value=POOLS_MAX,
        initial=2,
        help_text=_("Formats with pools only."),
    )
    qualifiers_per_pool = forms.IntegerField(
        label=_("Teams through from each pool"),
        min_value=1,
        initial=2,
        help_text=_("Next stage: how many of each pool play the knockout once the pools are over."),
    )
    swiss_rounds = forms.IntegerField(
        label=_("Swiss rounds"),
        min_value=1,
        max_value=SWISS_ROUNDS_MAX,
        required=False,
        help_text=_("Swiss only. Empty: enough rounds to rank the field."),
    )
    third_place = forms.BooleanField(
        label=_("Play for third place"),
        required=False,
        help_text=_("Single elimination: the knockout's losing semi-finalists meet."),
    )
    ruleset_preset = forms.ChoiceField(label=_("Rules"))
    match_games = forms.TypedChoiceField(
        label=_("Games per match"),
        choices=[(1, _("One game")), (3, _("Best of 3")), (5, _("Best of 5"))],
        coerce=int,
        initial=1,
    )
    teams = forms.CharField(
        label=_("Teams"),
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false"}),
        help_text=_(
            "One team a line: “Angus MacNeil & Flora MacLean”, or “The Bait Shop: Angus "
            "MacNeil & Flora MacLean”; or CSV with the columns player_one, player_two (team, "
            "community, seed optional)."
        ),
        required=False,
    )
    teams_file = forms.FileField(
        label=_("…or upload a CSV file"), required=False, help_text=_("UTF-8 CSV.")
    )
    seeding = forms.ChoiceField(
        label=_("Seeds"), choices=list(SEEDINGS.items()), widget=forms.RadioSelect
    )
    check_in_required = forms.BooleanField(
        label=_("Teams check in on the day"),
        required=False,
        help_text=_("Otherwise every team above is checked in and plays."),
    )
    entry_cap = forms.IntegerField(
        label=_("Most teams"),
        min_value=2,
        required=False,
        help_text=_(
            "Empty: no cap. Teams beyond it wait, and take the place of a team that "
            "withdraws or misses check-in, in order."
        ),
    )
    quick_results_by_scorekeepers = forms.BooleanField(
        label=_("Table scorekeepers may record games played on paper"),
        required=False,
        help_text=_("By their final totals only; directors always may."),
    )
    results_confirmed_by_both = forms.BooleanField(
        label=_("Players report results; the other team confirms"),
        required=False,
        help_text=_(
            "A player of either team reports the match by its games' totals; it counts once "
            "a player of the other team or a director confirms it."
        ),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        rules = self.fields["ruleset_preset"]
        assert isinstance(rules, forms.ChoiceField)  # noqa: S101 - declared above
        rules.choices = preset_choices()
        self.fields["ruleset_preset"].initial = "cape-breton-standard"
        self.fields["seeding"].initial = "as_entered"

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        upload = data.get("teams_file")
        if upload is not None:
            try:
                data["teams"] = upload.read().decode("utf-8-sig")
            except UnicodeDecodeError:
                self.add_error(
                    "teams_file", _("The file is not text in UTF-8: save it as CSV UTF-8.")
                )
        return data


class QuickResultForm(forms.Form):
    """A game of a match played on paper, recorded by its final totals only."""

    home_points = forms.IntegerField(label=_("Home total"), min_value=0)
    away_points = forms.IntegerField(label=_("Away total"), min_value=0)
    winner = forms.ChoiceField(
        label=_("Who won"),
        choices=[
            ("", _("As the totals say")),
            ("home", pgettext_lazy("team", "Home")),
            ("away", pgettext_lazy("team", "Away")),
        ],
        required=False,
        help_text=_("Only when both teams went over the target and the caller's team won."),
    )

    def __init__(self, *args: Any, home: str = "", away: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if home and away:
            self.fields["home_points"].label = _("%(team)s's total") % {"team": home}
            self.fields["away_points"].label = _("%(team)s's total") % {"team": away}
            winner = self.fields["winner"]
            assert isinstance(winner, forms.ChoiceField)  # noqa: S101 - declared above
            winner.choices = [("", _("As the totals say")), ("home", home), ("away", away)]


class ResultReportForm(forms.Form):
    """A player reports their match's result: each game by its final totals, the games after
    the one that decided the match left empty."""

    def __init__(
        self, *args: Any, games: int = 1, home: str = "", away: str = "", **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        for number in range(1, games + 1):
            for side, team in (("home", home), ("away", away)):
                label = _("%(team)s's total") % {"team": team or side}
                if games > 1:
                    label = _("Game %(number)s: %(label)s") % {"number": number, "label": label}
                self.fields[f"game{number}_{side}"] = forms.IntegerField(
                    label=label, min_value=0, required=number == 1
                )
        self.games = games

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        played: list[tuple[int, int]] = []
        for number in range(1, self.games + 1):
            home, away = data.get(f"game{number}_home"), data.get(f"game{number}_away")
            if home is None and away is None:
                continue
            if home is None or away is None:
                missing = f"game{number}_home" if home is None else f"game{number}_away"
                self.add_error(missing, _("Give both teams' totals of this game."))
                continue
            played.append((home, away))
        data["games"] = played
        return data


class TeamRegistrationForm(forms.Form):
    """A signed-in player registers a team: their partner named by username, who confirms."""

    partner = forms.CharField(
        label=_("Your partner's username"),
        max_length=150,
        help_text=_("Your partner confirms the team when they sign in."),
    )
    team_name = forms.CharField(
        label=_("Team name"),
        max_length=120,
        required=False,
        help_text=_("Empty: your two names."),
    )
    community = forms.CharField(label=_("Community"), max_length=100, required=False)


#: How a time of the registration window is typed (the browser's date-and-time field).
WINDOW_INPUT = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")


class SelfRegistrationForm(forms.Form):
    """The director lets teams register themselves, between two times, up to a cap."""

    self_registration = forms.BooleanField(
        label=_("Teams register themselves from the tournament's page"),
        required=False,
        help_text=_("A signed-in player names a partner, who confirms."),
    )
    registration_opens_at = forms.DateTimeField(
        label=_("Registration opens"),
        required=False,
        widget=WINDOW_INPUT,
        help_text=_("Empty: at once."),
    )
    registration_closes_at = forms.DateTimeField(
        label=_("Registration closes"),
        required=False,
        widget=WINDOW_INPUT,
        help_text=_("Empty: when play starts."),
    )
    entry_cap = forms.IntegerField(
        label=_("Most teams"),
        min_value=2,
        required=False,
        help_text=_("Empty: no cap. Teams beyond it wait on the waiting list, in order."),
    )


class TotalsCorrectionForm(QuickResultForm):
    """A director's correction of a game of a match recorded by its final totals."""

    field_order = ["game", "home_points", "away_points", "winner", "reason"]

    game = forms.TypedChoiceField(label=_("Game"), coerce=int)
    reason = forms.CharField(
        label=_("Why"),
        max_length=500,
        help_text=_("Kept with the totals before, in the game's history."),
    )
    version = forms.IntegerField(widget=forms.HiddenInput)

    def __init__(self, *args: Any, games: tuple[int, ...] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        game = self.fields["game"]
        assert isinstance(game, forms.TypedChoiceField)  # noqa: S101 - declared above
        game.choices = [(n, _("Game %(number)s") % {"number": n}) for n in games]
