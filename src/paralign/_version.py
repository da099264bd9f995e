"""paralign's version, in one place: the package metadata (pyproject.toml reads it from here),
``paralign --version``, the web app's OpenAPI page and every ParaEval signature
(``|version:X|``, as sacrebleu's signatures carry sacrebleu's version) all show this string.

Not for feature checks: code never branches on it.
"""

__version__ = "0.2.26"
