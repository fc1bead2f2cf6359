"""Tests: fuzz."""
