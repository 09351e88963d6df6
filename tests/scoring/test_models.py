"""What the models say of themselves, beyond their fields."""

from scoring.models import MisplayDispute


def test_a_disputes_reason_names_the_players_of_the_seats_it_speaks_of() -> None:
    dispute = MisplayDispute(reason="seat 3 played the 6 of clubs; seat 1 had led; seat 10 no")
    named = dispute.reason_naming(["Ann", "Bob", "Cy", "Di"])
    assert named == "Di played the 6 of clubs; Bob had led; seat 10 no"
