"""Tests: wagons/record."""
