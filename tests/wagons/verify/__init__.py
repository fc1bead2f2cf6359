"""Tests: wagons / verify."""
