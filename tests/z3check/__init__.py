"""Tests: the one Z3 check runner."""
