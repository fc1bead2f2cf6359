"""Tests: dashboard/cactus."""
