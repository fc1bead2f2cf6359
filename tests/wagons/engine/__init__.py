"""Tests: wagons / engine."""
