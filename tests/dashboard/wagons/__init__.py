"""Tests: dashboard / wagons."""
