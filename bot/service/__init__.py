"""The application: lobbies, play, timers, results, ratings and the words it says; no platform.

`Service` (service.py) is the facade adapters call: it puts each public method behind the door
(guard.py) and routes a button's press.  The work is done by its parts, each a class that
stands on the one below it, so that every import runs one way (no part imports a part above
it, and none imports the facade or the door):

    service.Service   the facade: the public methods behind the door, a press routed
      tournaments.Tournaments   a tournament's commands: open, register, start, drop
        arena.Arena       an arena: its free players paired again as soon as they are free
          rounds.Rounds     a tournament's rounds: paired, opened, closed, scored
            opening.Opening   a new table, a rematch, the table a command without a number means
              lobby.Lobby       seats: join, leave, computer seats, the start; leaving a game
                clock.Clock       start-up reload, ticks (computer moves, turn timers, idle
                                  tables), the tick loop and its settling
                  play.Play         a move applied and committed, the computers' answer, the move
                                    builder's next word, the hand, the hint
                    results.Results   a game's end and ratings, a table stopped, rules pages,
                                      leaderboards, statistics, history, export, review, settings
                      state.State       the shared state (store, tables, locks, languages,
                                        limits, pictures, clock, random numbers) and the helpers
                                        every part uses (a lock, a language, an error, the table
                                        and hand messages, a turn's deadline)

The order, one way (A <- B: B stands on A and imports it; nothing imports back):
state <- results <- play <- clock <- lobby <- opening <- rounds <- arena <- tournaments
<- service.

A part calls down by inheritance (`self._finish` in the play is the results'); nothing calls
up but through the facade's public methods (a press, `stopping.press` -> `stop`).  Beside
them: guard (the door), shared (tables shared by several processes), tables, seats, limits,
messages and pictures; the words: words/ (what each family says, one module per family),
texts (the messages built from them) and families (the move builder's hand and presses,
one-seat tables); live (the changes the web table listens to); assist, review, levels,
thinking, ratings, rules_pages, builder, stopping.
"""
