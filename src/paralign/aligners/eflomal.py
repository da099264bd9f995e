"""Word alignment of a whole parallel corpus with eflomal (Östling & Tiedemann 2016), symmetrised.

eflomal is an unsupervised Bayesian IBM-model aligner: it needs the whole corpus at once for its
statistics, so alignment is one stage over a corpus (not per sentence pair).  Both directions
are aligned in one run and combined with `paralign.alignment.symmetrize` (intersection, union,
grow-diag, grow-diag-final, grow-diag-final-and).  Output is Pharaoh (`i-j`, 0-based).

Tokenisation: :func:`paralign.tokenizers.tokenize` (`whitespace`, `moses` or `regex`: see there;
imported here, its old home, so ``paralign.aligners.eflomal.tokenize`` still works).
eflomal itself compares words case-insensitively; `lowercase` decides the case of the tokens
we write and extract phrases from.
"""

from __future__ import annotations

import contextlib
import itertools
import shutil
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from ..alignment import Alignment, Link, symmetrize
from ..corpora.parallel import DEFAULT_MAX_TOKENS, ParallelStats, iter_parallel
from ..errors import ConfigurationError, FormatError, MismatchError, written_in_place
from ..tables import atomic_path
from ..textio import open_text
from ..tokenizers import CORPUS_TOKENIZERS, DEFAULT_CORPUS_TOKENIZER, tokenize

SYMMETRIZATIONS = ("intersection", "union", "grow-diag", "grow-diag-final", "grow-diag-final-and")
#: The most tokens of a sentence eflomal aligns: it gives a longer one (on either side) no link.
EFLOMAL_MAX_TOKENS = 1023


def check_symmetrization(method: str) -> str:
    """Return `method` if it is a known symmetrization; raise ConfigurationError otherwise."""
    if method not in SYMMETRIZATIONS:
        raise ConfigurationError(
            f"unknown symmetrization {method!r}: use one of {', '.join(SYMMETRIZATIONS)}"
        )
    return method


def parse_links(text: str, source: str, line: int) -> frozenset[Link]:
    """Links of one Pharaoh line of `i-j` items; FormatError names file and line."""
    links = []
    for item in text.split():
        i, sep, j = item.partition("-")
        if not sep or not i.isdigit() or not j.isdigit():
            raise FormatError(f"malformed link {item!r}", source=source, line=line)
        links.append((int(i), int(j)))
    return frozenset(links)


def run_eflomal(
    source_lines: Iterable[str],
    target_lines: Iterable[str],
    forward_path: str | Path,
    backward_path: str | Path,
    *,
    model: int = 3,
    n_iterations: int | None = None,
    n_samplers: int = 3,
    rel_iterations: float = 1.0,
    source_name: str = "source",
    target_name: str = "target",
    priors: str | Path | None = None,
) -> None:
    """Align tokenised lines (tokens separated by spaces) both ways; write the two link files.

    `priors`: a priors file (:func:`write_priors`), so that parts of a corpus aligned apart
    share what the aligner learnt from a sample of it.

    `n_iterations` (per model stage: IBM1, HMM, fertility) defaults to eflomal's own choice,
    which grows as the corpus shrinks; `rel_iterations` scales that default.

    Both files hold `i-j` links with i in the source and j in the target (eflomal's
    convention), one line per sentence pair (empty for an empty sentence).  No lines at all
    raise FormatError naming `source_name` and `target_name` (eflomal would divide by zero).
    """
    source_iter, target_iter = iter(source_lines), iter(target_lines)
    first_source, first_target = next(source_iter, None), next(target_iter, None)
    if first_source is None and first_target is None:
        raise FormatError("no sentence pairs to align", source=_names(source_name, target_name))
    if first_source is not None:
        source_lines = itertools.chain([first_source], source_iter)
    if first_target is not None:
        target_lines = itertools.chain([first_target], target_iter)
    try:
        import eflomal
    except ImportError as exc:  # pragma: no cover - a hard dependency
        from ..errors import ResourceMissingError

        raise ResourceMissingError("eflomal is not installed: pip install eflomal") from exc
    iterations = None if n_iterations is None else (n_iterations,) * 3  # per model stage
    aligner = eflomal.Aligner(
        model=model, n_iterations=iterations, n_samplers=n_samplers, rel_iterations=rel_iterations
    )
    with contextlib.ExitStack() as stack:
        priors_input = None if priors is None else stack.enter_context(open(priors, encoding="utf-8"))
        try:
            aligner.align(
                source_lines,
                target_lines,
                links_filename_fwd=str(forward_path),
                links_filename_rev=str(backward_path),
                priors_input=priors_input,
                quiet=True,
            )
        except ValueError as exc:  # eflomal's "Mismatched file sizes"
            raise MismatchError(f"eflomal: {exc}") from exc


def write_priors(source_path: str | Path, target_path: str | Path, forward_path: str | Path,
                 backward_path: str | Path, output_path: str | Path) -> None:
    """eflomal's priors (lexical, HMM, fertility) from tokenised files and their two directional
    link files (as `align_files(..., keep_directional=True)` keeps them), written atomically."""
    import eflomal

    with open(source_path, encoding="utf-8") as src, open(target_path, encoding="utf-8") as tgt, \
            open(forward_path, encoding="utf-8") as fwd, open(backward_path, encoding="utf-8") as bwd:
        priors = eflomal.calculate_priors(src, tgt, fwd, bwd)
    with atomic_path(output_path) as tmp, open(tmp, "w", encoding="utf-8") as out:
        eflomal.write_priors(out, *priors)


def _names(source_name: str, target_name: str) -> str:
    return source_name if source_name == target_name else f"{source_name}, {target_name}"


def iter_symmetrized(
    forward_path: str | Path, backward_path: str | Path, method: str = "grow-diag-final-and"
) -> Iterator[frozenset[Link]]:
    """Stream the symmetrised links of two eflomal link files, line by line."""
    check_symmetrization(method)
    with open(forward_path, encoding="utf-8") as fwd, open(backward_path, encoding="utf-8") as bwd:
        for number, (f_line, b_line) in enumerate(zip(fwd, bwd, strict=True), start=1):
            forward = parse_links(f_line, str(forward_path), number)
            backward = parse_links(b_line, str(backward_path), number)
            yield symmetrize(forward, backward, method)


def links_to_pharaoh(links: Iterable[Link]) -> str:
    """Format links as one Pharaoh line (`i-j` items, sorted, space-separated)."""
    return " ".join(map("%d-%d".__mod__, sorted(links)))


def align_files(
    source_path: str | Path,
    target_path: str | Path,
    output_path: str | Path,
    *,
    symmetrization: str = "grow-diag-final-and",
    keep_directional: bool = False,
    **eflomal_options: Any,
) -> int:
    """Align two tokenised files (one sentence a line); write symmetrised Pharaoh atomically
    (gzip when the output's name ends in .gz, as every output of paralign).

    Returns the number of lines.  With `keep_directional`, the raw forward/backward link files
    are kept beside the output as `<output>.fwd` and `<output>.rev`.
    """
    check_symmetrization(symmetrization)
    output_path = Path(output_path)
    output_path.parent.mkdir(parents=True, exist_ok=True)
    # beside the output (kept link files are moved, not copied), but for a stream written in
    # place (/dev/null, a FIFO), whose folder need not be writable
    with tempfile.TemporaryDirectory(dir=None if written_in_place(output_path) else output_path.parent) as tmp:
        forward, backward = Path(tmp) / "fwd", Path(tmp) / "rev"
        with open(source_path, encoding="utf-8") as src, open(target_path, encoding="utf-8") as tgt:
            run_eflomal(src, tgt, forward, backward, source_name=str(source_path),
                        target_name=str(target_path), **eflomal_options)
        count = 0
        with open_text(output_path, "wt") as out:  # atomic; gzip when the name ends in .gz
            for links in iter_symmetrized(forward, backward, symmetrization):
                out.write(links_to_pharaoh(links) + "\n")
                count += 1
        if keep_directional:
            for raw, suffix in ((forward, ".fwd"), (backward, ".rev")):
                with atomic_path(output_path.with_name(output_path.name + suffix)) as dest:
                    raw.replace(dest)
    return count


def word_align_files(
    source_path: str | Path,
    target_path: str | Path,
    output: str | Path,
    *,
    symmetrization: str = "grow-diag-final-and",
    tokenizer: str = DEFAULT_CORPUS_TOKENIZER,
    lowercase: bool = True,
    target_tokenizer: str | None = None,
    tokens_prefix: Path | None = None,
    max_tokens: int = DEFAULT_MAX_TOKENS,
    encoding_errors: str = "strict",
    **eflomal_options: Any,
) -> dict[str, Any]:
    """Align a raw line-aligned corpus (checked reading); Pharaoh output stays line-aligned.

    Empty and over-long line pairs get an empty alignment line (and are counted, with a
    `ParallelCorpusWarning`): over-long, a side of more than `max_tokens` tokens as the tokenizer
    splits it (:func:`token_limit`), or of more than `EFLOMAL_MAX_TOKENS`, which eflomal cannot
    align; empty, no token on a side.  `output` is a file (the CLI copies it to stdout).  `tokens_prefix` also
    keeps the tokenised sides (`PREFIX.src`, `PREFIX.tgt`), whose indices the links refer to.
    `target_tokenizer` splits the target side (default: `tokenizer`), as the pivot pipeline's
    `foreign_tokenizer` does; both default to the pipeline's own default, so that the links
    index the tokens it reads with its defaults. `lowercase` (the pipeline's default too) is the
    case of the tokens kept: eflomal compares words without case, so the links are the same.
    Empty files (no line pairs) raise FormatError naming them.

    Returns the report: the output, the two tokenizers (a Pharaoh file cannot say which tokens
    its numbers index, and the table pipelines must be given the same), and the line counts.
    """
    check_symmetrization(symmetrization)
    if str(output) in ("", "-"):
        raise ConfigurationError("word_align_files writes to a file; give an output path, not '-'")
    stats = ParallelStats()
    with tempfile.TemporaryDirectory() as tmp:
        src_tok, tgt_tok = Path(tmp) / "src", Path(tmp) / "tgt"
        limit = token_limit(max_tokens)
        with open(src_tok, "w", encoding="utf-8") as src_out, open(tgt_tok, "w", encoding="utf-8") as tgt_out:
            for item in iter_parallel(  # --max-tokens counts the tokens below, not white-space ones
                source_path, target_path, max_tokens=0, errors=encoding_errors,
                stats=stats, keep_skipped=True,
            ):
                src = tokenize(item.source, tokenizer, lowercase)
                tgt = tokenize(item.target, target_tokenizer or tokenizer, lowercase)
                if item.source and not alignable(src, tgt, stats, item.line, limit):
                    src = tgt = []
                src_out.write(" ".join(src) + "\n")
                tgt_out.write(" ".join(tgt) + "\n")
        if not stats.lines:
            raise FormatError("no sentence pairs to align", source=_names(str(source_path), str(target_path)))
        if not stats.kept:  # every line empty or over-long: nothing to align is an error
            raise FormatError(
                f"no usable sentence pair to align: all {stats.lines} line pairs empty or over-long",
                source=_names(str(source_path), str(target_path)),
            )
        align_files(src_tok, tgt_tok, Path(output), symmetrization=symmetrization, **eflomal_options)
        if tokens_prefix is not None:
            for tok, suffix in ((src_tok, ".src"), (tgt_tok, ".tgt")):
                shutil.copyfile(tok, tokens_prefix.with_name(tokens_prefix.name + suffix))
    return {
        "output": str(output),
        "tokenizer": tokenizer,
        "target_tokenizer": target_tokenizer or tokenizer,
        "lines": stats.lines,
        "aligned": stats.kept,
        "empty": stats.empty,
        "too_long": stats.too_long,
        "replaced": stats.replaced,
    }


def token_limit(max_tokens: int, eflomal_aligns: bool = True) -> int | None:
    """The most tokens a side of a usable line pair may have (:func:`alignable`'s `limit`; None:
    no limit): `max_tokens` (<= 0: none), counted in the tokens the tokenizer gives, those the
    links index and phrases are extracted from (the rule of `word-align`, `pivot` and
    `paraphrase-table --max-tokens`), and when eflomal aligns them at most `EFLOMAL_MAX_TOKENS`."""
    limits = [max_tokens] if max_tokens > 0 else []
    return min([*limits, *([EFLOMAL_MAX_TOKENS] if eflomal_aligns else [])], default=None)


def alignable(source: Sequence[str], target: Sequence[str], stats: ParallelStats, line: int,
              limit: int | None = EFLOMAL_MAX_TOKENS) -> bool:
    """Whether a kept line pair of these tokens can be aligned; if not, it is counted as the
    reader (`iter_parallel`) counts a skipped pair: empty (no token on a side) or too long (a
    side over `limit`: :func:`token_limit`'s, `--max-tokens` and eflomal's, which leaves a longer
    sentence without a link; None: none)."""
    if source and target and (limit is None or max(len(source), len(target)) <= limit):
        return True
    stats.kept -= 1
    if source and target:
        stats.too_long += 1
    else:
        stats.empty += 1
    stats.note_skip(line)
    return False


def align_tokenized(
    source: Sequence[Sequence[str]],
    target: Sequence[Sequence[str]],
    *,
    symmetrization: str = "grow-diag-final-and",
    **eflomal_options: Any,
) -> list[Alignment]:
    """Align a corpus of token lists in memory (eflomal trains on exactly these pairs)."""
    check_symmetrization(symmetrization)
    if len(source) != len(target):
        raise MismatchError(f"{len(source)} source sentences but {len(target)} target sentences")
    if not source:
        return []
    with tempfile.TemporaryDirectory() as tmp:
        forward, backward = Path(tmp) / "fwd", Path(tmp) / "rev"
        run_eflomal(
            (" ".join(tokens) for tokens in source),
            (" ".join(tokens) for tokens in target),
            forward,
            backward,
            **eflomal_options,
        )
        return [Alignment(sure=links) for links in iter_symmetrized(forward, backward, symmetrization)]


class EflomalAligner:
    """Corpus-level aligner with the same `align_many` interface as the Sultan aligner.

    `align_many(pairs)` trains eflomal on exactly those pairs and returns one `Alignment`
    (sure links) per pair; strings are tokenised with `tokenizer`, token lists kept as they are.
    `align(source, target)` aligns a single pair (poor statistics: use `align_many`).
    """

    def __init__(
        self,
        symmetrization: str = "grow-diag-final-and",
        *,
        tokenizer: str = DEFAULT_CORPUS_TOKENIZER,
        lowercase: bool = True,
        model: int = 3,
        n_iterations: int | None = None,
    ) -> None:
        self.symmetrization = check_symmetrization(symmetrization)
        if tokenizer not in CORPUS_TOKENIZERS:
            raise ConfigurationError(f"unknown tokenizer {tokenizer!r}: use one of {', '.join(CORPUS_TOKENIZERS)}")
        self.tokenizer = tokenizer
        self.lowercase = lowercase
        self.options = {"model": model, "n_iterations": n_iterations}

    def tokens(self, item: str | Sequence[str]) -> list[str]:
        """Tokenise a string with the configured tokenizer; copy a token list (lower-cased if set)."""
        if isinstance(item, str):
            return tokenize(item, self.tokenizer, self.lowercase)
        return [token.lower() for token in item] if self.lowercase else list(item)

    def align_many(
        self, pairs: Iterable[tuple[str | Sequence[str], str | Sequence[str]]], workers: int = 1
    ) -> list[Alignment]:
        """Train eflomal on exactly these pairs and return one alignment per pair.

        `workers` is accepted for interface compatibility with the Sultan aligner and ignored.
        """
        source, target = [], []
        for src, tgt in pairs:
            source.append(self.tokens(src))
            target.append(self.tokens(tgt))
        return align_tokenized(source, target, symmetrization=self.symmetrization, **self.options)

    def align(self, source: str | Sequence[str], target: str | Sequence[str]) -> Alignment:
        """Align a single pair on its own (poor statistics: prefer `align_many`)."""
        return self.align_many([(source, target)])[0]
