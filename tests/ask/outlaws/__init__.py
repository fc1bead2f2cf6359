"""Tests: ask, outlaws."""
