"""Forms of the score-pad pages.

They only turn what was tapped into the entry a service takes (the same JSON the score-pad's
script sends to the API); every rule is checked by the services and the engine, whose errors
are put back next to the field they name.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.engine import EngineError, RunCount, check_run_count, run_counts_counted, team_of

SEATS = (0, 1, 2, 3)
TRUMPS = (("C", "♣"), ("D", "♦"), ("H", "♥"), ("S", "♠"))
VOID = "void"
NO_TRUMP = "none"

# Where an engine or service error field lands on the form.
FIELD_OF_ERROR = {
    "caller": "caller",
    "trump": "trump",
    "card_points": "count",
    "card_points.team": "count_team",
    "run_points": "runs",
    "run_counts": "runs",
    "runs": "runs",
    "bella_seat": "bella_seat",
    "misplay": "misplay_by",
    "misplay.called_by": "misplay_by",
    "misplay.proven": "misplay_proven",
    "thrown_in_by": "thrown_in_by",
    "number": "__all__",
    "entry": "__all__",
    "game": "__all__",
    "first_dealer": "__all__",
    "reason": "reason",
    "version": "__all__",
    "If-Match": "__all__",  # the version the page was read at, sent again in a hidden field
    "evidence": "tricks",  # a misplay dispute's trick record, typed in the tricks box
}


def form_field_of(error_field: str | None, known: Mapping[str, Any]) -> str | None:
    """The form field an error path names (``"runs.1.top"`` -> ``"runs"``), or None for the
    whole form."""
    if not error_field:
        return None
    seat_field = _run_count_field(error_field)
    if seat_field in known:
        return seat_field
    for candidate in (error_field, error_field.split(".")[0]):
        name = FIELD_OF_ERROR.get(candidate, candidate)
        if name in known:
            return name
    return None


def _run_count_field(error_field: str) -> str | None:
    """The grid's box a player's run count error names: ``run_counts.2.twenties`` ->
    ``twenty_2``; ``run_counts.2`` (the two together) -> ``fifty_2``."""
    parts = error_field.split(".")
    if parts[0] != "run_counts" or len(parts) < 2 or not parts[1].isdigit():
        return None
    kind = "twenty" if parts[2:3] == ["twenties"] else "fifty"
    return f"{kind}_{parts[1]}"


def _seat_choices(seat_names: Mapping[int, str], *, empty: Any = None) -> list[Any]:
    choices: list[Any] = [("", empty)] if empty is not None else []
    choices.extend((str(s), seat_names.get(s, str(s))) for s in SEATS)
    return choices


def _set_choices(form: forms.Form, name: str, choices: list[Any]) -> None:
    field = form.fields[name]
    assert isinstance(field, forms.ChoiceField)  # noqa: S101 - a programming error otherwise
    field.choices = choices


def _optional_seat(value: str | None) -> int | None:
    return None if value is None or value == "" else int(value)


class HandForm(forms.Form):
    """One line of the score-sheet, as a scorekeeper taps it in."""

    caller = forms.ChoiceField(
        label=_("Who called trump?"),
        widget=forms.RadioSelect,
        error_messages={"required": _("Choose who called trump.")},
    )
    trump = forms.ChoiceField(label=_("Trump"), widget=forms.RadioSelect, required=False)
    count_team = forms.ChoiceField(label=_("Count of"), widget=forms.RadioSelect, required=False)
    count = forms.IntegerField(label=_("Card points"), required=False, min_value=0)
    # A thrown-in hand: the other team's card points as won when it was thrown in (the pages
    # show the box only then; it is not read otherwise).
    other_count = forms.IntegerField(
        label=_("The other team's card points when it was thrown in"),
        required=False,
        min_value=0,
    )
    bella_seat = forms.ChoiceField(label=_("Bella"), required=False)
    misplay_by = forms.ChoiceField(label=_("Misplay called by"), required=False)
    misplay_proven = forms.BooleanField(label=_("Misplay proven"), required=False)
    thrown_in_by = forms.ChoiceField(label=_("Hand thrown in by"), required=False)
    # Takes no input: where a refusal of the runs shown goes, beside the grid of twenties and
    # fifties (``twenty_{seat}`` and ``fifty_{seat}``, made per seat below).
    runs = forms.CharField(required=False, widget=forms.HiddenInput)

    def __init__(
        self,
        *args: Any,
        seat_names: Mapping[int, str],
        team_names: tuple[str, str],
        no_trump_allowed: bool = False,
        void_allowed: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.seat_names = dict(seat_names)
        callers = _seat_choices(seat_names)
        if void_allowed:
            callers.append((VOID, _("All passed")))
        _set_choices(self, "caller", callers)
        trumps: list[Any] = list(TRUMPS)
        if no_trump_allowed:
            trumps.append((NO_TRUMP, _("No trump")))
        _set_choices(self, "trump", trumps)
        _set_choices(self, "count_team", [("team_a", team_names[0]), ("team_b", team_names[1])])
        _set_choices(self, "bella_seat", _seat_choices(seat_names, empty=_("No bella")))
        _set_choices(self, "misplay_by", _seat_choices(seat_names, empty=_("No misplay")))
        _set_choices(self, "thrown_in_by", _seat_choices(seat_names, empty=_("Played out")))
        for seat in SEATS:
            name = seat_names.get(seat, seat)
            for kind, label in (("twenty", _("twenties")), ("fifty", _("fifties"))):
                self.fields[f"{kind}_{seat}"] = forms.IntegerField(
                    label=f"{name}: {label}",
                    required=False,
                    initial=0,
                    error_messages={
                        "invalid": _("%(name)s: %(runs)s are a whole number")
                        % {"name": name, "runs": label},
                    },
                )

    def clean(self) -> dict[str, Any]:
        """Check the runs each player showed with the engine, naming the player (the services
        check them again, speaking of seats), and ask for the other team's count of a hand
        thrown in."""
        data = super().clean() or {}
        names = [str(self.seat_names.get(s, s)) for s in SEATS]
        grid = [f"{kind}_{seat}" for seat in SEATS for kind in ("twenty", "fifty")]
        if not any(name in self.errors for name in grid):
            counts: list[RunCount] = []
            for seat in SEATS:
                counts.append((data.get(f"twenty_{seat}") or 0, data.get(f"fifty_{seat}") or 0))
                try:
                    check_run_count(*counts[-1], who=names[seat], field=f"run_counts.{seat}")
                except EngineError as exc:
                    self.add_error(form_field_of(exc.field, self.fields), str(exc))
            if not any(name in self.errors for name in grid):
                try:
                    run_counts_counted(counts, names=names)
                except EngineError as exc:
                    self.add_error("runs", str(exc))
        thrown_in = data.get("thrown_in_by") not in (None, "")
        if thrown_in and data.get("count") is not None and data.get("other_count") is None:
            self.add_error(
                "other_count",
                _(
                    "A thrown-in hand needs both teams' card points: give the other team's, "
                    "as won when the hand was thrown in."
                ),
            )
        return data

    def run_errors(self) -> list[str]:
        """The refusals of the grid of runs, each naming the player, for the one place beside
        the grid where the template shows them (with those of the runs as a whole)."""
        names = ["runs"] + [f"{kind}_{seat}" for seat in SEATS for kind in ("twenty", "fifty")]
        return [str(error) for name in names for error in self.errors.get(name, [])]

    def runs_shown(self) -> bool:
        """Whether the form, as sent back, says a player showed a run (its fold opens)."""
        return any(
            str(self[f"{kind}_{seat}"].value() or 0) not in ("", "0")
            for seat in SEATS
            for kind in ("twenty", "fifty")
        )

    def run_fields(self) -> list[tuple[int, str, forms.BoundField, forms.BoundField]]:
        """(seat, player, twenties field, fifties field) for the template."""
        return [
            (s, self.seat_names.get(s, str(s)), self[f"twenty_{s}"], self[f"fifty_{s}"])
            for s in SEATS
        ]

    def to_entry(self) -> dict[str, Any]:
        """The summary entry, in the shape the hand services and the API take."""
        data = self.cleaned_data
        caller = None if data["caller"] == VOID else int(data["caller"])
        trump = data.get("trump") or None
        if trump == NO_TRUMP:
            trump = None
        misplay_by = _optional_seat(data.get("misplay_by"))
        thrown_in_by = _optional_seat(data.get("thrown_in_by"))
        entry: dict[str, Any] = {"caller": caller, "trump": trump if caller is not None else None}
        if caller is not None and misplay_by is None and data.get("count") is not None:
            team = data.get("count_team") or ("team_a" if caller % 2 == 0 else "team_b")
            if thrown_in_by is not None and data.get("other_count") is not None:
                # both teams' points as won when thrown in: the engine adds the rest
                pair = [data["count"], data["other_count"]]
                entry["card_points"] = pair if team == "team_a" else pair[::-1]
            else:
                entry["card_points"] = {"team": team, "points": data["count"]}
        else:
            entry["card_points"] = None
        counts = [
            {"twenties": data.get(f"twenty_{s}") or 0, "fifties": data.get(f"fifty_{s}") or 0}
            for s in SEATS
        ]
        entry["run_counts"] = counts if any(c["twenties"] or c["fifties"] for c in counts) else None
        entry["bella_seat"] = _optional_seat(data.get("bella_seat"))
        entry["misplay"] = (
            None
            if misplay_by is None
            else {"called_by": misplay_by, "proven": bool(data.get("misplay_proven"))}
        )
        entry["thrown_in_by"] = thrown_in_by
        return entry

    @staticmethod
    def initial_from_entry(
        entry: Mapping[str, Any], counted: tuple[int, int] | None = None
    ) -> dict[str, Any]:
        """Form values that show a stored summary entry again (for a correction).

        Runs entered per player (``run_counts``) go back to each player's boxes as entered.
        Runs entered with suits hold the runs that count, as a score-sheet does: given the run
        points each team ``counted`` in the hand's result, the runs a player showed for a team
        that counted none are left out (both teams may show runs; only the best run's team
        counts them), so a correction of the count alone is not refused for runs on both
        sides. Run points per team go to the team's first player, the rest to the partner
        when one player's nine cards cannot hold them all."""
        initial: dict[str, Any] = {}
        caller = entry.get("caller")
        initial["caller"] = VOID if caller is None else str(caller)
        trump = entry.get("trump")
        initial["trump"] = NO_TRUMP if trump is None and caller is not None else (trump or "")
        points = entry.get("card_points")
        if isinstance(points, Mapping):
            initial["count_team"] = points.get("team")
            initial["count"] = points.get("points")
        elif isinstance(points, list | tuple) and len(points) == 2:
            initial["count_team"] = "team_a"
            initial["count"] = points[0]
            if entry.get("thrown_in_by") is not None:
                initial["other_count"] = points[1]
        for key in ("bella_seat", "thrown_in_by"):
            value = entry.get(key)
            initial[key] = "" if value is None else str(value)
        misplay = entry.get("misplay")
        if isinstance(misplay, Mapping):
            initial["misplay_by"] = str(misplay.get("called_by"))
            initial["misplay_proven"] = bool(misplay.get("proven"))
        run_points = entry.get("run_points")
        if isinstance(run_points, list | tuple) and len(run_points) == 2:
            # shown as runs of the team's first seat (fifties first, then twenties), what its
            # nine cards cannot hold as the partner's
            for team in (0, 1):
                fifties, rest = divmod(int(run_points[team]), 50)
                if rest % 20:
                    fifties, rest = 0, int(run_points[team])
                twenties = rest // 20
                first_fifties = min(fifties, 2)
                first_twenties = min(twenties, (9 - 4 * first_fifties) // 3)
                initial[f"fifty_{team}"] = first_fifties
                initial[f"twenty_{team}"] = first_twenties
                initial[f"fifty_{team + 2}"] = fifties - first_fifties
                initial[f"twenty_{team + 2}"] = twenties - first_twenties
        run_counts = entry.get("run_counts")
        if isinstance(run_counts, list | tuple):
            for seat, count in zip(SEATS, run_counts, strict=False):
                if isinstance(count, Mapping):
                    initial[f"twenty_{seat}"] = count.get("twenties", 0)
                    initial[f"fifty_{seat}"] = count.get("fifties", 0)
        for run in entry.get("runs") or []:
            if isinstance(run, Mapping) and run.get("seat") in SEATS:
                if counted is not None and not counted[run["seat"] % 2]:
                    continue
                key = f"{run.get('kind')}_{run['seat']}"
                initial[key] = initial.get(key, 0) + 1
        return initial


class CorrectHandForm(HandForm):
    """A correction: the new line, why, and the version that was read."""

    reason = forms.CharField(label=_("Why is this hand corrected?"), max_length=500)
    version = forms.IntegerField(widget=forms.HiddenInput)


class GameActForm(forms.Form):
    """An act on the whole game, made on the version of it the page showed (a hidden field the
    page fills with the game's version): a hand another score-pad entered in the meantime makes
    it refused, not silently acted over."""

    version = forms.IntegerField(widget=forms.HiddenInput, min_value=1)


class FirstDealerForm(GameActForm):
    seat = forms.TypedChoiceField(
        label=_("First dealer"), coerce=int, choices=[(s, s) for s in SEATS]
    )


class ReasonForm(GameActForm):
    reason = forms.CharField(label=_("Reason"), max_length=500)


class UndoForm(GameActForm):
    """Undoing the last hand asks once: the page names the hand, and its one button (which
    sends ``confirm``) undoes it."""

    confirm = forms.BooleanField(label=_("Yes, undo the last hand"))
    reason = forms.CharField(label=_("Reason (optional)"), max_length=500, required=False)


class DisputeForm(forms.Form):
    """A misplay dispute: who calls it, on whom, which trick, the proof, and the tricks.

    The tricks are needed for a hand entered as a score-sheet line (``needs_tricks``): the
    engine judges the misplay from them. A hand entered trick by trick has its own."""

    called_by = forms.TypedChoiceField(
        label=_("Called by"),
        coerce=int,
        error_messages={"required": _("Choose the player who calls the misplay.")},
    )
    accused = forms.TypedChoiceField(
        label=_("Accused player"),
        coerce=int,
        error_messages={"required": _("Choose the player accused of the misplay.")},
    )
    trick = forms.TypedChoiceField(
        label=_("Trick"), coerce=int, choices=[(t, t) for t in range(1, 10)]
    )
    proof_card = forms.CharField(
        label=_("Proof card (optional)"),
        max_length=3,
        required=False,
        help_text=_("The card that shows the misplay, e.g. 9H."),
    )
    tricks = forms.CharField(
        label=_("The tricks, one per line"),
        widget=forms.Textarea(attrs={"rows": 9, "autocapitalize": "characters"}),
        help_text=_(
            "Each line is one trick: the cards in the order they were played, "
            "from the player who led, e.g. JH 9H AH 7H."
        ),
        required=False,
    )

    def __init__(
        self, *args: Any, seat_names: Mapping[int, str], needs_tricks: bool = True, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.seat_names = dict(seat_names)
        _set_choices(self, "called_by", _seat_choices(seat_names, empty=_("Choose a player")))
        _set_choices(self, "accused", _seat_choices(seat_names, empty=_("Choose a player")))
        tricks = self.fields["tricks"]
        tricks.required = needs_tricks
        if needs_tricks:
            tricks.help_text = _(
                "Needed: this hand was entered as a score-sheet line, so the rules engine "
                "judges the misplay from these tricks. Each line is one trick: the cards in the "
                "order they were played, from the player who led, e.g. JH 9H AH 7H."
            )
            tricks.error_messages["required"] = _(
                "Type the trick record of this hand, one trick per line: it was entered as a "
                "score-sheet line, so the rules engine has no tricks of its own to judge."
            )
        else:
            tricks.label = _("The tricks, one per line (optional)")
            tricks.help_text = _(
                "Leave empty to judge the tricks entered with the hand. Each line is one trick: "
                "the cards in the order they were played, from the player who led, "
                "e.g. JH 9H AH 7H."
            )

    def clean(self) -> dict[str, Any]:
        """Refuse a misplay called on oneself or on one's partner, naming the players (the
        service refuses them too, speaking of seats)."""
        data = super().clean() or {}
        caller, accused = data.get("called_by"), data.get("accused")
        if isinstance(caller, int) and isinstance(accused, int):
            names = {"caller": self._name(caller), "accused": self._name(accused)}
            if caller == accused:
                self.add_error(
                    "accused",
                    _("%(caller)s cannot call a misplay on themselves: choose who is accused.")
                    % names,
                )
            elif team_of(caller) == team_of(accused):
                self.add_error(
                    "accused",
                    _(
                        "%(caller)s and %(accused)s are partners: a misplay is called on a "
                        "player of the other team."
                    )
                    % names,
                )
        return data

    def _name(self, seat: int) -> str:
        return str(self.seat_names.get(seat, seat))

    def evidence(self, *, caller: int | None, trump: str | None) -> dict[str, Any] | None:
        """The trick record shown as evidence, or None to use the hand's own record."""
        text = self.cleaned_data.get("tricks") or ""
        lines = [line.split() for line in text.upper().splitlines() if line.strip()]
        if not lines:
            return None
        return {"caller": caller, "trump": trump, "tricks": lines}


class DisputeRulingForm(forms.Form):
    ruling = forms.ChoiceField(
        label=_("Ruling"),
        choices=[("upheld", _("Uphold the verdict")), ("overruled", _("Overrule the verdict"))],
        widget=forms.RadioSelect,
    )
    note = forms.CharField(label=_("Note"), max_length=500, required=False)


class CasualGameForm(forms.Form):
    """A game between two teams that are not in a tournament: four names, a ruleset."""

    a_one = forms.CharField(label=_("Team A, first player"), max_length=100)
    a_two = forms.CharField(label=_("Team A, partner"), max_length=100)
    b_one = forms.CharField(label=_("Team B, first player"), max_length=100)
    b_two = forms.CharField(label=_("Team B, partner"), max_length=100)
    table = forms.CharField(label=_("Table"), max_length=60, required=False)
    ruleset_preset = forms.ChoiceField(label=_("Rules"))
    public = forms.BooleanField(
        label=_("Anyone may follow this game"),
        required=False,
        initial=True,
        help_text=_("Untick to keep it to its scorekeepers and the directors."),
    )

    def __init__(self, *args: Any, presets: Mapping[str, str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _set_choices(self, "ruleset_preset", list(presets.items()))
