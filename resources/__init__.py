"""The files the app ships: the Examples menu's tutorials and the icon.

``FOLDER`` is where they are: the window needs file paths (Qt opens them by name), and
``importlib.resources`` cost the start 5-9 ms of imports to say the same of a folder on disk.
"""

from pathlib import Path

FOLDER = Path(__file__).parent
