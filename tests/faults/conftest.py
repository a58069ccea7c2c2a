"""The window's half of the corpus runs offscreen."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
