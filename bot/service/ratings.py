"""Player ratings: openskill (Plackett-Luce) over the teams of a finished game.

Every seat takes part in the match. A computer seat plays as a fixed, default-rated player:
it moves its opponents' ratings like a human newcomer would, but its own new rating is thrown
away. Seats sharing a team index form one team (a partnership of two humans is one team).
`ordinal` is the one number shown on leaderboards and stats (openskill's conservative
estimate mu - Z * sigma); the store orders leaderboards by the same expression.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from openskill.models import PlackettLuce

__all__ = ["DEFAULT", "MODEL", "Z", "ordinal", "rate_game"]

MODEL = PlackettLuce()
DEFAULT: tuple[float, float] = (MODEL.mu, MODEL.sigma)  # a player's first (mu, sigma)
Z = 3  # ordinal = mu - Z * sigma (openskill's default z)


def ordinal(mu: float, sigma: float) -> float:
    """The displayed rating: 0 for a newcomer, higher once the player is surely good."""
    return mu - Z * sigma


def rate_game(seats: Sequence[tuple[str | None, int]], ranks: Sequence[int],
              current: Mapping[str, tuple[float, float]]) -> dict[str, tuple[float, float]]:
    """The new (mu, sigma) of every human of a finished game.

    `seats`: per seat, (user id, or None for a computer seat, team index). `ranks`: per seat,
    1 = best, equal ranks are ties; a team ranks as its best seat. `current`: the known
    ratings; a user missing from it starts at DEFAULT. A user sitting at several seats is
    rated once, from the first. A game with fewer than two teams leaves ratings unchanged.
    """
    if len(seats) != len(ranks):
        raise ValueError(f"{len(seats)} seats but {len(ranks)} ranks")
    teams: dict[int, list[int]] = {}  # team index -> seats, in order of first appearance
    for seat, (_, team) in enumerate(seats):
        teams.setdefault(team, []).append(seat)
    humans: dict[str, tuple[int, int]] = {}  # user -> (position of its team, position in it)
    for t, members in enumerate(teams.values()):
        for i, seat in enumerate(members):
            user = seats[seat][0]
            if user is not None:
                humans.setdefault(user, (t, i))
    if len(teams) < 2:
        return {user: current.get(user, DEFAULT) for user in humans}
    match = [[MODEL.rating(*current.get(user, DEFAULT)) if user is not None else MODEL.rating()
              for user in (seats[s][0] for s in members)] for members in teams.values()]
    team_ranks = [min(ranks[s] for s in members) for members in teams.values()]
    rated = MODEL.rate(match, ranks=team_ranks)
    return {user: (rated[t][i].mu, rated[t][i].sigma) for user, (t, i) in humans.items()}
