"""Outlaws: Last Man Standing."""
