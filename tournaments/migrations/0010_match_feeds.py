# Where each bracket match sends its winner and loser, written when a stage starts, so that a
# result moves its entries on by reading only the matches it feeds. Matches of stages started
# before keep none and are placed by replaying their whole bracket, as they were.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0009_swiss_pairing"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="feeds",
            field=models.JSONField(
                blank=True,
                editable=False,
                help_text=(
                    "Bracket matches this one's winner and loser go to, as written when the "
                    "stage started: a result moves its entries on without reading the whole "
                    "bracket. Empty: not written (the whole bracket is placed again)."
                ),
                null=True,
            ),
        ),
    ]
