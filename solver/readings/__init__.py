"""The readings of the open questions, for every game: the base every game's ``Readings`` inherits (:mod:`.base`),
the list of readings (:mod:`.options`), verdicts (:mod:`.verdicts`) rerun under each alternative (:mod:`.impact`)
and the ``ruleslinger readings`` commands (:mod:`.cli`)."""
