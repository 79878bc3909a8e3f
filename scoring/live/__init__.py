"""Playing a table live: moves, draws and passes with the server's clocks (:mod:`.play`,
:mod:`.drawing`), and the clocks' Celery task, the sweep (:mod:`.tasks`) (README, "Live tables")."""
