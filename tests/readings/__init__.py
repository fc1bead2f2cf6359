"""Tests: readings."""
