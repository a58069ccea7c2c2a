"""Every test keeps its settings and recovery files away from the user's own."""

import os
import tempfile

# Read by Qt for a window's settings and data folders, and by the subprocesses tests start.
_HOME = tempfile.mkdtemp(prefix="playground-tests-")
os.environ["XDG_CONFIG_HOME"] = os.path.join(_HOME, "config")
os.environ["XDG_DATA_HOME"] = os.path.join(_HOME, "data")
