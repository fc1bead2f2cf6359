"""Tests: dashboard/outlaws."""
