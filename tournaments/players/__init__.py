"""Players across tournaments: finding them by name (:mod:`.names`) and what they played
(:mod:`.history`)."""
