"""Tests: execution."""
