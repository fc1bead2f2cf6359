"""Builders the game tests share: Lone Cowboy towns and deals (`wagons`, `walk`, `advice`) and Outlaws positions
(`outlaws`)."""
