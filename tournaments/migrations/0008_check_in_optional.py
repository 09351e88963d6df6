# Tournaments made before check-in was optional keep the check-in they were run with; new ones
# check their teams in as they register unless the director wants a check-in.

from django.db import migrations, models

HELP = "Teams check in on the day; otherwise every registered team is checked in and plays."


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0007_table_scorekeepers"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="check_in_required",
            field=models.BooleanField(default=True, help_text=HELP),
        ),
        migrations.AlterField(
            model_name="tournament",
            name="check_in_required",
            field=models.BooleanField(default=False, help_text=HELP),
        ),
    ]
