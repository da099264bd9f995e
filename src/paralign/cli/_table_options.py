"""Paraphrase tables on the command line: ParaEval's paraphrase sources (`--table`,
`--resources`, `--max-length`, the paper config's settings) for `paraeval` and `meta-eval`, a
table spec's stdin read once, and the check that a table's name is one a signature can write
(`--table`, `--similarity`, `serve`'s tables).

Not for: loading tables (:mod:`paralign.tables`, :mod:`paralign.paraphrases`).
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from contextlib import ExitStack
from typing import TYPE_CHECKING

from ..errors import ConfigurationError
from ..paraphrases import empty_table_note, source_spec_parts, table_spec
from ._common import input_name, is_stdin, positive_int, read_once, warn
from ._lists import comma_list
from ._metavars import LIST, TABLE, N

if TYPE_CHECKING:  # pragma: no cover
    from ..paraphrases import ParaphraseSource
    from ..workers import Progress


def add_paraeval_source_options(parser: argparse.ArgumentParser, config_option: str) -> None:
    """--table, --resources, --max-length and --min-paraphrase-length: ParaEval's paraphrase
    sources, for `paraeval` and `meta-eval` (`config_option` names the flag that picks the
    config, for the help of the paper-only option)."""
    parser.add_argument("--table", action="append", default=[], metavar=TABLE,
                        help="paraphrase table: FILE.parquet (as pivot writes it), FILE.tsv or FILE.tsv.gz, "
                        "`PATH[:THRESHOLD]`; repeatable. A table that pivot or paraphrase-table built has its "
                        "phrases re-split into ParaEval's tokens (13a: man 's is man's), named in the signature "
                        "(~regex); any other is matched as written (without case)")
    parser.add_argument("--resources", default=None, metavar=LIST,
                        help="built-in sources, comma-separated: ppdb, wordnet or none (alone); their order "
                             "changes no number, nor the signature (default: the config's, ppdb,wordnet)")
    parser.add_argument("--max-length", type=positive_int, default=None, metavar=N,
                        help="longest paraphrase in words (default: the config's, 4)")
    parser.add_argument("--min-paraphrase-length", type=positive_int, default=None, metavar=N,
                        help=f"{config_option} paper only: match paraphrases of >= N words "
                             "(default: 1; the paper's variant: 3)")


def resource_names(text: str | None) -> list[str] | None:
    """The --resources list (None: not given, the config's), read by :func:`comma_list`: an
    empty item, or none at all, is a usage error naming the option (``none`` says no source);
    and so is a name the library refuses (:func:`paralign.metrics.paraeval.paper.check_resource_names`:
    an unknown one, ``none`` beside another), before any data loads."""
    from ..metrics.paraeval.paper import check_resource_names

    if text is None:
        return None
    names = comma_list("--resources", text, "ppdb,wordnet, or none for no built-in source")
    return check_resource_names(names, "argument --resources")


#: The paper config's own settings on the command line, as typed, with their argparse dest
#: (given when not None or False): `paraeval` has them all, `meta-eval` the first.
PAPER_FLAGS = (("--min-paraphrase-length", "min_paraphrase_length"), ("--no-lowercase", "no_lowercase"),
               ("--tokenize", "tokenize"), ("--keep-stopword-phrases", "keep_stopword_phrases"))


def check_paper_options(args: argparse.Namespace, config: str, config_option: str) -> None:
    """ConfigurationError naming the flags as typed when a setting of the paper config is given
    with another config (`config_option`: the flag that picks it in this command). The library
    refuses them too, but names them as Python does (``min_paraphrase_length``) and cannot know
    which command's flag picks the config; this runs before any data loads."""
    from ..metrics.paraeval.configs import get_config

    given = [flag for flag, dest in PAPER_FLAGS if getattr(args, dest, None) not in (None, False)]
    if given and get_config(config).scorer != "paper":
        verb = "is a setting" if len(given) == 1 else "are settings"
        raise ConfigurationError(f"{', '.join(given)} {verb} of the paper config: give {config_option} "
                                 f"paper (the config is {config!r})")
    shortest, longest = getattr(args, "min_paraphrase_length", None), getattr(args, "max_length", None)
    longest = longest or get_config(config).max_length
    if shortest is not None and shortest > longest:  # the library's check, in the flags' names
        raise ConfigurationError(f"--min-paraphrase-length {shortest} is above --max-length {longest}: no "
                                 "paraphrase match can be that long")


def table_specs(stack: ExitStack, tables: Sequence[str]) -> list[str]:
    """The --table specs (`PATH[:THRESHOLD]`) with a PATH of '-' or /dev/stdin replaced by a
    copy of stdin read once (removed when `stack` closes: read the tables before that)."""
    specs = []
    for spec in tables:
        path, sep, threshold = table_path(spec)
        if is_stdin(path):
            path = str(stack.enter_context(read_once(None)))
        specs.append(path + sep + threshold)
    return specs


def check_table_names(option: str, specs: Sequence[str], *, sources: bool = False) -> None:
    """A usage error naming `option` and the file, before any table loads, for a table spec
    (``PATH[:THRESHOLD]``; with `sources`, each part of a ``+``-joined --similarity spec) whose
    file's name a signature cannot write: one holding ``|`` (the library's own check where it
    writes it, :func:`paralign.metrics.paraeval.signature.source_signature`, names no option),
    or that :func:`option_table_spec` refuses: one naming no file, or whose threshold is not a
    number, is not finite, is below 0, or is given to a built-in."""
    from ..metrics.paraeval.signature import TABLE_PART
    from ..signature import file_name_part

    for spec in specs:
        for part in spec.split("+") if sources else [spec]:
            option_table_spec(option, part)
            file_name_part(source_spec_parts(part)[0], TABLE_PART, option=option)


def option_table_spec(option: str, spec: str) -> tuple[str, float | None]:
    """:func:`paralign.paraphrases.table_spec` of `spec`, given as `option`: its path and threshold, or
    its ConfigurationError (a threshold that is not a number, is not finite or is below 0, or is
    given to a built-in) naming the option, as argparse names it (``argument --table: ...``). The
    library's check names no option, and ran only when the table loaded: ``t.parquet:-1`` was taken,
    keeping every row."""
    try:
        return table_spec(spec)
    except ConfigurationError as exc:
        raise ConfigurationError(f"argument {option}: {exc}") from None


def table_path(spec: str) -> tuple[str, str, str]:
    """(path, ':', threshold) of a table spec whose path is stdin ('-:0.5'), else (spec, '', '')."""
    path, sep, threshold = spec.rpartition(":")
    return (path, sep, threshold) if sep and is_stdin(path) else (spec, "", "")


def paraeval_sources(stack: ExitStack, config: str, resources: list[str] | None, tables: Sequence[str],
                     progress: Progress | None) -> list[ParaphraseSource]:
    """ParaEval's sources for `paraeval` and `meta-eval`: the built-ins `resources` names (None: the
    config's), then each --table (`tables`, as typed; stdin read once: :func:`table_specs`), each table
    of no paraphrase named in a warning (:func:`warn_empty_tables`), by the spec it was loaded from.
    What :func:`paralign.metrics.paraeval.scoring.scorer` builds from the same names, for its
    ``sources``; read the tables before `stack` closes. `resources` as :func:`resource_names` gives
    them, checked: not checked again."""
    from ..metrics.paraeval.configs import get_config
    from ..metrics.paraeval.paper import build_sources, built_in_sources

    built = build_sources(get_config(config).resources) if resources is None else built_in_sources(resources)
    loaded = load_tables(stack, tables, progress)
    warn_empty_tables(tables, loaded)
    return [*built, *(loaded[spec] for spec in tables)]


def load_tables(stack: ExitStack, tables: Sequence[str], progress: Progress | None) -> dict[str, ParaphraseSource]:
    """Each --table spec as typed (stdin's ``-`` too) -> the source it names, loaded once
    (:func:`paralign.paraphrases.load_source`: a table, or a built-in given as one)."""
    from ..paraphrases import load_source

    loaded: dict[str, ParaphraseSource] = {}
    for typed, spec in zip(tables, table_specs(stack, tables), strict=True):
        if typed not in loaded:
            loaded[typed] = load_source(spec, progress=progress)
    return loaded


def warn_empty_tables(specs: Sequence[str], tables: Mapping[str, object]) -> None:
    """A warning naming each --table (`specs`, as typed; each once) that holds no paraphrase: a file of
    no row (empty, or a header alone), or none scoring at least its threshold. It is scored as if
    not given, which a user who gave a table does not expect; the numbers are still right (the
    signature names it, with the hash of no rows), so a warning, as ``parametric table`` gives
    for such a table, not an error. `tables`: each spec as typed -> the source it was loaded as
    (:func:`load_tables`): matched by the spec, not by a place among a scorer's sources, which the
    resources come before and a source's copies may be ordered otherwise.

    Why: ``paraeval --table EMPTY`` and ``meta-eval --table EMPTY`` scored as without a table,
    silently (a failed pivot run's output, the wrong file); and the tables were matched with the
    specs by their places at the end of the scorer's sources."""
    for spec in dict.fromkeys(specs):
        empty = empty_table_note(tables.get(spec))
        if empty is not None:
            path, sep, threshold = table_path(spec)
            warn(f"--table {input_name(path)}{sep}{threshold}: {empty}: scored as without it")
