"""Recording a table: how its state is stored (:mod:`.storage`), the one pipeline every change
passes (:mod:`.pipeline`), the score sheet's commands (:mod:`.commands`), the history's
queries (:mod:`.queries`), the sitting formats (:mod:`.formats`), the live clocks' state
(:mod:`.clock`, :mod:`.state`), who sees the hands (:mod:`.hands`) and the sanctions
(:mod:`.sanctions`)."""
