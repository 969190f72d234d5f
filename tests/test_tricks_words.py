"""The end of a hand of forty-two and Texas 42 in words, and the bidding's status (issue 36).

The score sheet (`words.sheet_lines`) says the contract (bid, who), made or set and by how
much, the last trick complete (who played which tile, who took it) and what each team
scores; during the bidding the table's status says the high bid so far and who bids next,
never "Contract:". Hand-built deals give a made bid, set bids, nello, a plunge and a hand
laid down; seeded games check every hand's sheet against the core's ``last_round``.
"""

from __future__ import annotations

import random

import pytest

from bot.service import words
from core import variants
from tests.test_rules_texas_specials import DOUBLES_DEAL
from tests.test_rules_tricks import SEED_DEAL

NAMES = ["alice", "bob", "carol", "dan"]


def hand_played(slug: str, deal: dict, moves: list[str], lay_down: bool = False,
                **options: object):
    """A game whose first hand is bid with `moves`, then played with each seat's first legal
    tile (laid down as soon as it may be, with `lay_down`) until the next hand is dealt."""
    if lay_down:
        options["lay_down"] = True
    game = variants.get(slug).new(seed=1, deal=deal, **options)
    for text in moves:
        game.play(text)
    while game.round_no == 1 and not game.over:
        game.play("lay down" if lay_down and game.may_lay_down() else game.legal_moves()[0])
    return game


def sheet(game, lang: str = "en") -> list[str]:
    return words.sheet_lines(game.view(None), NAMES, lang)


def last_trick_line(game) -> str:
    """The last trick of the hand that ended, as the core kept it, in the sheet's words."""
    last = game.view(None)["last_round"]["board"]["tricks"][-1]
    plays = ", ".join(f"{NAMES[p['seat']]} {p['tile']}" for p in last["tiles"])
    unit = "point" if last["points"] == 1 else "points"
    return f"Last trick: {plays}. {NAMES[last['winner']]} takes it ({last['points']} {unit})."


def test_a_made_bid_says_by_how_much_the_last_trick_and_the_points() -> None:
    game = hand_played("forty-two", SEED_DEAL, ["pass", "bid 30", "pass", "pass", "trumps 6"])
    last = game.view(None)["last_round"]
    assert last["made"] and last["taken"][1] == 42
    lines = sheet(game)
    assert "Contract: bob bid 30, trumps: sixes." in lines
    assert "Made by 12: bob & dan took 42 points for the 30 needed." in lines
    assert "Last trick: bob 4-2, carol 3-2, dan 1-1, alice 0-0. bob takes it (6 points)." \
        in lines
    assert last_trick_line(game) in lines
    assert ("bob & dan: contract made +30 · 12 over the contract, counted double +24 · "
            "total 54 of 200") in lines
    assert game.totals == [0, 54]


def test_a_set_bid_says_by_how_much_and_the_defenders_score() -> None:
    game = hand_played("forty-two", SEED_DEAL, ["bid 40", "pass", "pass", "pass", "trumps 0"])
    lines = sheet(game)
    assert "Contract: alice bid 40, trumps: blanks." in lines
    assert "Set by 15: alice & carol took 25 points for the 40 needed." in lines
    assert "Last trick: alice 4-1, bob 6-1, carol 3-2, dan 1-1. alice takes it (11 points)." \
        in lines
    assert "bob & dan: contract set +40 · points taken +17 · total 57 of 200" in lines
    assert "alice & carol: nothing · total 0 of 200" in lines


def test_a_set_bid_in_french() -> None:
    game = hand_played("forty-two", SEED_DEAL, ["bid 40", "pass", "pass", "pass", "trumps 0"])
    lines = sheet(game, "fr")
    assert "Contrat : alice a demandé 40, atout : blancs." in lines
    assert "Chuté de 15 : alice & carol ont pris 25 points pour 40 demandés." in lines
    assert "Dernier pli : alice 4-1, bob 6-1, carol 3-2, dan 1-1. alice le prend (11 points)." \
        in lines


def test_texas_a_bid_of_a_mark_made_or_set_by_a_trick_and_the_marks() -> None:
    made = hand_played("texas-42", SEED_DEAL, ["bid 1 mark", "pass", "pass", "pass",
                                               "trumps 0"])
    lines = sheet(made)
    assert "Contract: alice bid 1 mark, trumps: blanks." in lines
    assert "Made: alice & carol took every trick." in lines
    assert last_trick_line(made) in lines
    assert "alice & carol: contract made +1 mark · total 1 mark of 7" in lines
    assert "bob & dan: nothing · total 0 marks of 7" in lines
    game = hand_played("texas-42", SEED_DEAL, ["bid 1 mark", "pass", "pass", "pass",
                                               "trumps 5"])
    last = game.view(None)["last_round"]
    assert not last["made"] and last["tricks_won"] == [6, 1] and last["taken"][0] == 41
    lines = sheet(game)
    assert "Set: alice & carol lost 1 trick, and took 41 of the 42 points needed." in lines
    assert last_trick_line(game) in lines
    assert "bob & dan: contract set +1 mark · total 1 mark of 7" in lines
    fr = sheet(game, "fr")
    assert "Chuté : alice & carol ont perdu 1 pli, et pris 41 des 42 points demandés." in fr
    assert "bob & dan : contrat chuté +1 marque · total 1 marque sur 7" in fr


def test_texas_nello_says_the_bidders_tricks_and_a_trick_of_three() -> None:
    game = hand_played("texas-42", SEED_DEAL, ["bid 1 mark", "pass", "pass", "pass",
                                               "trumps nello"], nello=True)
    lines = sheet(game)
    assert "Contract: alice bid 1 mark, nello." in lines
    assert "Set: alice took 4 tricks." in lines
    assert "Last trick: dan 1-1, alice 0-0, bob 5-0. dan takes it (6 points)." in lines
    assert "bob & dan: contract set +1 mark · total 1 mark of 7" in lines
    assert "Chuté : alice a pris 4 plis." in sheet(game, "fr")


def test_texas_plunge_says_the_special_bid_and_the_marks() -> None:
    game = hand_played("texas-42", DOUBLES_DEAL, ["bid plunge", "pass", "pass", "pass"],
                       plunge=True)
    lines = sheet(game)
    assert "Contract: alice bid plunge (4 marks), trumps: blanks." in lines
    assert "Set: alice & carol lost 7 tricks, and took 0 of the 42 points needed." in lines
    assert last_trick_line(game) in lines
    assert "bob & dan: contract set +4 marks · total 4 marks of 7" in lines


def test_a_hand_laid_down_says_so_and_its_last_trick_played() -> None:
    game = hand_played("texas-42", SEED_DEAL, ["bid 30", "pass", "pass", "pass", "trumps 0"],
                       lay_down=True)
    board = game.view(None)["last_round"]["board"]
    assert len(board["tricks"]) == 5
    lines = sheet(game)
    assert "Made exactly: alice & carol took the 30 points needed." in lines
    assert last_trick_line(game) in lines
    assert "The hand was laid down: 2 tricks were not played." in lines
    assert "La donne a été abattue : 2 plis n'ont pas été joués." in sheet(game, "fr")


def status(game, lang: str = "en") -> str:
    return words.table_summary(game.view(None), NAMES, lang)


def test_the_bidding_status_says_the_high_bid_and_who_bids_never_a_contract() -> None:
    game = variants.get("forty-two").new(seed=1, deal=SEED_DEAL)
    text = status(game)
    assert "Contract:" not in text and "No bid yet · alice to bid" in text
    game.play("bid 30")
    text = status(game)
    assert "Contract:" not in text and "This hand:" not in text
    assert "Bidding. Bids: alice 30" in text and "High bid: alice 30 · bob to bid" in text
    fr = status(game, "fr")
    assert "Contrat" not in fr and "Plus haute enchère : alice 30 · À bob d'enchérir" in fr
    for text in ("pass", "pass", "pass"):
        game.play(text)
    text = status(game)  # the bidding is over: alice's 30 is the contract; she names trumps
    assert "Contract: alice bid 30 · naming trumps" in text and "High bid" not in text


def test_the_texas_dealer_who_must_bid_is_told() -> None:
    game = variants.get("texas-42").new(seed=1, deal=SEED_DEAL)
    for text in ("pass", "pass", "pass"):
        game.play(text)
    dealer = NAMES[game.to_move]
    text = status(game)
    assert "Contract:" not in text
    assert f"No bid yet · {dealer} must bid: the three others passed" in text


@pytest.mark.parametrize("slug", ["forty-two", "texas-42"])
def test_seeded_games_every_hand_is_told_and_no_contract_while_bidding(slug: str) -> None:
    for seed in (1, 2, 3):
        game = variants.get(slug).new(seed=seed)
        chooser = random.Random(seed)
        hands = 0
        while not game.over and hands < 4:
            view = game.view(None)
            if view["phase"] == "bidding":
                assert "Contract:" not in status(game), (seed, game.turn)
            round_no = game.round_no
            legal = game.legal_moves()
            game.play(legal[chooser.randrange(len(legal))])
            if game.round_no == round_no and not game.over:
                continue
            hands += 1
            last = game.view(None)["last_round"]
            contract = last["contract"]
            lines = sheet(game)
            bidder = NAMES[contract["seat"]]
            assert any(line.startswith(f"Contract: {bidder} bid ") for line in lines)
            said = "Made" if last["made"] else "Set"
            assert any(line.startswith(said) for line in lines), lines
            assert last_trick_line(game) in lines
            assert sum(" · total " in line for line in lines) == 2
        assert hands >= 1
