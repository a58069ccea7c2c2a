"""Engines: what ``torch`` means inside user code (the NumPy engine, or real torch)."""
