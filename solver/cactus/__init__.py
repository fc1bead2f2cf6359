"""Cactus Town: The Lone Ranger."""
