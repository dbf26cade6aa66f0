"""Benchmarks behind `tabula bench`: speed targets are checked here, not in unit tests."""
