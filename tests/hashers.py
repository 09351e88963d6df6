"""A password hasher for the tests: PBKDF2 as the service stores passwords, with one round.

A hash it makes reads like any other ``pbkdf2_sha256`` hash (the number of rounds is part of
the hash), so a server the tests start in another process, with the service's own settings,
checks those passwords too. Hashing at the service's strength costs about half a second a user,
which the suite would pay for every user its fixtures make.
"""

from django.contrib.auth.hashers import PBKDF2PasswordHasher


class OneRoundPBKDF2PasswordHasher(PBKDF2PasswordHasher):
    iterations = 1
