"""Tests: cactus."""
