"""Plain words for every constraint a form can hit, instead of its name."""

import django.db.models.expressions
import django.db.models.functions.comparison
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0006_revision_time_given"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AlterConstraint(
            model_name="game",
            name="scoring_game_two_teams",
            constraint=models.CheckConstraint(
                condition=models.Q(("team_a", models.F("team_b")), _negated=True),
                name="scoring_game_two_teams",
                violation_error_message="A game is played between two different teams.",
            ),
        ),
        migrations.AlterConstraint(
            model_name="game",
            name="scoring_game_four_players",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("seat_0", models.F("seat_1")), _negated=True),
                    models.Q(("seat_0", models.F("seat_2")), _negated=True),
                    models.Q(("seat_0", models.F("seat_3")), _negated=True),
                    models.Q(("seat_1", models.F("seat_2")), _negated=True),
                    models.Q(("seat_1", models.F("seat_3")), _negated=True),
                    models.Q(("seat_2", models.F("seat_3")), _negated=True),
                ),
                name="scoring_game_four_players",
                violation_error_message="The four seats need four different players.",
            ),
        ),
        migrations.AlterConstraint(
            model_name="game",
            name="scoring_game_first_dealer_seat",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("first_dealer__gte", 0), ("first_dealer__lte", 3)),
                    ("first_dealer__isnull", True),
                    _connector="OR",
                ),
                name="scoring_game_first_dealer_seat",
                violation_error_message="The first dealer is a seat from 0 to 3.",
            ),
        ),
        migrations.AlterConstraint(
            model_name="game",
            name="scoring_game_next_dealer_seat",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("next_dealer__gte", 0), ("next_dealer__lte", 3)),
                    ("next_dealer__isnull", True),
                    _connector="OR",
                ),
                name="scoring_game_next_dealer_seat",
                violation_error_message="The next dealer is a seat from 0 to 3.",
            ),
        ),
        migrations.AlterConstraint(
            model_name="game",
            name="scoring_game_forced_seat",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("forced_seat__gte", 0), ("forced_seat__lte", 3)),
                    ("forced_seat__isnull", True),
                    _connector="OR",
                ),
                name="scoring_game_forced_seat",
                violation_error_message="The forced caller is a seat from 0 to 3.",
            ),
        ),
        migrations.AlterConstraint(
            model_name="game",
            name="scoring_game_finished_has_winner",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("status", "finished"), models.Q(("winner", ""), _negated=True)),
                    models.Q(models.Q(("status", "finished"), _negated=True), ("winner", "")),
                    _connector="OR",
                ),
                name="scoring_game_finished_has_winner",
                violation_error_message="A finished game has a winner, and a game not finished has none.",
            ),
        ),
        migrations.AlterConstraint(
            model_name="game",
            name="scoring_game_finished_at",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("status", "in_progress"), ("finished_at__isnull", True)),
                    models.Q(
                        models.Q(("status", "in_progress"), _negated=True),
                        ("finished_at__isnull", False),
                    ),
                    _connector="OR",
                ),
                name="scoring_game_finished_at",
                violation_error_message="A game not being played has the time it ended, and one being played has none.",
            ),
        ),
        migrations.AlterConstraint(
            model_name="hand",
            name="scoring_hand_number",
            constraint=models.CheckConstraint(
                condition=models.Q(("number__gte", 1)),
                name="scoring_hand_number",
                violation_error_message="Hands are numbered from 1.",
            ),
        ),
        migrations.AlterConstraint(
            model_name="hand",
            name="scoring_hand_dealer_seat",
            constraint=models.CheckConstraint(
                condition=models.Q(("dealer__gte", 0), ("dealer__lte", 3)),
                name="scoring_hand_dealer_seat",
                violation_error_message="The dealer is a seat from 0 to 3.",
            ),
        ),
        migrations.AlterConstraint(
            model_name="hand",
            name="scoring_hand_caller_seat",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("caller__gte", 0), ("caller__lte", 3)),
                    ("caller__isnull", True),
                    _connector="OR",
                ),
                name="scoring_hand_caller_seat",
                violation_error_message="The caller is a seat from 0 to 3, or nobody.",
            ),
        ),
        migrations.AlterConstraint(
            model_name="hand",
            name="scoring_hand_entry_kind",
            constraint=models.CheckConstraint(
                condition=models.Q(("entry_kind__in", ["summary", "tricks"])),
                name="scoring_hand_entry_kind",
                violation_error_message="A hand is entered as a score-sheet summary or a full trick record.",
            ),
        ),
        migrations.AlterConstraint(
            model_name="handrevision",
            name="scoring_handrevision_unique_version",
            constraint=models.UniqueConstraint(
                models.F("hand"),
                models.F("version"),
                name="scoring_handrevision_unique_version",
                violation_error_message="This hand already has a revision with this number.",
            ),
        ),
        migrations.AlterConstraint(
            model_name="misplaydispute",
            name="scoring_dispute_trick",
            constraint=models.CheckConstraint(
                condition=models.Q(("trick__gte", 1), ("trick__lte", 9)),
                name="scoring_dispute_trick",
                violation_error_message="A misplay is called on a trick from 1 to 9.",
            ),
        ),
        migrations.AlterConstraint(
            model_name="misplaydispute",
            name="scoring_dispute_seats",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("called_by__gte", 0),
                    ("called_by__lte", 3),
                    ("accused__gte", 0),
                    ("accused__lte", 3),
                ),
                name="scoring_dispute_seats",
                violation_error_message="The seat that calls the misplay and the seat accused are seats from 0 to 3.",
            ),
        ),
        migrations.AlterConstraint(
            model_name="misplaydispute",
            name="scoring_dispute_ruling_after_verdict",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("ruling", "none"),
                    models.Q(("status", "pending"), _negated=True),
                    _connector="OR",
                ),
                name="scoring_dispute_ruling_after_verdict",
                violation_error_message="A dispute is ruled on only once the engine has given its verdict.",
            ),
        ),
        migrations.AlterConstraint(
            model_name="misplaydispute",
            name="scoring_dispute_accused_opponent",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    (
                        "called_by",
                        django.db.models.expressions.CombinedExpression(
                            models.F("accused"), "+", models.Value(1)
                        ),
                    ),
                    (
                        "called_by",
                        django.db.models.expressions.CombinedExpression(
                            models.F("accused"), "+", models.Value(3)
                        ),
                    ),
                    (
                        "called_by",
                        django.db.models.expressions.CombinedExpression(
                            models.F("accused"), "-", models.Value(1)
                        ),
                    ),
                    (
                        "called_by",
                        django.db.models.expressions.CombinedExpression(
                            models.F("accused"), "-", models.Value(3)
                        ),
                    ),
                    _connector="OR",
                ),
                name="scoring_dispute_accused_opponent",
                violation_error_message="A misplay is called on an opponent: the accused sits on the other team.",
            ),
        ),
        migrations.AlterConstraint(
            model_name="player",
            name="scoring_player_unique_name_in_community",
            constraint=models.UniqueConstraint(
                models.F("display_name"),
                models.F("community"),
                name="scoring_player_unique_name_in_community",
                violation_error_message="A player with this name already plays from this community: choose that player, or tell the two apart by name or community.",
            ),
        ),
        migrations.AlterConstraint(
            model_name="team",
            name="scoring_team_two_players",
            constraint=models.CheckConstraint(
                condition=models.Q(("player_one", models.F("player_two")), _negated=True),
                name="scoring_team_two_players",
                violation_error_message="A team is two different players: choose another second player.",
            ),
        ),
        migrations.AlterConstraint(
            model_name="team",
            name="scoring_team_unique_pair",
            constraint=models.UniqueConstraint(
                django.db.models.functions.comparison.Least("player_one", "player_two"),
                django.db.models.functions.comparison.Greatest("player_one", "player_two"),
                name="scoring_team_unique_pair",
                violation_error_message="These two players are already a team: choose that team instead.",
            ),
        ),
    ]
