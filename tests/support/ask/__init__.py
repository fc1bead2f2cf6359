"""Helpers the ask tests share: brute-force oracles of the games' question domains."""
