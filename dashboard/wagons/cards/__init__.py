"""The player's goal cards: their numbers settled from the card's face, and the readings they settle."""
