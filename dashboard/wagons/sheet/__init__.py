"""The Lone Cowboy score sheet page (`page`) and its work: the town, the opponent's pile and the scenario, kept in the
address and the store (`work`)."""
