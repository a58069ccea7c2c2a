"""Everything Qt: the main window, the editor, the console. Widgets read model objects only."""
