"""Plain words for every constraint a form can hit, instead of its name."""

from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0006_revision_time_given"),
        ("tournaments", "0004_directors_of_their_games_only"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AlterConstraint(
            model_name="entry",
            name="entry_team_once",
            constraint=models.UniqueConstraint(
                fields=("tournament", "team"),
                name="entry_team_once",
                violation_error_message="This team is already registered in this tournament.",
            ),
        ),
        migrations.AlterConstraint(
            model_name="entry",
            name="entry_seed_unique",
            constraint=models.UniqueConstraint(
                condition=models.Q(("seed__isnull", False)),
                fields=("tournament", "seed"),
                name="entry_seed_unique",
                violation_error_message="Another entry of this tournament already has this seed: choose a free seed, or leave it empty.",
            ),
        ),
        migrations.AlterConstraint(
            model_name="entry",
            name="entry_seed_positive",
            constraint=models.CheckConstraint(
                condition=models.Q(("seed__gte", 1)),
                name="entry_seed_positive",
                violation_error_message="Seeds start at 1.",
            ),
        ),
        migrations.AlterConstraint(
            model_name="match",
            name="match_key_unique",
            constraint=models.UniqueConstraint(
                condition=models.Q(("key", ""), _negated=True),
                fields=("stage", "key"),
                name="match_key_unique",
                violation_error_message="This stage already has a match with this bracket key.",
            ),
        ),
        migrations.AlterConstraint(
            model_name="match",
            name="match_number_unique",
            constraint=models.UniqueConstraint(
                fields=("round", "number"),
                name="match_number_unique",
                violation_error_message="This round already has a match with this board number.",
            ),
        ),
        migrations.AlterConstraint(
            model_name="match",
            name="match_two_entries",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("home__isnull", True),
                    models.Q(("home", models.F("away")), _negated=True),
                    _connector="OR",
                ),
                name="match_two_entries",
                violation_error_message="A match is played between two different entries.",
            ),
        ),
        migrations.AlterConstraint(
            model_name="match",
            name="match_winner_plays",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("winner__isnull", True),
                    ("winner", models.F("home")),
                    ("winner", models.F("away")),
                    _connector="OR",
                ),
                name="match_winner_plays",
                violation_error_message="The winner of a match is one of the two entries playing it.",
            ),
        ),
        migrations.AlterConstraint(
            model_name="matchgame",
            name="match_game_number_unique",
            constraint=models.UniqueConstraint(
                fields=("match", "number"),
                name="match_game_number_unique",
                violation_error_message="This match already has a game with this number.",
            ),
        ),
        migrations.AlterConstraint(
            model_name="pool",
            name="pool_number_unique",
            constraint=models.UniqueConstraint(
                fields=("stage", "number"),
                name="pool_number_unique",
                violation_error_message="This stage already has a pool with this number.",
            ),
        ),
        migrations.AlterConstraint(
            model_name="ratingchange",
            name="rating_change_once",
            constraint=models.UniqueConstraint(
                fields=("player", "match"),
                name="rating_change_once",
                violation_error_message="This match already moved this player's rating.",
            ),
        ),
        migrations.AlterConstraint(
            model_name="round",
            name="round_unique",
            constraint=models.UniqueConstraint(
                fields=("stage", "side", "number"),
                name="round_unique",
                violation_error_message="This stage already has a round with this number on this side of the bracket.",
            ),
        ),
        migrations.AlterConstraint(
            model_name="stage",
            name="stage_order_unique",
            constraint=models.UniqueConstraint(
                fields=("tournament", "order"),
                name="stage_order_unique",
                violation_error_message="This tournament already has a stage in this place in the order: choose another number.",
            ),
        ),
        migrations.AlterConstraint(
            model_name="stage",
            name="stage_pool_count",
            constraint=models.CheckConstraint(
                condition=models.Q(("pool_count__gte", 1)),
                name="stage_pool_count",
                violation_error_message="A stage is played in at least one pool.",
            ),
        ),
        migrations.AlterConstraint(
            model_name="stage",
            name="stage_legs",
            constraint=models.CheckConstraint(
                condition=models.Q(("legs__in", [1, 2])),
                name="stage_legs",
                violation_error_message="A round robin is played once (1) or twice (2).",
            ),
        ),
        migrations.AlterConstraint(
            model_name="stage",
            name="stage_match_games",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("match_games__isnull", True), ("match_games__gte", 1), _connector="OR"
                ),
                name="stage_match_games",
                violation_error_message="A match is at least one game; leave it empty for the tournament's number.",
            ),
        ),
        migrations.AlterConstraint(
            model_name="stageentry",
            name="stage_entry_once",
            constraint=models.UniqueConstraint(
                fields=("stage", "entry"),
                name="stage_entry_once",
                violation_error_message="This entry already plays this stage.",
            ),
        ),
        migrations.AlterConstraint(
            model_name="stageentry",
            name="stage_entry_seed_unique",
            constraint=models.UniqueConstraint(
                fields=("stage", "seed"),
                name="stage_entry_seed_unique",
                violation_error_message="Another entry of this stage already has this seed.",
            ),
        ),
        migrations.AlterConstraint(
            model_name="standing",
            name="standing_entry_once",
            constraint=models.UniqueConstraint(
                fields=("stage", "entry"),
                name="standing_entry_once",
                violation_error_message="This entry already has a row in this stage's standings.",
            ),
        ),
        migrations.AlterConstraint(
            model_name="tournament",
            name="tournament_ends_after_start",
            constraint=models.CheckConstraint(
                condition=models.Q(("ends_on__gte", models.F("starts_on"))),
                name="tournament_ends_after_start",
                violation_error_message="The last day cannot come before the first day.",
            ),
        ),
        migrations.AlterConstraint(
            model_name="tournament",
            name="tournament_match_games",
            constraint=models.CheckConstraint(
                condition=models.Q(("match_games__gte", 1)),
                name="tournament_match_games",
                violation_error_message="A match is at least one game.",
            ),
        ),
        migrations.AlterConstraint(
            model_name="tournament",
            name="tournament_best_of_odd",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("match_format", "best_of"), _negated=True),
                    ("match_games__in", [1, 3, 5, 7, 9]),
                    _connector="OR",
                ),
                name="tournament_best_of_odd",
                violation_error_message="Best of N games needs an odd N (1, 3, 5, 7 or 9): an even number can end level.",
            ),
        ),
    ]
