"""Tests: wagons / optimizer."""
