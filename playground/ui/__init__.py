"""Everything Qt: the main window, the editor, the console. Widgets read model objects only."""

# The libraries and parts of the app the window uses that do not use Qt, imported before Qt
# is: once PySide6 is loaded, its import hook reads the source of each module imported after
# it, looking for Qt's __feature__ options. Before the first window that was 44 ms of reading
# (numpy's modules alone 15); imported here first, 14 ms are left (the modules that use Qt,
# and the first ``import`` of each already loaded one).
import numpy  # noqa: F401
import pygments.lexers.python  # noqa: F401

import playground.kernel.client  # noqa: F401
import playground.layout.layered  # noqa: F401
import playground.layout.nested  # noqa: F401
import playground.model.notebook  # noqa: F401
import playground.model.output_check  # noqa: F401
import playground.model.path_sums  # noqa: F401
import playground.model.source_file  # noqa: F401
import playground.model.view_state  # noqa: F401
