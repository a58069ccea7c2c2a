"""Tools for people working on the app: the screenshot tour."""
