"""Admin for directors: games with their hands, players, teams, and misplay disputes.

Scores are never edited here: hands and their results are read-only (entered values beside the
engine's results), and every change that touches a result goes through :mod:`scoring.services`
(reopening a game, ruling on a dispute, judging it again).
"""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from scoring import services
from scoring.models import Game, Hand, HandRevision, MisplayDispute, Player, Team
from scoring.wording import ruleset_lines
from tarabish_site.api.errors import ApplicationError
from tarabish_site.api.exceptions import refusal_said as said


def _pretty(data: object) -> SafeString:
    return format_html(
        '<pre class="admin-json">{}</pre>', json.dumps(data, indent=1, ensure_ascii=False)
    )


class _Styled:
    """The admin pages that show entries as JSON and rules as lists: their styles (no inline
    style attribute: the Content-Security-Policy allows this site's stylesheets alone)."""

    class Media:
        css = {"all": ["css/admin.css"]}


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin[Player]):
    list_display = ("display_name", "community", "user", "created_at")
    list_filter = ("community",)
    search_fields = ("display_name", "community", "user__username")
    raw_id_fields = ("user",)


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin[Team]):
    list_display = ("name", "player_one", "player_two", "created_at")
    search_fields = ("name", "player_one__display_name", "player_two__display_name")
    autocomplete_fields = ("player_one", "player_two")

    def get_readonly_fields(self, request: HttpRequest, obj: Team | None = None) -> Any:
        # The pair is what the team is: games point at it.
        return ("player_one", "player_two") if obj is not None else ()


class HandInline(admin.TabularInline[Hand, Game]):
    """Each hand: what was entered, beside what the engine made of it."""

    model = Hand
    extra = 0
    can_delete = False
    show_change_link = True
    ordering = ("number", "id")
    fields = (
        "number",
        "undone",
        "entry_kind",
        "entered",
        "dealer",
        "caller",
        "trump",
        "outcome",
        "points_a",
        "points_b",
        "running_a",
        "running_b",
        "version",
    )
    readonly_fields = fields

    @admin.display(description=gettext_lazy("Entered"))
    def entered(self, hand: Hand) -> SafeString:
        return _pretty(hand.entry)

    def has_add_permission(self, request: HttpRequest, obj: Game | None = None) -> bool:
        return False


@admin.register(Game)
class GameAdmin(_Styled, admin.ModelAdmin[Game]):
    list_display = (
        "id",
        "team_a",
        "team_b",
        "score_a",
        "score_b",
        "status",
        "winner",
        "hands_played",
        "table",
        "ruleset_preset",
        "created_at",
    )
    list_display_links = ("id", "team_a")
    list_filter = (
        "status",
        "winner",
        "public",
        "ruleset_preset",
        "first_dealer_method",
        "created_at",
    )
    search_fields = (
        "=id",
        "table",
        "team_a__name",
        "team_b__name",
        "seat_0__display_name",
        "seat_1__display_name",
        "seat_2__display_name",
        "seat_3__display_name",
    )
    date_hierarchy = "created_at"
    list_select_related = ("team_a", "team_b")
    autocomplete_fields = ("scorekeepers",)
    inlines = (HandInline,)
    actions = ("end_early", "reopen")
    readonly_fields = (
        "team_a",
        "team_b",
        "seat_0",
        "seat_1",
        "seat_2",
        "seat_3",
        "ruleset_preset",
        "ruleset_in_words",
        "first_dealer",
        "first_dealer_method",
        "first_dealer_flips",
        "status",
        "winner",
        "ended_reason",
        "score_a",
        "score_b",
        "hands_played",
        "next_dealer",
        "forced_seat",
        "version",
        "created_by",
        "created_at",
        "finished_at",
    )
    fieldsets = (
        (None, {"fields": ("table", "scorekeepers", "created_by", "created_at")}),
        (
            gettext_lazy("Teams and seats"),
            {"fields": (("team_a", "team_b"), ("seat_0", "seat_1"), ("seat_2", "seat_3"))},
        ),
        (gettext_lazy("Rules"), {"fields": ("ruleset_preset", "ruleset_in_words")}),
        (
            gettext_lazy("First dealer"),
            {"fields": ("first_dealer", "first_dealer_method", "first_dealer_flips")},
        ),
        (
            gettext_lazy("Result (from the engine)"),
            {
                "fields": (
                    ("status", "winner", "finished_at"),
                    "ended_reason",
                    ("score_a", "score_b", "hands_played"),
                    ("next_dealer", "forced_seat", "version"),
                )
            },
        ),
    )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # games are created by scorekeepers through the API and pages

    def has_delete_permission(self, request: HttpRequest, obj: Game | None = None) -> bool:
        """A game with hands stays in the record (the database refuses too: its hands
        protect it); one is ended early instead. A game nobody scored may go."""
        if obj is not None and obj.hands.exists():
            return False
        return super().has_delete_permission(request, obj)

    @admin.display(description=gettext_lazy("Ruleset"))
    def ruleset_in_words(self, game: Game) -> SafeString:
        rows = [
            format_html("<li><b>{}</b>: {}</li>", k, v)
            for k, v in ruleset_lines(game.engine_ruleset)
        ]
        return format_html('<ul class="admin-rules">{}</ul>', SafeString("".join(rows)))

    @admin.action(description=gettext_lazy("End the selected running games early (directors)"))
    def end_early(self, request: HttpRequest, queryset: QuerySet[Game]) -> None:
        if not services.user_can_direct(request.user):
            self.message_user(request, _("Only a director ends games early."), messages.ERROR)
            return
        done = 0
        for game in queryset:
            try:
                services.game_end_early(
                    game=game,
                    by=request.user,  # type: ignore[arg-type]
                    reason=f"Ended early in the admin by {request.user.get_username()}",
                )
            except ApplicationError as exc:
                self.message_user(request, said(exc), messages.WARNING)
            else:
                done += 1
        ended = ngettext("Ended %(count)d game early.", "Ended %(count)d games early.", done)
        self.message_user(request, ended % {"count": done}, messages.SUCCESS)

    @admin.action(description=gettext_lazy("Reopen the selected finished games (directors)"))
    def reopen(self, request: HttpRequest, queryset: QuerySet[Game]) -> None:
        if not services.user_can_direct(request.user):
            self.message_user(request, _("Only a director reopens games."), messages.ERROR)
            return
        done = 0
        for game in queryset:
            try:
                services.game_reopen(game=game, by=request.user)  # type: ignore[arg-type]
            except ApplicationError as exc:
                self.message_user(request, said(exc), messages.WARNING)
            else:
                done += 1
        reopened = ngettext("Reopened %(count)d game.", "Reopened %(count)d games.", done)
        self.message_user(request, reopened % {"count": done}, messages.SUCCESS)


@admin.register(HandRevision)
class HandRevisionAdmin(admin.ModelAdmin[HandRevision]):
    """Every version of every hand that has changed, read-only. A hand never changed has no
    row here: it is its own first version (shown with its game's hands)."""

    list_display = ("hand", "version", "action", "changed_by", "changed_at", "reason")
    list_filter = ("action", "changed_at")
    search_fields = ("=hand__game__id", "reason", "changed_by__username")
    list_select_related = ("hand", "changed_by")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: HandRevision | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: HandRevision | None = None) -> bool:
        return False


class RulingForm(forms.ModelForm[MisplayDispute]):
    class Meta:
        model = MisplayDispute
        fields = ("ruling", "ruling_note")
        widgets = {"ruling_note": forms.Textarea(attrs={"rows": 3})}


@admin.register(MisplayDispute)
class MisplayDisputeAdmin(_Styled, admin.ModelAdmin[MisplayDispute]):
    """The engine's verdict and the director's ruling, side by side. Saving the form rules on
    the dispute through the service (upheld, or overruled with a note)."""

    form = RulingForm
    list_display = (
        "id",
        "hand_link",
        "called_by",
        "accused",
        "trick",
        "status",
        "ruling",
        "created_at",
    )
    list_filter = ("status", "ruling", "created_at")
    search_fields = ("=hand__game__id", "reason", "ruling_note")
    list_select_related = ("hand",)
    actions = ("uphold", "adjudicate_again")
    readonly_fields = (
        "hand_link",
        "called_by",
        "accused",
        "trick",
        "proof_card",
        "evidence_shown",
        "status",
        "reason",
        "verdict_shown",
        "adjudicated_at",
        "ruled_by",
        "ruled_at",
        "created_by",
        "created_at",
        "version",
    )
    fieldsets = (
        (
            gettext_lazy("Accusation"),
            {"fields": ("hand_link", ("called_by", "accused", "trick", "proof_card"))},
        ),
        (gettext_lazy("Evidence"), {"fields": ("evidence_shown",)}),
        (
            gettext_lazy("Engine verdict"),
            {"fields": ("status", "reason", "verdict_shown", "adjudicated_at")},
        ),
        (
            gettext_lazy("Director's ruling"),
            {"fields": ("ruling", "ruling_note", "ruled_by", "ruled_at")},
        ),
        (None, {"fields": ("created_by", "created_at", "version")}),
    )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(
        self, request: HttpRequest, obj: MisplayDispute | None = None
    ) -> bool:
        return services.user_can_direct(request.user) and super().has_change_permission(
            request, obj
        )

    @admin.display(description=gettext_lazy("Hand"), ordering="hand__game_id")
    def hand_link(self, dispute: MisplayDispute) -> SafeString:
        url = reverse("admin:scoring_game_change", args=[dispute.hand.game_id])
        return format_html('<a href="{}">{}</a>', url, dispute.hand)

    @admin.display(description=gettext_lazy("Evidence (trick record)"))
    def evidence_shown(self, dispute: MisplayDispute) -> SafeString:
        return _pretty(dispute.evidence)

    @admin.display(description=gettext_lazy("Verdict"))
    def verdict_shown(self, dispute: MisplayDispute) -> SafeString:
        return _pretty(dispute.verdict)

    def save_model(
        self, request: HttpRequest, obj: MisplayDispute, form: forms.ModelForm[Any], change: bool
    ) -> None:
        if not change or not {"ruling", "ruling_note"} & set(form.changed_data):
            return
        stored = MisplayDispute.objects.get(pk=obj.pk)
        try:
            services.dispute_rule(
                dispute=stored,
                ruling=obj.ruling,
                note=obj.ruling_note,
                by=request.user,  # type: ignore[arg-type]
            )
        except ApplicationError as exc:
            self.message_user(request, said(exc), messages.ERROR)

    @admin.action(description=gettext_lazy("Uphold the engine's verdict"))
    def uphold(self, request: HttpRequest, queryset: QuerySet[MisplayDispute]) -> None:
        for dispute in queryset:
            try:
                services.dispute_rule(
                    dispute=dispute,
                    ruling=MisplayDispute.Ruling.UPHELD,
                    by=request.user,  # type: ignore[arg-type]
                )
            except ApplicationError as exc:
                refused = _("Dispute %(id)s: %(reason)s") % {"id": dispute.pk, "reason": said(exc)}
                self.message_user(request, refused, messages.WARNING)

    @admin.action(description=gettext_lazy("Judge again with the engine"))
    def adjudicate_again(self, request: HttpRequest, queryset: QuerySet[MisplayDispute]) -> None:
        for dispute in queryset:
            judged = services.dispute_adjudicate(dispute_id=dispute.pk, rerun=True)
            judged_now = _("Dispute %(id)s: %(reason)s") % {
                "id": judged.pk,
                "reason": judged.get_status_display(),
            }
            self.message_user(request, judged_now, messages.INFO)
