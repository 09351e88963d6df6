# Swiss stages made before the Dutch system keep the pairing they started with; new ones pair
# by the Dutch system unless the director chooses the neighbours' pairing.

from django.db import migrations, models

CHOICES = [
    ("dutch", "Dutch system: top half of each score group against its bottom half"),
    ("neighbours", "Neighbours in the standings: 1 v 2, 3 v 4 in each score group"),
]


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0008_check_in_optional"),
    ]

    operations = [
        migrations.AddField(
            model_name="stage",
            name="swiss_pairing",
            field=models.CharField(
                choices=CHOICES,
                default="neighbours",
                help_text="How a Swiss stage pairs each round.",
                max_length=12,
            ),
        ),
        migrations.AlterField(
            model_name="stage",
            name="swiss_pairing",
            field=models.CharField(
                choices=CHOICES,
                default="dutch",
                help_text="How a Swiss stage pairs each round.",
                max_length=12,
            ),
        ),
    ]
