"""The placeholders ``--help`` shows for an option's value (``--workers N``, ``-o FILE``): one
vocabulary for every command and action, the words docs/CLI.md writes beside the options.

Why: without a ``metavar`` argparse shows the option's name upper-cased (``--chunk-size
CHUNK_SIZE``, ``--table TABLE``, ``-o OUTPUT``), which repeats the name and says nothing of what
to type, and the same kind of value went by several names (``P``, ``K``, ``LIMIT``, ``LINES``).
tests/cli/test_help_placeholders.py holds every option of every parser to :data:`PLACEHOLDERS`,
and docs/CLI.md, docs/api.md and the results pages to what the help shows.

Not for: options with a fixed set of values, whose help shows the choices (``{text,json}``).
"""

from __future__ import annotations

#: The command, and the action of a command that has several (`lattice`, `parametric`, `cache`).
COMMAND = "COMMAND"
ACTION = "ACTION"
#: A whole number: a count, a length in words, a seed, a port.
N = "N"
#: A number that need not be whole: a threshold, weight or probability in [0, 1], a ratio, a rate.
X = "X"
#: A file to read or to write ('-': stdin or stdout, where the option's help says so).
FILE = "FILE"
#: A folder.
DIR = "DIR"
#: A file or a folder.
PATH = "PATH"
#: A name from a set the help lists (a config, a language pair, a built-in table).
NAME = "NAME"
#: A comma-separated list.
LIST = "LIST"
#: A network address: a Dask scheduler's (``tcp://HOST:8786``), a host to listen on.
ADDRESS = "ADDRESS"
#: An amount of memory (``4GB``).
SIZE = "SIZE"
#: A sentence typed on the command line.
TEXT = "TEXT"
#: A phrase typed on the command line, to look up.
PHRASE = "PHRASE"
#: A paraphrase table file, with an optional threshold on its scores (``table.tsv:0.5``).
TABLE = "PATH[:THRESHOLD]"
#: A built-in paraphrase source (ppdb, wordnet) or a table file with an optional threshold.
SOURCE = "NAME|PATH[:THRESHOLD]"
#: A model: an installed package's name or a local folder.
MODEL = "NAME|DIR"
#: A file, or the name of something the command makes instead (an aligner).
FILE_OR_NAME = "FILE|NAME"
#: A file, optionally named for the report (``--scores comet=comet.seg.score``).
NAMED_FILE = "[NAME=]FILE"
#: An HTML page to write.
HTML_FILE = "FILE.html"
#: The start of the names of several files written (``PREFIX.src``, ``PREFIX.tgt``).
PREFIX = "PREFIX"

#: Every placeholder an option's help may show.
PLACEHOLDERS = frozenset({COMMAND, ACTION, N, X, FILE, DIR, PATH, NAME, LIST, ADDRESS, SIZE, TEXT, PHRASE, TABLE, SOURCE, MODEL, FILE_OR_NAME,
                          NAMED_FILE, HTML_FILE, PREFIX})
