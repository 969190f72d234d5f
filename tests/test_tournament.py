"""Tournaments' pairings and standings (bot/tournament): hand-built results, properties."""

from __future__ import annotations

import json
import random
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.tournament import Config, Entrant, Round, Table, Tournament, TournamentError
from bot.tournament.pairing import bracket_order, group_by_score, table_sizes


def make(n: int, **config) -> Tournament:
    t = Tournament(Config(**config))
    for i in range(n):
        t.add(f"p{i + 1}")
    return t


def play(t: Tournament, rnd: Round, scores) -> None:
    """Record every table of `rnd` (the last round) with `scores(table) -> per side`."""
    for i, table in enumerate(rnd.tables):
        t.record(len(t.rounds), i + 1, scores(table))


def random_scores(rng: random.Random):
    return lambda table: [rng.randint(0, 3) for _ in table.sides]


def by_seed(t: Tournament):
    """The better seed (lower number) wins every game."""
    def scores(table: Table) -> list[float]:
        best = min((s for s in table.entrants()), key=lambda e: t.entrants[e].seed)
        return [1.0 if best in side else 0.0 for side in table.sides]
    return scores


def row(t: Tournament, entrant: str):
    return next(s for s in t.standings() if s.entrant == entrant)


# hand-built standings

def test_swiss_buchholz_and_sonneborn_berger_by_hand():
    entrants = [Entrant(x, (x,), i + 1) for i, x in enumerate("ABCD")]
    rounds = [Round([Table([["A"], ["B"]], [10, 5]), Table([["C"], ["D"]], [3, 3])]),
              Round([Table([["A"], ["C"]], [2, 9]), Table([["B"], ["D"]], [4, 1])])]
    t = Tournament(Config("swiss", rounds=2), entrants, rounds)
    # points: A 1+0, B 0+1, C 0.5+1, D 0.5+0
    # Buchholz: A = B 1 + C 1.5; B = A 1 + D 0.5; C = D 0.5 + A 1; D = C 1.5 + B 1
    # SB: A = 1*1 (beat B) + 0; B = 0 + 1*0.5 (beat D); C = 0.5*0.5 + 1*1; D = 0.5*1.5 + 0
    got = {s.entrant: (s.rank, s.points, s.tie_breaks) for s in t.standings()}
    assert got == {
        "C": (1, 1.5, {"buchholz": 1.5, "sonneborn_berger": 1.25}),
        "A": (2, 1.0, {"buchholz": 2.5, "sonneborn_berger": 1.0}),
        "B": (3, 1.0, {"buchholz": 1.5, "sonneborn_berger": 0.5}),
        "D": (4, 0.5, {"buchholz": 2.5, "sonneborn_berger": 0.75}),
    }
    assert t.finished and t.podium() == ["C", "A", "B"]


def test_four_seat_table_points_are_the_sides_beaten():
    table = Table([["a"], ["b"], ["c"], ["d"]], [10, 7, 7, 2])
    assert [table.points(e) for e in "abcd"] == [3.0, 1.5, 1.5, 0.0]
    assert table.seats() == ["a", "b", "c", "d"]
    partners = Table([["a", "c"], ["b", "d"]], [5, 9])
    assert partners.seats() == ["a", "b", "c", "d"]  # partners sit opposite
    assert [partners.points(e) for e in "abcd"] == [0.0, 1.0, 0.0, 1.0]
    assert partners.opponents("a") == [("b", 0.0), ("d", 0.0)]


def test_round_robin_head_to_head_before_game_points():
    t = make(4, format="round-robin")
    a, b, c, d = "p1", "p2", "p3", "p4"
    wanted = {frozenset((a, b)): {a: 11, b: 10}, frozenset((a, c)): {a: 0, c: 10},
              frozenset((a, d)): {a: 11, d: 10}, frozenset((b, c)): {b: 50, c: 0},
              frozenset((b, d)): {b: 50, d: 0}, frozenset((c, d)): {c: 5, d: 5}}
    met = []
    while not t.finished:
        rnd = t.pair()
        assert not rnd.byes
        met += [frozenset(tb.entrants()) for tb in rnd.tables]
        play(t, rnd, lambda tb: [wanted[frozenset(tb.entrants())][s[0]] for s in tb.sides])
    assert sorted(met, key=sorted) == sorted(wanted, key=sorted)  # everyone met once
    # A and B have 2 points; A beat B, so A is ahead despite B's 110 game points to 22
    got = [(s.entrant, s.points, s.tie_breaks) for s in t.standings()]
    assert got == [(a, 2.0, {"head_to_head": 1.0, "game_points": 22.0}),
                   (b, 2.0, {"head_to_head": 0.0, "game_points": 110.0}),
                   (c, 1.5, {"head_to_head": 0.0, "game_points": 15.0}),
                   (d, 0.5, {"head_to_head": 0.0, "game_points": 15.0})]


def test_round_robin_odd_count_gives_each_one_bye():
    t = make(5, format="round-robin")
    byes = []
    while not t.finished:
        rnd = t.pair()
        byes += rnd.byes
        play(t, rnd, by_seed(t))
    assert len(t.rounds) == 5 and sorted(byes) == [f"p{i}" for i in range(1, 6)]
    assert [s.entrant for s in t.standings()] == ["p1", "p2", "p3", "p4", "p5"]


def test_knockout_bracket_with_byes_for_the_top_seeds():
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    t = make(6, format="knockout")
    first = t.pair()
    assert first.byes == ["p1", "p2"]
    assert [tb.entrants() for tb in first.tables] == [["p4", "p5"], ["p3", "p6"]]
    play(t, first, lambda tb: [0, 1])  # the lower seeds win: p5 and p6 go through
    semis = t.pair()
    assert [tb.entrants() for tb in semis.tables] == [["p1", "p5"], ["p2", "p6"]]
    play(t, semis, lambda tb: [3, 3])  # draws: the better seed goes through
    final = t.pair()
    assert [tb.entrants() for tb in final.tables] == [["p1", "p2"]]
    assert not t.finished and t.podium() == []
    play(t, final, lambda tb: [0, 1])
    assert t.finished and t.podium() == ["p2", "p1", "p5"]
    with pytest.raises(TournamentError, match="finished"):
        t.pair()


def test_knockout_dropped_entrant_gives_a_bye():
    t = make(4, format="knockout")
    play(t, t.pair(), by_seed(t))
    t.drop("p2")
    final = t.pair()
    assert final.tables == [] and final.byes == ["p1"]
    assert t.finished and t.podium()[0] == "p1"


def test_knockout_top_seed_dropped_before_the_start_sends_its_opponent_through():
    t = make(4, format="knockout")
    t.drop("p1")
    first = t.pair()
    assert first.byes == ["p4"] and [tb.entrants() for tb in first.tables] == [["p2", "p3"]]
    play(t, first, by_seed(t))
    final = t.pair()
    assert [tb.entrants() for tb in final.tables] == [["p4", "p2"]]


# drops, forfeits, byes, fill, teams

def test_no_show_loses_and_double_no_show_scores_nothing():
    t = make(4, format="swiss", rounds=1)
    rnd = t.pair()
    first, second = rnd.tables
    t.record(1, 1, [9, 0], no_shows=[first.sides[0][0]])
    t.record(1, 2, [0, 0], no_shows=second.entrants())
    points = {s.entrant: s.points for s in t.standings()}
    assert points[first.sides[0][0]] == 0 and points[first.sides[1][0]] == 1
    assert [points[e] for e in second.entrants()] == [0, 0]
    assert row(t, first.sides[0][0]).tie_breaks["buchholz"] == 1


def test_dropped_player_is_not_paired_later():
    for seats in (2, 4):
        t = make(9, format="swiss", rounds=4, seats=seats)
        play(t, t.pair(), by_seed(t))
        t.drop("p3")
        for _ in range(3):
            rnd = t.pair()
            assert "p3" not in [*rnd.byes, *(e for tb in rnd.tables for e in tb.entrants())]
            play(t, rnd, by_seed(t))
        assert row(t, "p3").dropped and row(t, "p3").games == 1


def test_four_seat_swiss_byes_go_to_the_lowest_scores_or_computers_fill():
    t = make(10, format="swiss", rounds=3, seats=4)
    rnd = t.pair()
    assert [len(tb.entrants()) for tb in rnd.tables] == [4, 4]
    assert rnd.byes == ["p9", "p10"]  # nobody has points yet: the lowest seeds
    play(t, rnd, by_seed(t))
    second = t.pair()
    assert not {"p9", "p10"} & set(second.byes) and len(second.byes) == 2
    filled = make(10, format="swiss", rounds=3, seats=4, fill=True)
    rnd = filled.pair()
    assert rnd.byes == [] and [tb.seats().count(None) for tb in rnd.tables] == [0, 1, 1]


def test_two_seat_swiss_fill_plays_the_odd_one_against_a_computer():
    t = make(5, format="swiss", rounds=2, fill=True)
    rnd = t.pair()
    assert not rnd.byes and rnd.tables[-1].sides[1] == [None]
    play(t, rnd, lambda tb: [1, 0])
    alone = rnd.tables[-1].sides[0][0]
    assert row(t, alone).points == 1
    assert all(None not in tb.seats() or alone not in tb.entrants() for tb in t.pair().tables)


def test_fixed_pairs_are_one_entrant():
    t = Tournament(Config("swiss", rounds=2, seats=4, teams="fixed"))
    for i in range(4):
        t.add(f"team{i}", (f"u{2 * i}", f"u{2 * i + 1}"))
    with pytest.raises(TournamentError, match="bad-members"):
        t.add("solo", ("u9",))
    rnd = t.pair()
    assert all(len(tb.sides) == 2 and len(tb.sides[0]) == 1 for tb in rnd.tables)
    first = rnd.tables[0]
    a, b = (t.entrants[side[0]].members for side in first.sides)
    assert t.seats(first) == [a[0], b[0], a[1], b[1]]  # partners sit opposite
    assert t.seats(Table([["team0"], [None]])) == ["u0", None, "u1", None]


def test_random_partners_are_drawn_each_round_from_the_seed():
    def partners(seed: int) -> list[set[frozenset[str]]]:
        t = make(8, format="swiss", rounds=3, seats=4, teams="random", seed=seed)
        out = []
        for _ in range(3):
            rnd = t.pair()
            assert all(len(tb.sides) == 2 and len(tb.sides[0]) == 2 for tb in rnd.tables)
            out.append({frozenset(s) for tb in rnd.tables for s in tb.sides})
            play(t, rnd, lambda tb: [1, 0])
        return out

    drawn = partners(1)
    assert drawn == partners(1) and drawn != partners(2)
    assert len(set().union(*drawn)) > 4  # not the same pairs every round


def test_random_partners_change_while_new_partners_can_be_found():
    """Four players at one table, three rounds: the three ways to split them into two
    sides, once each (never the same partner twice), whatever the seed."""
    for seed in range(20):
        t = make(4, format="swiss", rounds=3, seats=4, teams="random", seed=seed)
        pairs = []
        for _ in range(3):
            rnd = t.pair()
            pairs += [frozenset(side) for tb in rnd.tables for side in tb.sides]
            play(t, rnd, lambda tb: [1, 0])
        assert len(set(pairs)) == 6, (seed, pairs)


def test_arena_repairs_the_free_players_and_avoids_an_immediate_rematch():
    t = make(6, format="arena", ends_at=100.0)
    wave = t.pair(now=0)
    assert len(wave.tables) == 3
    t.record(1, 1, [1, 0])
    again = t.pair(now=10)  # only table 1's players are free; they just met
    assert again.tables == []
    t.record(1, 2, [1, 0])
    third = t.pair(now=20)
    assert len(third.tables) == 2
    for tb in third.tables:
        assert set(tb.entrants()) not in [set(x.entrants()) for x in wave.tables]
    with pytest.raises(TournamentError, match="arena-closed"):
        t.pair(now=100)
    t.close()
    assert not t.finished
    t.record(1, 3, [0, 0])
    for i in range(len(third.tables)):
        t.record(len(t.rounds), i + 1, [2, 1])
    assert t.finished and len(t.podium()) == 3


def test_arena_leaves_out_the_odd_one_who_would_force_a_rematch():
    t = make(5, format="arena", ends_at=100.0)
    wave = t.pair(now=0)
    assert [tb.entrants() for tb in wave.tables] == [["p1", "p2"], ["p3", "p4"]]
    t.record(1, 1, [1, 0])  # p1, p2 and p5 are free; p1 and p2 just met
    again = t.pair(now=10)
    assert [set(tb.entrants()) for tb in again.tables] == [{"p1", "p5"}]


def test_arena_allows_an_immediate_rematch_when_asked():
    t = make(4, format="arena", ends_at=100.0)
    t.pair(now=0)
    t.record(1, 1, [1, 0])
    assert t.pair(now=10).tables == []  # p3 and p4 may come free
    rematch = t.pair(now=40, rematch=True)
    assert [set(tb.entrants()) for tb in rematch.tables] == [{"p1", "p2"}]


def test_bad_input_is_a_tournament_error():
    with pytest.raises(TournamentError, match="bad-format"):
        Config("ladder")
    with pytest.raises(TournamentError, match="bad-rounds"):
        Config("swiss")
    with pytest.raises(TournamentError, match="two-sides-only"):
        Config("knockout", seats=4)
    with pytest.raises(TournamentError, match="random-partners-format"):  # the first reason
        Config("knockout", seats=4, teams="random")
    t = make(4, format="swiss", rounds=2)
    with pytest.raises(TournamentError, match="already-registered"):
        t.add("p1")
    rnd = t.pair()
    with pytest.raises(TournamentError, match="started"):
        t.add("p9")
    with pytest.raises(TournamentError, match="round-not-finished"):
        t.pair()
    for args in [(2, 1, [1, 0]), (1, 9, [1, 0]), (1, 1, [1]), (1, 1, ["x", 0]),
                 (1, 1, [float("nan"), 0])]:
        with pytest.raises(TournamentError):
            t.record(*args)
    with pytest.raises(TournamentError, match="not-at-table"):
        t.record(1, 1, [1, 0], no_shows=[rnd.tables[1].entrants()[0]])
    t.record(1, 1, [1, 0])
    with pytest.raises(TournamentError, match="already-recorded"):
        t.record(1, 1, [0, 1])
    with pytest.raises(TournamentError, match="unknown-entrant"):
        t.drop("nobody")
    small = make(3, format="swiss", rounds=2, seats=4)
    with pytest.raises(TournamentError, match="too-few-entrants"):
        small.pair()  # not a table's worth, and no computers allowed
    assert len(make(3, format="swiss", rounds=2, seats=4, fill=True).pair().tables) == 1
    with pytest.raises(TournamentError, match="unknown-entrant"):
        make(4, format="arena").pair(waiting=["p1", "x"])


def test_state_survives_json_and_pairs_the_same_next_round():
    for config in ({"format": "swiss", "rounds": 4}, {"format": "swiss", "rounds": 3, "seats": 4},
                   {"format": "knockout"}, {"format": "round-robin"}):
        t = make(9, **config)
        rng = random.Random(3)
        play(t, t.pair(), random_scores(rng))
        t.drop("p2")
        play(t, t.pair(), random_scores(rng))
        copy = Tournament.from_dict(json.loads(json.dumps(t.to_dict())))
        assert copy.to_dict() == t.to_dict()
        assert copy.pair().to_dict() == t.pair().to_dict()
        assert copy.standings() == t.standings()


def test_score_groups_avoid_repeats_when_they_can():
    order = [f"p{i}" for i in range(8)]
    met_pairs = {frozenset(("p0", "p1")), frozenset(("p0", "p2"))}
    groups = group_by_score(order, [4, 4], lambda a, b: frozenset((a, b)) in met_pairs)
    assert groups[0] == ["p0", "p3", "p4", "p5"]
    assert table_sizes(10, 4, fill=False) == ([4, 4], 2)
    assert table_sizes(10, 4, fill=True) == ([4, 3, 3], 0)


# properties

def check_round(t: Tournament, rnd: Round) -> None:
    seated = [*rnd.byes, *(e for tb in rnd.tables for e in tb.entrants())]
    assert len(seated) == len(set(seated)), "someone twice in a round"
    assert not {e for e in seated if t.entrants[e].dropped is not None}


def avoidable(active: list[str], met: dict[str, set[str]], byes: Counter) -> bool:
    """Could a round of two a table pair `active` with no repeat and no second bye?"""
    def match(left: list[str]) -> bool:
        return not left or any(b not in met[left[0]] and match([x for x in left[1:] if x != b])
                               for b in left[1:])
    if len(active) % 2 == 0:
        return match(active)
    return any(match([x for x in active if x != b]) for b in active if not byes[b])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fmt=st.sampled_from(["swiss", "round-robin", "knockout", "swiss4", "arena"]),
       n=st.integers(2, 13), seed=st.integers(0, 10**6), drop=st.booleans())
def test_property_every_format(fmt, n, seed, drop):
    rng = random.Random(seed)
    seats = 4 if fmt == "swiss4" else 2
    if seats == 4:  # 16 to 24: three rounds without a repeat exist (12 could not have two)
        n = 16 + n % 9
    rounds = min(n - 1, 5) if seats == 2 else 3
    fmt = "swiss" if fmt == "swiss4" else fmt
    t = make(n, format=fmt, seats=seats, rounds=rounds if fmt == "swiss" else 0)
    played = 0
    while not t.finished and played < 8:
        if fmt == "arena" and played == 4:
            t.close()
            break
        met = {e: {o for r in t.rounds for tb in r.tables if e in tb.entrants()
                   for o in tb.entrants()} for e in t.entrants}
        byes = Counter(e for r in t.rounds for e in r.byes)
        rnd = t.pair()
        check_round(t, rnd)
        if fmt == "swiss" and seats == 2:
            repeat = any(tb.entrants()[1] in met[tb.entrants()[0]] for tb in rnd.tables)
            if repeat or any(byes[e] for e in rnd.byes):
                assert not avoidable(t.active(), met, byes), "a repeat that could be avoided"
        play(t, rnd, random_scores(rng))
        played += 1
        if drop and played == 1 and n > 4:
            t.drop(f"p{rng.randint(1, n)}")
    if fmt == "swiss" and seats == 4 and not drop:
        games = [frozenset(p) for r in t.rounds for tb in r.tables
                 for p in combinations(tb.entrants(), 2)]
        assert len(games) == len(set(games))
        byes = Counter(e for r in t.rounds for e in r.byes)
        assert max(byes.values(), default=0) - min(byes.get(e, 0) for e in t.entrants) <= 1
    ranks = [s.rank for s in t.standings()]
    assert ranks == list(range(1, n + 1))


def test_sixty_four_player_swiss_of_six_rounds_at_four_a_table():
    """The issue's figure: 64 players, 6 rounds, 4 a table, random results."""
    rng = random.Random(64)
    t = make(64, format="swiss", rounds=6, seats=4)
    while not t.finished:
        rnd = t.pair()
        check_round(t, rnd)
        assert len(rnd.tables) == 16 and not rnd.byes
        play(t, rnd, random_scores(rng))
    rows = t.standings()
    # every game's six pairwise results make six points: 16 tables x 6 rounds x 6
    assert sum(s.points for s in rows) == 16 * 6 * 6
    assert all(s.games == 6 for s in rows)
    games = [frozenset(p) for r in t.rounds for tb in r.tables
             for p in combinations(tb.entrants(), 2)]
    assert len(games) == len(set(games)) == 64 * 18 // 2  # nobody met anyone twice
    points = {s.entrant: s.points for s in rows}
    for s in rows:
        opponents = [o for r in t.rounds for tb in r.tables if s.entrant in tb.entrants()
                     for o, _ in tb.opponents(s.entrant)]
        assert s.tie_breaks["buchholz"] == sum(points[o] for o in opponents)
    keys = [(-s.points, -s.tie_breaks["buchholz"], -s.tie_breaks["sonneborn_berger"])
            for s in rows]
    assert keys == sorted(keys)
    assert t.podium() == [s.entrant for s in rows[:3]]


def test_a_registration_taken_back_reseeds_the_others_and_only_before_the_first_round() -> None:
    t = Tournament(Config("swiss", rounds=2))
    for name in "abcd":
        t.add(name)
    t.remove("b")
    assert {e.id: e.seed for e in t.entrants.values()} == {"a": 1, "c": 2, "d": 3}
    with pytest.raises(TournamentError) as unknown:
        t.remove("b")
    assert unknown.value.code == "unknown-entrant"
    t.pair()
    with pytest.raises(TournamentError) as started:
        t.remove("c")
    assert started.value.code == "started" and "c" in t.entrants


def test_dutch_pairings_are_pinned_for_seeded_tournaments():
    """The 2-a-table Swiss's pairings (FIDE Dutch, py4swiss) of seeded tournaments with
    random scores, forfeits, drops, byes and computer byes, pinned by their digest: the
    input built for py4swiss (bot/tournament/pairing.py) may be made faster, never
    different.  (A py4swiss release that pairs otherwise shows here too: check it, then
    pin anew.)"""
    import hashlib

    def pairings(players: int, seed: int, fill: bool, drop: bool) -> list:
        rng = random.Random(seed)
        t = make(players, format="swiss", rounds=5, fill=fill)
        out = []
        while not t.finished:
            if drop and len(t.rounds) == 2:
                t.drop(f"p{rng.randint(1, players)}")
            rnd = t.pair()
            out.append([[tb.sides for tb in rnd.tables], rnd.byes])
            for i, tb in enumerate(rnd.tables):
                absent = [e for e in tb.entrants() if rng.random() < 0.05]
                t.record(len(t.rounds), i + 1, [rng.randint(0, 3) for _ in tb.sides], absent)
        return out

    runs = [pairings(*case) for case in ((15, 1, True, True), (24, 2, False, True),
                                         (33, 3, False, False), (9, 4, True, False))]
    assert hashlib.sha256(json.dumps(runs).encode()).hexdigest()[:16] == "3424fbbcf93507e2"
