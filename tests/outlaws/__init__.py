"""Tests: outlaws."""
