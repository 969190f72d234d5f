"""The trick-taking games: bidding, trumps, tricks and contracts (forty-two, texas-42)."""
