"""Tests: wagons."""
