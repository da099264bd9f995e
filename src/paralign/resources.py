"""Lexical resources, loaded once and lazily: stop words, PPDB lexical pairs, WordNet."""

from __future__ import annotations

import functools
import re
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import ConfigurationError, FormatError, ResourceMissingError, check_output_folder
from .settings import configure_nltk_data

if TYPE_CHECKING:  # pragma: no cover
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

#: NLTK packages `paralign download` fetches.
NLTK_PACKAGES: tuple[str, ...] = ("wordnet", "stopwords", "mwa_ppdb")

PPDB_FILE = "misc/mwa_ppdb/ppdb-1.0-xxxl-lexical.extended.synonyms.uniquepairs"

#: What each of :data:`NLTK_PACKAGES` leaves in an NLTK data folder that paralign reads: the
#: package's zip, or the file paralign reads from it unzipped (any one will do).
NLTK_PACKAGE_FILES: dict[str, tuple[str, ...]] = {
    "wordnet": ("corpora/wordnet.zip", "corpora/wordnet/index.noun"),
    "stopwords": ("corpora/stopwords.zip", "corpora/stopwords/english"),
    "mwa_ppdb": ("misc/mwa_ppdb.zip", PPDB_FILE),
}

_lock = threading.RLock()


def _missing(what: str, package: str, exc: Exception | None = None) -> ResourceMissingError:
    detail = f" ({exc})" if exc else ""
    return ResourceMissingError(
        f"{what} not found: set NLTK_DATA to a folder holding the NLTK '{package}' data, "
        f"or run `paralign download` on a machine with internet{detail}"
    )


def _nltk_dirs() -> list[Path]:
    """NLTK's data folders in nltk's search order (NLTK_DATA, then ../shared/data/nltk_data as
    :func:`configure_nltk_data` adds it, then nltk's defaults), found without importing nltk
    (which takes seconds: it imports most of its subpackages)."""
    import os
    import sys

    from .settings import _candidate_shared_dirs, data_dir, home_dir

    dirs = [Path(p) for p in os.environ.get("NLTK_DATA", "").split(os.pathsep) if p]
    if not dirs:
        root = data_dir()
        dirs += [root / "nltk_data"] if root is not None else []
        dirs += [c / "nltk_data" for c in _candidate_shared_dirs()]
    home = home_dir()  # None: no home folder to look in (a bare uid without HOME)
    dirs += [home / "nltk_data"] if home is not None else []
    dirs += [Path(sys.prefix) / "nltk_data",
             Path(sys.prefix) / "share" / "nltk_data", Path(sys.prefix) / "lib" / "nltk_data",
             Path("/usr/share/nltk_data"), Path("/usr/local/share/nltk_data"),
             Path("/usr/lib/nltk_data"), Path("/usr/local/lib/nltk_data")]
    return dirs


def _pointer(resource: str, package: str, what: str) -> tuple[Path | None, Any]:
    """Where `resource` is: (its file, None) when a quick walk of the data folders finds it,
    else (None, nltk's path pointer), which may point inside a zip such as corpora/stopwords.zip."""
    for folder in _nltk_dirs():
        if (folder / resource).exists():
            return folder / resource, None
    configure_nltk_data()  # not found by the quick walk: ask nltk itself
    import nltk.data

    try:
        return None, nltk.data.find(resource)
    except LookupError as exc:
        raise _missing(what, package) from exc


def _find(resource: str, package: str, what: str) -> Path:
    """`resource` as a file on disk; one nltk finds only inside a zip is a ResourceMissingError
    saying to unzip it (it was a bare NotADirectoryError at the first read)."""
    path, pointer = _pointer(resource, package, what)
    if path is None:
        path = Path(str(pointer))
        if not path.is_file():
            raise ResourceMissingError(f"{what}: found only inside a zip ({path}); unzip the NLTK "
                                       f"'{package}' data where it is")
    return path


def _read_text(resource: str, package: str, what: str) -> str:
    """The text of `resource`, from a data folder or from inside the zip nltk keeps it in; a
    file that cannot be read, is not UTF-8 or sits in a damaged zip (a download that stopped)
    is a ResourceMissingError saying how to get it again, not an error at every input line."""
    import zipfile
    import zlib

    where: object = resource
    try:
        path, pointer = _pointer(resource, package, what)
        where = path if path is not None else pointer
        if path is not None:
            return path.read_text(encoding="utf-8")
        with pointer.open() as stream:
            data = stream.read()
        return data.decode("utf-8") if isinstance(data, bytes) else data
    except (OSError, UnicodeDecodeError, zipfile.BadZipFile, EOFError, zlib.error) as exc:
        raise ResourceMissingError(
            f"{what}: cannot read {where}: {exc}; the NLTK '{package}' data there is damaged: run "
            "`paralign download` again, or set NLTK_DATA to a folder holding it") from exc


@functools.cache
def stopwords() -> frozenset[str]:
    """NLTK's English stop-word list (the 127-word list of 2014 in the shipped data), from the
    NLTK data folder or its corpora/stopwords.zip."""
    with _lock:
        words = _read_text("corpora/stopwords/english", "stopwords", "NLTK stop words").split()
        return frozenset(w.strip().lower() for w in words if w.strip())


def ppdb_path() -> Path:
    """The PPDB lexical pairs file (NLTK's mwa_ppdb package)."""
    return _find(PPDB_FILE, "mwa_ppdb", "PPDB lexical pairs (mwa_ppdb)")


@functools.cache
def ppdb_pairs() -> frozenset[tuple[str, str]]:
    """PPDB 1.0 XXXL lexical pairs (lower-cased), in both orders; malformed lines are skipped.
    Kept in the disk cache (:func:`paralign.disk_cache.derived`) once parsed."""
    from .disk_cache import derived

    with _lock:
        path = ppdb_path()
        return derived("ppdb-pairs", path, lambda: _read_ppdb_pairs(path), version="2")


def ppdb_text(path: Path) -> str:
    """The text of the PPDB file at `path`, without a leading byte-order mark (which would join
    the first phrase, as in every other file paralign reads). A byte that is not UTF-8 (a copy
    cut short inside a character, or damaged) is a FormatError naming the file and line."""
    data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        head = data[:exc.start]
        column = len(head) - head.rfind(b"\n")
        raise FormatError(
            f"not UTF-8 (byte {data[exc.start]:#04x} at column {column}): the "
            "PPDB file is damaged; run `paralign download` again, or set NLTK_DATA to a folder holding "
            "the NLTK 'mwa_ppdb' data", source=str(path), line=head.count(b"\n") + 1) from None
    return text.lstrip("\ufeff")


def _read_ppdb_pairs(path: Path) -> frozenset[tuple[str, str]]:
    """The pairs of :func:`ppdb_pairs`, parsed from the PPDB file."""
    pairs: set[tuple[str, str]] = set()
    # CRLF in NLTK's copy; LF accepted too. Not splitlines(): entries hold \x1c-\x1e.
    for line in ppdb_text(path).split("\n"):
        fields = line.rstrip("\r").split("\t")
        if len(fields) != 2 or not fields[0] or not fields[1]:
            continue
        a, b = fields[0].lower(), fields[1].lower()
        pairs.add((a, b))
        pairs.add((b, a))
    return frozenset(pairs)


@functools.cache
def wordnet() -> WordNetCorpusReader:
    """The NLTK WordNet 3.0 reader, checked to be present."""
    with _lock:
        if not (_has("corpora/wordnet") or _has("corpora/wordnet.zip")):
            raise _missing("WordNet", "wordnet")
        from nltk.corpus import wordnet as wn

        try:
            wn.ensure_loaded()
        except LookupError as exc:
            raise _missing("WordNet", "wordnet", exc) from exc
        return wn


def _has(resource: str) -> bool:
    configure_nltk_data()
    import nltk.data

    try:
        nltk.data.find(resource)
        return True
    except LookupError:
        return False


@functools.lru_cache(maxsize=1 << 17)  # bounded as the index's senses are: a server's words never end
def wordnet_synonyms(word: str) -> frozenset[str]:
    """Lower-cased WordNet lemma names sharing a synset with `word` (multiword names with spaces).

    nltk's answer (morphy, then every synset's lemma names; `word` itself left out), read from
    an offset index built once instead of nltk's Synset objects. Shown equal to
    :func:`_nltk_wordnet_synonyms` on all 4.7 million WordNet lemma names, their lower-cased,
    inflected and capitalised forms (`benchmarks/wordnet_index_check.py`).
    """
    return _wordnet_index().synonyms(word)


def wordnet_senses(word: str) -> frozenset[tuple[str, int]]:
    """The synsets of `word` as (part of speech, offset): nltk's `wn.synsets(word)` (morphy per
    part of speech, then every base form's synsets), read from the same index.  Two words share
    a sense when their sets meet: METEOR's synonym match, which also pairs two inflections of
    one lemma ("sat" and "sitting" both have sit.v.01), where :func:`wordnet_synonyms` pairs a
    word only with the lemma names of its own synsets."""
    return _wordnet_index().senses(word)


#: Former name of :func:`wordnet_synonyms`, kept for existing callers.
fast_wordnet_synonyms = wordnet_synonyms


def _nltk_wordnet_synonyms(word: str) -> frozenset[str]:
    """Reference path (nltk's `wn.synsets`, then lemma names): only for checking the index."""
    wn = wordnet()
    out: set[str] = set()
    for synset in wn.synsets(word.replace(" ", "_")):
        for lemma in synset.lemma_names():
            out.add(lemma.replace("_", " ").lower())
    out.discard(word.lower())
    return frozenset(out)


class _WordNetIndex:
    """WordNet synonyms without building nltk Synset objects (the path behind `wordnet_synonyms`).

    Same answer as :func:`_nltk_wordnet_synonyms` (nltk's morphy, then every synset's lemma
    names), read lazily from the raw files the way WordNet itself is meant to be read: each
    index file once into lemma -> its (unparsed) line, each data file once as bytes, and a
    synset's lemma names parsed from the data line at its byte offset only when a word needs
    it. So the slow nltk reader (which also maps WordNet 3.0 onto itself for the multilingual
    OMW data) is never built, and 150,000 synsets are not parsed to answer a few thousand words.
    Morphy is nltk's own code, run over these tables.
    """

    _POS_FILES = (("n", "noun"), ("v", "verb"), ("a", "adj"), ("r", "adv"))

    def __init__(self) -> None:
        self._files = _WordNetFiles()
        self._index: dict[str, dict[str, str]] = {}  # pos -> lemma -> index line
        self._data: dict[str, bytes] = {}  # pos -> data file
        self._names: dict[tuple[str, int], tuple[str, ...]] = {}  # (pos, offset) -> names
        self._offsets: dict[tuple[str, str], tuple[int, ...]] = {}  # (lemma, pos) -> offsets
        self._senses: dict[str, frozenset[tuple[str, int]]] = {}  # word -> (pos, offset)s
        self._exceptions: dict[str, dict[str, list[str]]] = {}
        self._multiword: frozenset[str] | None = None
        self._version: str | None = None

    def _lemmas(self, pos: str) -> dict[str, str]:
        """lemma -> its line of index.<pos> (licence lines, which start with a space, left out)."""
        table = self._index.get(pos)
        if table is None:
            text = self._files.read(f"index.{dict(self._POS_FILES)[pos]}")
            table = self._index[pos] = {
                line[:line.find(" ")]: line for line in text.splitlines()
                if line and not line.startswith(" ")}
        return table

    def _exception_map(self, pos: str) -> dict[str, list[str]]:
        table = self._exceptions.get(pos)
        if table is None:
            text = self._files.read(f"{dict(self._POS_FILES)[pos]}.exc")
            table = self._exceptions[pos] = {
                terms[0]: terms[1:] for terms in (line.split() for line in text.splitlines())
                if terms}
        return table

    def offsets(self, lemma: str, pos: str) -> tuple[int, ...]:
        """The synset offsets of an index lemma in `pos` (nltk's lemma_pos_offset_map)."""
        key = (lemma, pos)
        found = self._offsets.get(key)
        if found is None:
            line = self._lemmas(pos).get(lemma)
            found = ()
            if line is not None:
                fields = line.split()
                n_synsets, n_pointers = int(fields[2]), int(fields[3])
                start = 4 + n_pointers + 2
                found = tuple(int(f) for f in fields[start:start + n_synsets])
            self._offsets[key] = found
        return found

    def names(self, pos: str, offset: int) -> tuple[str, ...]:
        """The lemma names of one synset, lower-cased, underscores as spaces, adjective markers
        dropped (from its line of data.<pos>, which starts at byte `offset`)."""
        key = (pos, offset)
        found = self._names.get(key)
        if found is None:
            data = self._data_file(pos)
            end = data.find(b"\n", offset)
            fields = data[offset:end if end >= 0 else len(data)].decode("utf-8").split(
                " ", 4 + 2 * 255)
            count = int(fields[3], 16)
            found = self._names[key] = tuple(
                (_ADJ_MARKER.sub("", name) if name.endswith(")") else name).replace("_", " ").lower()
                for name in fields[4:4 + 2 * count:2])
        return found

    def _data_file(self, pos: str) -> bytes:
        data = self._data.get(pos)
        if data is None:
            data = self._data[pos] = self._files.read_bytes(f"data.{dict(self._POS_FILES)[pos]}")
        return data

    @property
    def version(self) -> str:
        """The version the adjective data file's licence header states ("3.0"), or "unknown"."""
        if self._version is None:
            head = self._data_file("a")[:5000].decode("utf-8", "replace")
            found = re.search(r"Word[nN]et (\d+|\d+\.\d+) Copyright", head)
            self._version = found.group(1) if found else "unknown"
        return self._version

    def _morphy(self, form: str, pos: str) -> list[str]:
        """nltk's `WordNetCorpusReader._morphy` (exception list, else one round of the
        substitution rules; the forms WordNet lists for `pos`, the word itself first)."""
        exceptions = self._exception_map(pos)
        if form in exceptions:
            forms = exceptions[form]
        else:
            forms = [form[: -len(old)] + new for old, new in _SUBSTITUTIONS[pos]
                     if form.endswith(old)]
        out: list[str] = []
        index = self._lemmas(pos)
        for candidate in [form, *forms]:
            if candidate in index and candidate not in out:
                out.append(candidate)
        return out

    def multiword_lemmas(self) -> frozenset[str]:
        """Lower-cased WordNet lemma names of more than one word (with spaces)."""
        if self._multiword is None:
            self._multiword = frozenset(
                name.replace("_", " ").lower() for pos, _ in self._POS_FILES
                for name in self._lemmas(pos) if "_" in name)
        return self._multiword

    def senses(self, word: str) -> frozenset[tuple[str, int]]:
        """nltk's `synsets(word)` walk (morphy per POS, then offsets), over the index (kept per
        word: the synonym tier asks for a word's senses and for its synonyms)."""
        key = word.lower().replace(" ", "_")
        found = self._senses.get(key)
        if found is None:
            if len(self._senses) >= 1 << 17:  # bounded: a long stream of distinct words
                self._senses.clear()
            found = self._senses[key] = frozenset(
                (pos, offset) for pos, _ in self._POS_FILES for form in self._morphy(key, pos)
                for offset in self.offsets(form, pos))
        return found

    def synonyms(self, word: str) -> frozenset[str]:
        """The lemma names of the synsets of `word` (:meth:`senses`), `word` itself left out."""
        out = {name for pos, offset in self.senses(word) for name in self.names(pos, offset)}
        out.discard(word.lower())
        return frozenset(out)


#: nltk's MORPHOLOGICAL_SUBSTITUTIONS (WordNet's morphy rules), per POS.
_NOUN_RULES = (("s", ""), ("ses", "s"), ("ves", "f"), ("xes", "x"), ("zes", "z"), ("ches", "ch"),
               ("shes", "sh"), ("men", "man"), ("ies", "y"))
_VERB_RULES = (("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""),
               ("ing", "e"), ("ing", ""))
_ADJ_RULES = (("er", ""), ("est", ""), ("er", "e"), ("est", "e"))
_SUBSTITUTIONS = {"n": _NOUN_RULES, "v": _VERB_RULES, "a": _ADJ_RULES, "r": ()}

_ADJ_MARKER = re.compile(r"\((?:a|p|ip)\)$")


class _WordNetFiles:
    """The WordNet data files, from a folder or from inside wordnet.zip (read as raw bytes)."""

    def __init__(self) -> None:
        self.folder: Path | None = None
        self.zip_path: Path | None = None
        for folder in _nltk_dirs():
            if (folder / "corpora" / "wordnet" / "data.noun").is_file():
                self.folder = folder / "corpora" / "wordnet"
                return
            if (folder / "corpora" / "wordnet.zip").is_file():
                self.zip_path = folder / "corpora" / "wordnet.zip"
                return
        raise _missing("WordNet", "wordnet")

    def read(self, name: str) -> str:
        return self.read_bytes(name).decode("utf-8")

    def read_bytes(self, name: str) -> bytes:
        """The bytes of WordNet's file `name`; a file missing or damaged (a copy cut short, a
        zip whose download stopped) is a ResourceMissingError saying how to get it again."""
        import zipfile
        import zlib

        try:
            if self.folder is not None:
                return (self.folder / name).read_bytes()
            assert self.zip_path is not None  # __init__ found a folder or a zip, else raised
            with zipfile.ZipFile(self.zip_path) as archive:
                return archive.read(f"wordnet/{name}")
        except (OSError, KeyError, zipfile.BadZipFile, EOFError, zlib.error) as exc:
            where = self.folder / name if self.folder is not None else f"{self.zip_path} (wordnet/{name})"
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc).strip('"')
            raise ResourceMissingError(
                f"WordNet: cannot read {where}: {reason}; the NLTK 'wordnet' data there is incomplete "
                "or damaged: run `paralign download` again, or set NLTK_DATA to a folder holding it"
            ) from exc


def wordnet_multiword() -> frozenset[str]:
    """WordNet's lemma names of more than one word, lower-cased with spaces (from the index)."""
    return _wordnet_index().multiword_lemmas()


def wordnet_version() -> str:
    """The WordNet version of the data files ("3.0" for NLTK's package)."""
    return _wordnet_index().version


_index: _WordNetIndex | None = None


def _wordnet_index() -> _WordNetIndex:
    """The offset index, built once per process (under the lock, so threads share one build)."""
    global _index
    if _index is None:
        with _lock:
            if _index is None:
                _index = _WordNetIndex()
    return _index


def download_folder(target: str | None = None) -> Path:
    """Where :func:`download` puts the packages: `target`, else nltk's choice (the first folder of
    its search path that exists and can be written to, else ~/nltk_data). ConfigurationError
    when there is none to choose (no home folder), and when `target` is a file, lies under one,
    or cannot be written (:func:`paralign.errors.check_output_folder`): nltk tried every package
    against a file given as --dir, each failing on its own (after the network)."""
    if target is not None:
        return check_output_folder(Path(target).absolute())  # as NLTK_DATA must name it: from any folder
    import nltk.downloader

    try:
        return Path(nltk.downloader.Downloader().default_download_dir())
    except ValueError as exc:  # nltk's "Could not find a default download directory"
        raise ConfigurationError("no folder to download the NLTK data to: no home folder, and no folder "
                                 "NLTK searches can be written to; name one (paralign download --dir DIR)") from exc


def searched(folder: str | Path) -> bool:
    """Whether `folder` is one of the NLTK data folders paralign looks in (NLTK_DATA's, else
    the corpora folder's nltk_data, then NLTK's defaults such as ~/nltk_data)."""
    real = Path(folder).resolve()
    return any(candidate.resolve() == real for candidate in _nltk_dirs())


#: What :func:`fetch` says of a package: fetched (or already there and up to date, as NLTK's
#: data server says); already in the folder, but the server could not be asked whether it is up
#: to date (offline); not there and not fetched.
FETCHED, KEPT, FAILED = "fetched", "kept", "failed"


def held(package: str, folder: str | Path) -> bool:
    """Whether the NLTK data `folder` holds `package` (one of :data:`NLTK_PACKAGE_FILES`' files)."""
    return any((Path(folder) / name).is_file() for name in NLTK_PACKAGE_FILES.get(package, ()))


def held_where(package: str) -> Path | None:
    """The first NLTK data folder paralign searches (:func:`searched`) that holds `package`, or None."""
    return next((folder for folder in _nltk_dirs() if held(package, folder)), None)


def fetch(packages: tuple[str, ...] = NLTK_PACKAGES, target: str | None = None) -> dict[str, str]:
    """Fetch the NLTK packages paralign uses (needs internet) into :func:`download_folder`: each
    package's state, :data:`FETCHED`, :data:`KEPT` or :data:`FAILED` (nltk says why on stderr).
    A package nltk could not fetch that the folder holds already is kept, not failed: offline,
    nltk cannot ask its server whether the copy is up to date, and said every package failed
    though each was there and every command could read it."""
    import nltk

    folder = str(download_folder(target))
    states = {}
    for package in packages:
        if nltk.download(package, download_dir=folder, quiet=True):
            states[package] = FETCHED
        else:
            states[package] = KEPT if held(package, folder) else FAILED
    return states


def download(packages: tuple[str, ...] = NLTK_PACKAGES, target: str | None = None) -> dict[str, bool]:
    """:func:`fetch`, whether each package is in the folder after it (fetched, or kept)."""
    return {package: state != FAILED for package, state in fetch(packages, target).items()}
