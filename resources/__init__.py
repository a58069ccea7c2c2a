"""The files the app ships: the Examples menu's tutorials and the icon."""
