"""The table service: lobbies, play, timers, results, ratings and the words it says; no platform.

The shape (issue 38: parts held, not parents; events, not overrides):

    service.Service (the facade: each public method behind the door, guard.py; a press routed)
      is a state.State       the shared state: store, tables, locks, languages, limits,
      |                      pictures, clock, random numbers, the events (events.EventBus)
      holds Parts            each made with what it uses (the state, and the parts named):
      |   results.Results      a game's end and ratings, a table stopped, what players read
      |   play.Play            a move committed, the computers' answer, the hand   (results)
      |   clock.Clock          start-up reload, ticks, the tick loop        (play, results)
      |   lobby.Lobby          seats, the start, leaving a game             (play, results)
      |   opening.Opening      a new table, a rematch, the table a command means    (lobby)
      holds tournaments      bot/tournament/commands.py: a client, on a desk.Desk (what a
                             client may use) and subscribed to the events: Started, TickRan,
                             GameFinished, SeatLeft, TournamentNoticed; the web table hears
                             MovePlayed (live.py)

Imports run one way: state <- results <- play <- clock, lobby <- opening <- service; the
tournaments import the service's parts and only the facade imports them back; no module
imports one above it, not even for types (helpers type the service with host.Host).  A
subscriber that raises is logged and the others run (events.py): the tick's own messages are
made before its listeners are told.  Beside them: guard (the door), shared (tables shared by
several processes), notify, outbox, tables, seats, limits, messages and pictures; the words:
words/ (what each family says), texts and families (the move builder, one-seat tables);
live (the changes the web table listens to); assist, review, levels, thinking, ratings,
rules_pages, builder, stopping.

How it got here (issue 38's plan, step by step, each step green): 1. events.py, the bus and
its typed events, published by the parts; 2. the tournaments' overrides of tick, start,
_leave_game and _table_finished turned into subscriptions; 3. the tournaments moved to
bot/tournament/ and held by the facade, on a Desk; 4. the table parts held instead of
parents (no class of the service stands on more than one class of the project).
"""
