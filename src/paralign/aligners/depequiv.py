"""Old path of :mod:`paralign.aligners.sultan.depequiv`, kept for one release.

Importing it gives that module, with a DeprecationWarning. Not for: new code (import the new path).
"""

from .._moved import alias_module

alias_module(__name__, "paralign.aligners.sultan.depequiv")
