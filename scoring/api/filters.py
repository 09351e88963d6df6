"""Query filters of the scoring API lists (django-filter)."""

from django.db.models import Q, QuerySet
from django_filters import rest_framework as filters

from scoring.models import Game, MisplayDispute, Player, Team
from tarabish_site.api.filters import FilterSet, IdFilter, RowIdFilter


class GameFilter(FilterSet):
    """``?status=in_progress&team=4&date=2026-11-21`` (dates are local dates of the start)."""

    status = filters.ChoiceFilter(choices=Game.Status.choices, help_text="The game's status.")
    team = IdFilter(
        queryset=Team.objects.all(),
        thing="team",
        method="filter_team",
        help_text="Games this team plays (the team's id).",
    )
    player = IdFilter(
        queryset=Player.objects.all(),
        thing="player",
        method="filter_player",
        help_text="Games this player sits in (the player's id).",
    )
    date = filters.DateFilter(field_name="created_at", lookup_expr="date", help_text="Started on.")
    date_from = filters.DateFilter(
        field_name="created_at", lookup_expr="date__gte", help_text="Started on or after."
    )
    date_to = filters.DateFilter(
        field_name="created_at", lookup_expr="date__lte", help_text="Started on or before."
    )

    class Meta:
        model = Game
        fields = ["status", "team", "player", "date", "date_from", "date_to"]

    def filter_team(self, queryset: QuerySet[Game], name: str, value: Team) -> QuerySet[Game]:
        return queryset.filter(Q(team_a=value) | Q(team_b=value))

    def filter_player(self, queryset: QuerySet[Game], name: str, value: Player) -> QuerySet[Game]:
        return queryset.filter(
            Q(seat_0=value) | Q(seat_1=value) | Q(seat_2=value) | Q(seat_3=value)
        )


class TeamFilter(FilterSet):
    player = IdFilter(
        queryset=Player.objects.all(),
        thing="player",
        method="filter_player",
        help_text="Teams of this player (the player's id).",
    )
    search = filters.CharFilter(method="filter_search", help_text="Part of a name.")

    class Meta:
        model = Team
        fields = ["player", "search"]

    def filter_player(self, queryset: QuerySet[Team], name: str, value: Player) -> QuerySet[Team]:
        return queryset.filter(Q(player_one=value) | Q(player_two=value))

    def filter_search(self, queryset: QuerySet[Team], name: str, value: str) -> QuerySet[Team]:
        return queryset.filter(
            Q(name__icontains=value)
            | Q(player_one__display_name__icontains=value)
            | Q(player_two__display_name__icontains=value)
        )


class PlayerFilter(FilterSet):
    search = filters.CharFilter(method="filter_search", help_text="Part of a name or community.")

    class Meta:
        model = Player
        fields = ["search"]

    def filter_search(self, queryset: QuerySet[Player], name: str, value: str) -> QuerySet[Player]:
        return queryset.filter(Q(display_name__icontains=value) | Q(community__icontains=value))


class DisputeFilter(FilterSet):
    game = RowIdFilter(field_name="hand__game", help_text="Disputes of this game.")
    status = filters.ChoiceFilter(choices=MisplayDispute.Status.choices)

    class Meta:
        model = MisplayDispute
        fields = ["game", "status"]
