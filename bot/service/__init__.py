"""The application: lobbies, play, timers, results, ratings and the words it says; no platform."""
