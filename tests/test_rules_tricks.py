"""Rules of the trick games (forty-two, texas-42) on hand-built deals of all 28 tiles."""

from __future__ import annotations

import random

import pytest

from core import IllegalMove, OptionError, replay, variants
from core.tiles import Tile
from core.tricks.calls import MARK, NELLO, SEVENS
from core.tricks.contract import outcome
from core.tricks.suits import TRUMP, suits

# The seed's example: trump 0, 4-1 led, 4-2 follows, 5-4 is discarded, 0-3 trumps.
SEED_DEAL = {"hands": [
    ["4-1", "4-4", "4-3", "1-0", "0-0", "2-0", "4-0"],
    ["4-2", "6-6", "6-5", "6-3", "6-2", "6-1", "5-0"],
    ["5-4", "5-5", "5-3", "5-2", "5-1", "3-3", "3-2"],
    ["3-0", "6-4", "6-0", "3-1", "2-2", "2-1", "1-1"],
]}
# Trump 0 with 6-6 led: seat 1 must trump, seats 2 and 3 must overtrump.
TRUMP_DEAL = {"hands": [
    ["6-6", "6-5", "6-4", "6-3", "6-2", "6-1", "1-1"],
    ["2-0", "4-0", "5-5", "5-4", "5-3", "5-2", "5-1"],
    ["1-0", "5-0", "4-4", "4-3", "4-2", "4-1", "3-3"],
    ["3-0", "6-0", "3-2", "3-1", "2-2", "2-1", "0-0"],
]}


def legal(game) -> set[str]:
    return {m.text for m in game.legal_moves()}


def tiles(*names: str) -> set[str]:
    return {str(Tile.parse(n)) for n in names}


def forty_two(deal=SEED_DEAL, bids=("bid 30", "pass", "pass", "pass"), trumps=0, **options):
    game = variants.get("forty-two").new(seed=1, deal=deal, **options)
    for text in bids:
        game.play(text)
    game.play(f"trumps {trumps}")
    return game


def test_the_holder_of_0_1_speaks_first_and_the_bidder_leads() -> None:
    game = variants.get("forty-two").new(seed=1, deal=TRUMP_DEAL)
    assert game.to_move == 2  # 1-0 is in seat 2's hand
    for text in ("pass", "pass", "bid 31", "pass"):
        game.play(text)
    v = game.view(None)
    assert v["phase"] == "trumps" and v["contract"]["seat"] == 0 and game.to_move == 0
    assert [b["bid"] for b in v["bids"]] == ["pass", "pass", "31", "pass"]
    game.play("trumps 0")
    assert game.to_move == 0 and game.view(None)["trumps"] == 0


def test_bids_go_up_from_25_to_42() -> None:
    game = variants.get("forty-two").new(seed=1, deal=SEED_DEAL)
    assert legal(game) == {"pass"} | {f"bid {n}" for n in range(25, 43)}
    game.play("bid 33")
    assert legal(game) == {"pass"} | {f"bid {n}" for n in range(34, 43)}
    with pytest.raises(IllegalMove, match="34 to 42"):
        game.play("bid 33")


def test_the_seed_worked_example_move_by_move() -> None:
    game = forty_two()
    game.play("4-1")
    assert legal(game) == {"4-2"}  # must follow suit 4
    game.play("4-2")
    # 5-4 is a 5, not a 4; no trump either: any tile may be discarded
    assert legal(game) == set(SEED_DEAL["hands"][2])
    game.play("5-4")
    # the partner (seat 1) is master: seat 3 may discard or trump
    assert legal(game) == tiles(*SEED_DEAL["hands"][3])
    game.play("0-3")
    v = game.view(None)
    assert v["tricks"][0]["winner"] == 3 and v["trick"] == []
    assert v["team_points"] == [0, 1 + 5] and v["team_tricks"] == [0, 1]
    assert game.to_move == 3  # the winner leads the next trick


def test_without_partner_master_a_void_seat_must_trump() -> None:
    game = forty_two(partner_master=False)
    for text in ("4-1", "4-2", "5-4"):
        game.play(text)
    assert legal(game) == tiles("3-0", "6-0")
    with pytest.raises(IllegalMove, match="trump"):
        game.play("2-2")


def test_must_trump_then_overtrump() -> None:
    game = forty_two(TRUMP_DEAL, ("pass", "pass", "bid 30", "pass"), doubles="high")
    game.play("6-6")
    assert legal(game) == tiles("2-0", "4-0")  # void in 6: must trump
    game.play("2-0")
    assert legal(game) == tiles("5-0")  # must beat 2-0: 1-0 may not be played
    with pytest.raises(IllegalMove, match="higher trump"):
        game.play("1-0")
    game.play("5-0")
    assert legal(game) == tiles("6-0", "0-0")  # doubles=high: the double is the highest trump
    game.play("0-0")
    assert game.view(None)["tricks"][0]["winner"] == 3


def test_the_book_ranks_a_double_by_its_number_in_trumps() -> None:
    # "la valeur de chaque domino est donnée par le nombre de points indiqué sur l'autre
    # demi-face": with trumps 0, 0-0 is worth 0, the lowest trump
    game = forty_two(TRUMP_DEAL, ("pass", "pass", "bid 30", "pass"))
    assert game.view(None)["doubles"] == "book"
    for text in ("6-6", "2-0", "5-0"):
        game.play(text)
    assert legal(game) == tiles("6-0")  # 0-0 does not beat 5-0: only 6-0 overtrumps
    game.play("6-0")
    assert game.view(None)["tricks"][0]["winner"] == 3
    s = suits(3, False, "book")
    order = sorted(_names(s.trumps), key=lambda n: -s.rank[TRUMP][Tile.parse(n).id])
    assert order == ["6-3", "5-3", "4-3", "3-3", "3-2", "3-1", "3-0"]
    assert suits(0, False, "book").rank[TRUMP][Tile(0, 0).id] < min(
        suits(0, False, "book").rank[TRUMP][Tile(a, 0).id] for a in range(1, 7))
    # in a plain suit the double is still the highest: its other half is the suit's number
    assert max(_names(s.members[5]), key=lambda n: s.rank[5][Tile.parse(n).id]) == "5-5"
    assert game.hand_order(1 << Tile(0, 0).id | 1 << Tile(1, 0).id) == [
        Tile(1, 0).id, Tile(0, 0).id]


def test_trumps_led_must_be_followed_and_beaten_even_over_a_partner() -> None:
    game = forty_two()
    game.play("4-0")  # a trump, rank 4
    assert legal(game) == tiles("5-0")
    game.play("5-0")
    game.play("5-5")  # no trump: a discard
    assert legal(game) == tiles("6-0")  # 3-0 does not beat 5-0; the partner does not matter


def test_a_follow_refusal_says_what_to_play_and_changes_nothing() -> None:
    game = forty_two()
    game.play("4-1")
    before = game.view(None)
    with pytest.raises(IllegalMove, match="follow suit"):
        game.play("6-6")
    with pytest.raises(IllegalMove, match="not in your hand"):
        game.play("3-0")
    assert game.view(None) == before


def test_trump_suits_as_the_seed_spells_them() -> None:
    def members(trump: int, suit: int) -> set[str]:
        s = suits(trump, False)
        return {str(Tile.parse(f"{t}")) for t in _names(s.members[suit])}

    assert members(2, 3) == tiles("3-3", "3-1", "3-0")
    assert members(2, 1) == tiles("1-1", "1-0")
    assert len(members(2, TRUMP)) == 7
    assert members(6, 5) == tiles("5-5", "5-4", "5-3", "5-2", "5-1", "5-0")  # complete
    assert members(6, 0) == tiles("0-0")
    assert members(0, 0) == set()  # suit 0 is gone
    for suit in range(1, 7):
        assert not any("-0" in t for t in members(0, suit)) and len(members(0, suit)) == suit
    assert suits(0, False).rank[TRUMP][Tile(0, 0).id] > suits(0, False).rank[TRUMP][Tile(6, 0).id]


def _names(mask: int) -> list[str]:
    from core.tiles import tile_set
    return tile_set(6).mask_names(mask)


def test_contract_outcomes_of_the_seed() -> None:
    exact = outcome(30, 0, 5, [30, 12], [4, 3], 2, marks=False)
    assert exact.made and exact.points == (30, 12)
    more = outcome(30, 1, 5, [8, 34], [2, 5], 2, marks=False)
    assert more.made and more.points == (8, 30 + 2 * 4)
    failed = outcome(30, 0, 5, [28, 14], [5, 2], 2, marks=False)
    assert not failed.made and failed.points == (0, 30 + 14)


def test_a_round_scores_its_contract_into_the_totals() -> None:
    game = forty_two(bids=("bid 40", "pass", "pass", "pass"))
    while game.round_no == 1:
        game.play(game.legal_moves()[0])
    last = game.round_results[0]
    took = last["taken"]
    assert sum(took) == 42 and last["contract"]["bid"] == 40
    expected = outcome(40, 0, 0, took, last["tricks_won"], 0, marks=False).points
    assert last["points"] == list(expected) and game.totals == list(expected)
    assert game.view(None)["last_round"]["made"] == (took[0] >= 40)


def test_all_four_pass_deals_again_in_the_same_round() -> None:
    game = variants.get("forty-two").new(seed=3, deal=SEED_DEAL)
    for _ in range(4):
        game.play("pass")
    v = game.view(None)
    assert v["round"] == 1 and v["redeals"] == 1 and v["bids"] == [] and v["phase"] == "bidding"
    hands = [set(game.view(s)["hand"]) for s in range(4)]
    assert set().union(*hands) == {str(Tile(a, b)) for a in range(7) for b in range(a + 1)}
    assert game.to_move == next(s for s in range(4) if "1-0" in hands[s])
    assert replay(game.record()).view(None) == v


def test_the_first_team_to_200_wins() -> None:
    game = variants.get("forty-two").new(seed=5)
    assert game.view(None)["target"] == 200
    pick = random.Random(5)
    while not game.over:
        game.play(pick.choice(game.legal_moves()))
    result = game.result
    best = max(result["team_scores"])
    assert best >= 200 and result["winners"] == list(result["teams"][
        result["team_scores"].index(best)])
    before = [t - p for t, p in zip(game.round_results[-1]["totals"],
                                    game.round_results[-1]["points"], strict=True)]
    assert max(before) < 200


def texas(deal=SEED_DEAL, **options):
    return variants.get("texas-42").new(seed=1, deal=deal, **options)


def test_texas_bids_then_marks_one_above_the_other() -> None:
    game = texas()
    assert game.to_move == 0  # left of the first dealer (seat 3)
    assert legal(game) == ({"pass", "bid 1 mark", "bid 2 marks"}
                           | {f"bid {n}" for n in range(30, 42)})
    game.play("bid 1 mark")
    assert legal(game) == {"pass", "bid 2 marks"}
    game.play("bid 84")  # said in points, read as marks
    assert legal(game) == {"pass", "bid 3 marks"}
    with pytest.raises(IllegalMove):
        game.play("bid 2 marks")
    assert game.parse_move("bid 3 marks").end == 3 * MARK


def test_texas_forced_bid_after_three_passes() -> None:
    game = texas()
    for _ in range(3):
        game.play("pass")
    assert game.to_move == 3 and "pass" not in legal(game) and "bid 30" in legal(game)
    assert game.view(None)["must_bid"] and not texas().view(None)["must_bid"]
    with pytest.raises(IllegalMove, match="must bid"):
        game.play("pass")
    game.play("bid 30")
    assert game.view(None)["phase"] == "trumps" and game.to_move == 3


def test_texas_follows_the_number_led_and_never_forces_a_trump() -> None:
    game = texas()
    for text in ("bid 30", "pass", "pass", "pass", "trumps 6", "4-1"):
        game.play(text)
    assert legal(game) == {"4-2"}
    game.play("4-2")
    assert legal(game) == {"5-4"}  # a 4: follows in Texas (not in the seed's game)
    game.play("5-4")
    assert legal(game) == tiles(*SEED_DEAL["hands"][3])  # void: anything, no trump forced


def test_texas_marks_outcomes_and_the_dealer_turns() -> None:
    assert outcome(30, 0, 5, [31, 11], [4, 3], 1, marks=True).points == (1, 0)
    assert outcome(2 * MARK, 1, 5, [1, 41], [1, 6], 3, marks=True).points == (2, 0)
    assert outcome(MARK, 0, NELLO, [0, 42], [0, 7], 0, marks=True).points == (1, 0)
    assert outcome(MARK, 0, SEVENS, [41, 1], [6, 1], 3, marks=True).points == (0, 1)
    game = texas()
    for text in ("bid 30", "pass", "pass", "pass", "trumps 6"):
        game.play(text)
    while game.round_no == 1:
        game.play(game.legal_moves()[0])
    assert sum(game.totals) == 1 and game.view(None)["dealer"] == 0 and game.to_move == 1


def test_texas_nello_leaves_the_partner_out() -> None:
    game = texas(nello=True)
    game.play("bid 1 mark")
    for _ in range(3):
        game.play("pass")
    assert "trumps nello" in legal(game)
    game.play("trumps nello")
    seen = set()
    winners: list[int] = []
    while game.round_no == 1:
        seen.add(game.to_move)
        winners = [t["winner"] for t in game.view(None)["tricks"]]
        assert all(len(t["tiles"]) == 3 for t in game.view(None)["tricks"])
        game.play(game.legal_moves()[0])
    assert 2 not in seen and len(winners) == 6
    assert game.round_results[0]["made"] == (0 not in winners and game.totals[0] == 1)


def test_bad_deals_and_options_are_refused() -> None:
    v = variants.get("forty-two")
    with pytest.raises(OptionError):
        v.new(deal={"hands": [["6-6"]] * 4})
    bad = {"hands": [h[:] for h in SEED_DEAL["hands"]]}
    bad["hands"][0][0] = "4-2"
    with pytest.raises(OptionError, match="twice"):
        v.new(deal=bad)
    with pytest.raises(OptionError):
        v.new(players=3)
    with pytest.raises(OptionError):
        v.new(target="many")


@pytest.mark.parametrize("text", ["bid", "trumps 7", "7-7", "x" * 500, "bid 2 mark s"])
def test_bad_move_text_is_refused(text: str) -> None:
    game = forty_two()
    with pytest.raises(IllegalMove):
        game.play(text)


def test_four_computer_seats_finish_a_match() -> None:
    from core.ai import make_player

    for slug in ("forty-two", "texas-42"):
        game = variants.get(slug).new(seed=11)
        bots = [make_player("greedy", s) for s in range(4)]
        while not game.over:
            game.play(bots[game.to_move].choose(game))
        assert game.result is not None and replay(game.record()).result == game.result


def test_the_greedy_player_bids_a_strong_hand_and_names_its_suit() -> None:
    from core.ai.tricks import TrickGreedyPlayer

    game = variants.get("forty-two").new(seed=1, deal=TRUMP_DEAL)
    game.play("pass")
    game.play("pass")  # seat 0 holds six 6s and 1-1
    bot = TrickGreedyPlayer(seed=4)
    bid = bot.choose(game)
    assert bid.text.startswith("bid ")
    game.play(bid)
    game.play("pass")
    assert bot.choose(game).text == "trumps 6"


def test_the_greedy_player_gives_count_to_its_partner_and_keeps_its_trumps() -> None:
    from core.ai.tricks import TrickGreedyPlayer

    game = forty_two()
    for text in ("4-1", "4-2", "5-4"):
        game.play(text)
    assert TrickGreedyPlayer(seed=1).choose(game).text == "6-4"  # last: the partner holds it
    game = texas(TRUMP_DEAL)
    for text in ("bid 30", "pass", "pass", "pass", "trumps 0", "6-6"):
        game.play(text)
    choice = TrickGreedyPlayer(seed=1).choose(game)
    assert choice.text not in {"2-0", "4-0"}  # no trump on a trick without count, not last


def test_simulate_reports_how_often_contracts_are_made(capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    from bot.cli import main

    assert main(["simulate", "forty-two", "--games", "3", "--seed", "2", "--ai", "random"]) == 0
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if "contracts made" in x)
    rounds = float(next(x for x in out.splitlines() if "average rounds" in x).split()[-1])
    assert line.rstrip().endswith(f"of {round(rounds * 3)}")


def test_a_tile_move_with_an_end_is_played_as_the_tile_and_a_foreign_tile_refused() -> None:
    from core.moves import LEFT, PLAY, Move

    game = forty_two()
    game.play(Move(PLAY, Tile(4, 1).id, LEFT))
    assert game.record()["moves"][-1] == "4-1"
    with pytest.raises(IllegalMove, match="double-6"):
        game.play(Move(PLAY, Tile(8, 4).id))


def test_a_hand_scores_each_reason_once() -> None:
    from core.tricks.match import score_reasons

    made = outcome(30, 1, 5, [8, 34], [2, 5], 2, marks=False)
    assert score_reasons(made, 30, 1, False) == [(1, 30, "contract made"),
                                                 (1, 8, "over the contract"), (0, 8, "taken")]
    failed = outcome(30, 0, 5, [28, 14], [5, 2], 2, marks=False)
    assert score_reasons(failed, 30, 0, False) == [(1, 30, "contract set"), (1, 14, "taken")]
    set_marks = outcome(2 * MARK, 1, 5, [1, 41], [1, 6], 3, marks=True)
    assert score_reasons(set_marks, 2 * MARK, 1, True) == [(0, 2, "contract set")]
    for slug, bid in (("forty-two", "bid 40"), ("forty-two", "bid 25"), ("texas-42", "bid 30")):
        game = variants.get(slug).new(seed=1, deal=SEED_DEAL)
        for text in (bid, "pass", "pass", "pass", "trumps 0"):
            game.play(text)
        while game.round_no == 1:
            game.play(game.legal_moves()[0])
        last = game.view(None)["last_round"]
        codes = [[x["code"] for x in unit] for unit in last["lines"]]
        assert [sum(x["points"] for x in unit) for unit in last["lines"]] == last["points"]
        assert game.view(None)["history"][0]["scored"] == last["points"] == game.totals
        assert all(len(set(c)) == len(c) for c in codes), codes  # no reason twice
        assert all("none" not in c for c in codes) and last["points"] != [0, 0]


def test_the_finished_hand_stays_in_the_view_with_its_last_trick() -> None:
    game = forty_two(bids=("bid 30", "pass", "pass", "pass"), trumps=4)
    while game.round_no == 1:
        game.play(game.legal_moves()[0])
    public = game.view(None)
    hand = public["last_round"]["board"]
    assert hand["contract"]["seat"] == 0 and hand["contract"]["bid"] == 30
    assert hand["trumps"] == 4 and [b["bid"] for b in hand["bids"]] == ["30"] + ["pass"] * 3
    assert len(hand["tricks"]) == 7 and hand["trick"] == hand["tricks"][-1]["tiles"]
    assert hand["trick_winner"] == hand["tricks"][-1]["winner"]
    assert sum(hand["team_points"]) == 42 and sum(hand["team_tricks"]) == 7
    assert public["phase"] == "bidding" and public["tricks"] == []  # the next hand
