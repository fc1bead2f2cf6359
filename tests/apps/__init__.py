"""Tests: apps."""
