"""Tests: wagons / review."""
