"""Players across tournaments: what each played (:mod:`.history`). Finding them by name is
:mod:`tournaments.names`."""
