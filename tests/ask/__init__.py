"""Tests: ask."""
