"""`paralign meta-eval`: system- and segment-level correlation of MT metrics with WMT21 human DA."""

from __future__ import annotations

import argparse
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING

from ..corpora.wmt import (
    WMTPair,
    human_scores_name,
    language_pairs,
    load_wmt,
    reference_files,
    segment_scores_path,
    wmt_dir,
)
from ..errors import (
    ConfigurationError,
    EmptyScoringError,
    FormatError,
    ResourceMissingError,
    counted,
)
from ..metrics import DEFAULT_RESAMPLES, LEVELS
from ..metrics.paraeval.configs import CONFIGS, get_config
from ._commands import add_command
from ._common import (
    add_format,
    add_output,
    add_report,
    check_stdin_once,
    input_name,
    is_stdin,
    non_negative_int,
    open_in,
    positive_int,
    progress,
    table_progress,
    warn,
    write_report,
    write_result,
)
from ._encoder_options import add_encoder_options, check_encoder_options
from ._lists import comma_list
from ._metavars import DIR, LIST, NAME, NAMED_FILE, N
from ._sacrebleu import add_spellings, use_spellings
from ._table_options import (
    add_paraeval_source_options,
    check_paper_options,
    check_table_names,
    paraeval_sources,
    resource_names,
    table_path,
)
from ._warnings import warn_item

if TYPE_CHECKING:  # pragma: no cover
    from ..metrics.correlation import MetaEvaluation
    from ..metrics.given_scores import GivenScores, GivenSystemScores

#: What --encoder and --device reach in this command (its help, and the error when none is used).
ENCODER_USERS = "--paraeval-config contextual (its contextual tier) and a ParaEval metric in --metrics"


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = add_command(
        subparsers, "meta-eval",
        description="Pearson/Spearman/Kendall of each metric's system scores with the DA "
                    "z-scores (HUMAN rows left out), 95% intervals from segment bootstrap, and "
                    "paired tests of each metric's correlations against bleu's and chrf's (when "
                    "measured; one-sided p). "
                    "Systems with an output but no human score, or human scores but no output, "
                    "are left out with a warning (and listed under unscored/missing in JSON; "
                    "two that differ only in case also under case_twins), "
                    "as are those whose output cannot be read (another number of lines than the "
                    "references, not UTF-8: skipped_systems, with file, line and reason); under 3 "
                    "systems left, the system-level correlations are null, with the reason. "
                    "--level segment: WMT DARR Kendall-like tau (pairs of outputs for one source "
                    "whose raw DA differs by > 25; metric ties count as discordant, and without "
                    "ties), Pearson and Kendall tau-b of segment scores with the segment DA "
                    "z-scores; 95% intervals from a bootstrap over source segments (systems with "
                    "no segment score are left out of it with a warning: unjudged in JSON).")
    parser.add_argument("--wmt", default=None, type=wmt_folder, metavar=DIR,
                        help="WMT21 to-English folder (default: <data>/mt/wmt21-toEnglish)")
    parser.add_argument("--pair", required=True, metavar=NAME, help="language pair, e.g. de-en")
    parser.add_argument("--refs", default="A", metavar=LIST, help="reference set, e.g. A or A,B (the metrics task's ref-A, ref-B; default: A)")
    parser.add_argument("--metrics", default="paraeval,bleu,chrf,mup,gm,gm_bp", metavar=LIST,
                        help="comma list: paraeval (the config's headline score, with its P, R "
                             "and F as paraeval_p/_r/_f), paraeval_score (the headline alone, "
                             "reported as paraeval), paraeval_p/_r/_f, bleu, chrf, ter "
                             "(negated: higher is better), mup, gm, gm_bp (default: %(default)s)")
    parser.add_argument("--scores", action="append", default=[], metavar=NAMED_FILE,
                        help="your own metric's scores, meta-evaluated beside --metrics, named NAME "
                             "(default: the file's name without its extension, stdin's stdin, also for a FILE "
                             "whose path holds =; none of | : + # =, the signature's separators, nor | "
                             "in the file's name): "
                             "segment scores, "
                             "system<TAB>segment<TAB>score lines (segment: the 1-based line of the "
                             "system's output; every line of every system correlated), its system "
                             "score their mean; or mt-metrics-eval's SYSNAME SCORE lines (TAB- or "
                             "blank-separated): one line a system (*.sys.score, WMT21's COMET files) "
                             "are system scores, correlated at system level as given, with no "
                             "interval or paired test (nothing to resample); a block of lines a "
                             "system, one a segment in the test set's order (*.seg.score), segment "
                             "scores as above; or a WMT metrics-task submission file (METRIC LP "
                             "TESTSET [DOMAIN [DOCUMENT]] REF SYSTEM [SEGMENT] SCORE, TAB-separated): "
                             "its rows of --pair on newstest2021 (against --refs, when they are against "
                             "several references). A file whose rows (REFERENCE ref-B) "
                             "or name (NAME-refB.seg.score, NAME_ref-B.tsv) say its scores are against another "
                             "reference than --refs is an error; repeatable")
    parser.add_argument("--paraeval-config", default=None, choices=sorted(CONFIGS),
                        metavar=NAME,
                        help="ParaEval config: default (graded lexical), contextual (plus "
                             "contextual word vectors; the neural extra) or paper (the 2006 "
                             "scorer) (default: default)")
    add_paraeval_source_options(parser, "--paraeval-config")
    add_encoder_options(parser, ENCODER_USERS)
    parser.add_argument("--level", choices=LEVELS, default="system",
                        help="system (corpus scores vs system DA), segment (segment scores vs "
                             "segment DA; BLEU = sentence BLEU) or both (default: %(default)s)")
    parser.add_argument("--resamples", type=positive_int, default=None, metavar=N,
                        help=f"bootstrap resamples, N >= 1 (default: {DEFAULT_RESAMPLES})")
    parser.add_argument("--seed", type=non_negative_int, default=12345, metavar=N,
                        help="seed of the bootstrap, >= 0 (default: %(default)s)")
    add_format(parser)
    add_output(parser)
    add_report(parser, "per metric, its system scores against the human scores as a scatter "
               "plot and a table, each correlation and its interval, the paired tests against the "
               "baselines; at segment level, interval plots "
               "of DARR tau and Pearson and a table per metric")
    add_spellings(parser, "meta-eval")
    parser.set_defaults(func=run)


def wmt_folder(text: str) -> str:
    """argparse type: a --wmt folder that exists and holds the WMT21 files (a missing or wrong
    folder is a usage error, found before the data loads)."""
    if not Path(text).is_dir():
        raise argparse.ArgumentTypeError(f"{text}: is a file, not a folder" if Path(text).exists()
                                         else f"{text}: no such folder")
    try:
        wmt_dir(text)
    except ResourceMissingError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def check_pair(wmt: str | None, pair: str, refs: list[str]) -> None:
    """ConfigurationError (a usage error, before the data loads) when the WMT folder has no
    references for `pair`, or not the reference sets `refs`, listing what it has: a typo, an
    X-to-English pair given the other way round (en-de) or a set the pair lacks is the command
    line's mistake, not data missing; and a pair the signature cannot write (``|``:
    :func:`paralign.metrics.meta_signature.pair_part`)."""
    from ..metrics.meta_signature import pair_part

    pair_part(pair, "argument --pair")
    have = language_pairs(wmt)
    if pair not in have:
        meant = _meant_pair(pair, have)
        raise ConfigurationError(f"argument --pair: no pair {pair!r} in {wmt_dir(wmt)}: "
                                 f"it has {', '.join(have) or 'none'}{'' if meant is None else f' (--pair {meant}?)'}")
    sets = list(reference_files(wmt, pair))
    lacking = [name for name in refs if name not in sets]
    if lacking:
        listed = [name if name in sets else _meant_sets(name, sets) for name in refs]
        hint = f" (--refs {','.join(name for name in listed if name)}?)" if all(listed) else ""
        raise ConfigurationError(f"argument --refs: {pair} has no reference set {lacking[0]!r}: "
                                 f"it has {', '.join(sets)}{hint}")


def _meant_pair(pair: str, have: list[str]) -> str | None:
    """The pair of `have` a user who typed `pair` most likely meant, or None: the same languages the
    other way round (``en-de``: the folder's pairs are into English), in another case (``DE-EN``) or
    joined otherwise (``de_en``, ``de2en``)."""
    import re

    langs = [part for part in re.split(r"[-_2\s]+", pair.strip().lower()) if part]
    if len(langs) != 2:
        return None
    return next((known for known in (f"{langs[0]}-{langs[1]}", f"{langs[1]}-{langs[0]}") if known in have), None)


def _meant_sets(name: str, sets: list[str]) -> str | None:
    """The --refs a user who typed the set `name` the pair lacks most likely meant, or None: the
    sets it joins with another separator than the comma (``A+B``, ``A B``, ``A;B``), or the one it names in
    another case or by the metrics task's name of it (``a``, ``ref-A``, ``refB``, the file's
    ``ref.A``), each among the pair's `sets`."""
    import re

    def one(label: str) -> str | None:
        bare = re.sub(r"^ref[-._ ]?", "", label.strip(), flags=re.IGNORECASE)
        return next((known for known in sets if known.lower() == bare.lower()), None)

    parts = [one(part) for part in re.split(r"[+;/&\s]+", name.strip()) if part]
    return ",".join(part for part in parts if part) if parts and all(parts) else None


def reference_sets(text: str) -> list[str]:
    """The --refs list (``A`` or ``A,B``), each set named once (ConfigurationError, a usage
    error, before the data loads): ``A,A`` scored every metric against two copies of one
    reference, as if they were two; and no label the signature cannot write (``|``, ``+``:
    :func:`paralign.metrics.meta_signature.refs_part`); ``A+B`` told to give ``A,B`` besides: the
    signature writes the sets so (``refs:A+B``), and a user typing that was told to name a set
    another way, no word of the comma."""
    from ..metrics.meta_signature import refs_part
    from ..signature import part_fault

    names = comma_list("--refs", text, "A,B")
    twice = next((name for k, name in enumerate(names) if name in names[:k]), None)
    if twice is not None:
        raise ConfigurationError(f"argument --refs: reference set {twice!r} named twice: give each once")
    try:
        refs_part(names, "argument --refs")  # a label the signature cannot write ('|', '+')
    except ConfigurationError as exc:
        if any(part_fault(name) for name in names):  # a '|' or a line break: no list meant
            raise
        listed = ",".join(part.strip() for name in names for part in name.split("+") if part.strip())
        raise ConfigurationError(f"{exc}; several reference sets are separated by commas: --refs {listed}") from None
    return names


#: meta-eval's options that only ParaEval reads, with the value each has when not typed.
PARAEVAL_OPTIONS: tuple[tuple[str, str, list[str] | None], ...] = (
    ("--paraeval-config", "paraeval_config", None), ("--table", "table", []), ("--resources", "resources", None),
    ("--max-length", "max_length", None), ("--min-paraphrase-length", "min_paraphrase_length", None))


def check_paraeval_options(args: argparse.Namespace, names: list[str]) -> None:
    """ConfigurationError (a usage error) when an option of ParaEval's is typed but --metrics
    names no ParaEval metric: the option would be silently unused (a --table not even read), and
    the run taken for one with that config or source. Then --paraeval-config gets its default."""
    if not any(name.startswith("paraeval") for name in names):
        typed = [flag for flag, dest, unset in PARAEVAL_OPTIONS if getattr(args, dest) != unset]
        if typed:
            verb = "matters" if len(typed) == 1 else "matter"
            raise ConfigurationError(f"{', '.join(typed)} only {verb} with a ParaEval metric in --metrics "
                                     f"(paraeval, paraeval_p, ...): add one, or leave "
                                     f"{'it' if len(typed) == 1 else 'them'} out")
    if args.paraeval_config is None:
        args.paraeval_config = "default"


def metric_names(text: str) -> list[str]:
    """The --metrics list (:func:`comma_list`: none, or an empty item, a usage error), each name
    checked (ConfigurationError, a usage error: an unknown one, before the data loads)."""
    from ..metrics.correlation import known_metrics

    known = known_metrics()
    names = comma_list("--metrics", text, f"bleu,chrf; choose from {', '.join(known)}")
    unknown = [name for name in names if name not in known]
    if unknown:
        raise ConfigurationError(f"argument --metrics: unknown metric {unknown[0]!r}; choose from {', '.join(known)}")
    return names


def scores_files(specs: list[str]) -> list[tuple[str, str]]:
    """The --scores list as (name, file): ``NAME=FILE`` or ``FILE`` (named by its stem; so is a
    spec that names an existing file whole: ``runs/lr=3/x.tsv`` is that file, not ``3/x.tsv``
    named ``runs/lr``; stdin, ``-`` or /dev/stdin, is named ``stdin``); ConfigurationError (a usage error, before the data loads) for a name that is a built-in
    metric's or given twice (its rows would be taken for that metric's), or that holds a
    separator of the meta-evaluation's signature (``|:+#=``: it would read otherwise), and for a
    file whose name holds ``|``, which its metric's signature could not name
    (:func:`paralign.signature.file_name_part`)."""
    from ..metrics.correlation import known_metrics
    from ..metrics.given_scores import SCORES_PART, name_fault
    from ..signature import file_name_part

    out: list[tuple[str, str]] = []
    for spec in specs:
        name, sep, path = spec.partition("=")
        if not sep or not name.strip() or Path(spec).is_file():  # '-' was a metric named '-'
            path, name = spec, "stdin" if is_stdin(spec) else Path(spec).stem
        name = name.strip()
        file_name_part(path, SCORES_PART, option="--scores")  # first: NAME=FILE would not help
        fault = name_fault(name)
        if fault is not None:
            raise ConfigurationError(f"argument --scores: {fault}: name the file's metric another way (NAME=FILE)")
        if name in known_metrics() or name in [n for n, _ in out]:
            why = "a built-in metric's" if name in known_metrics() else "given twice"
            raise ConfigurationError(f"argument --scores: the name {name!r} is {why}: name the file's metric "
                                     f"another way (NAME=FILE)")
        out.append((name, path))
    return out


def _given_scores(path: str, name: str, pair: str, refs: list[str]) -> GivenScores | GivenSystemScores:
    """A --scores file's metric, read as every input is (stdin, a FIFO, gzip, a BOM): segment
    scores or system scores, as its lines are laid out (a WMT submission file's rows of `pair`,
    against `refs` when they are against several references)."""
    from ..metrics.given_scores import given_scores
    from ..textio import without_bom

    with open_in(path) as handle:
        lines = [line.rstrip("\n").rstrip("\r") for line in without_bom(handle)]
    return given_scores(input_name(path), name, lines=lines, pair=pair, refs=refs)


def run(args: argparse.Namespace) -> int:
    from ..metrics.correlation import (
        resolve_metrics,  # numpy and scipy: loaded by this command only
    )
    from ..metrics.given_scores import check_levels, check_references, check_scored
    from ..metrics.segment_correlation import meta_evaluate_levels
    from ..metrics.significance import MIN_RESAMPLED

    use_spellings(args, "meta-eval")
    if args.resamples is None:  # None until here: a --paired-bs-n of another count is refused
        args.resamples = DEFAULT_RESAMPLES
    names = metric_names(args.metrics)
    files = scores_files(args.scores)
    check_stdin_once({"scores": [path for _, path in files], "table": [table_path(spec)[0] for spec in args.table]})
    check_table_names("--table", args.table)
    resources = resource_names(args.resources)
    refs = reference_sets(args.refs)
    # the options' own checks (a --device GPU torch does not see too), before any file is read
    check_paraeval_options(args, names)
    check_paper_options(args, args.paraeval_config, "--paraeval-config")
    check_encoder_options(args, any(n.startswith("paraeval") for n in names)
                          and "contextual" in get_config(args.paraeval_config).tiers, ENCODER_USERS)
    check_pair(args.wmt, args.pair, refs)  # before --scores are read: a submission file's rows are --pair's
    own = [_given_scores(path, name, args.pair, refs) for name, path in files]
    check_levels(own, args.level, "--level")  # system scores at --level segment: a usage error before the data loads
    check_references(own, refs, list(reference_files(args.wmt, args.pair)))  # scores against ref B, --refs A
    data = load_wmt(args.wmt, args.pair, refs, segments=args.level != "system")  # only the sets scored against
    for name in data.missing:
        warn(f"{args.pair}: system {name!r} has human scores but no output file: left out{_twin(data, name, 'output')}")
    for name in data.unscored:
        warn(f"{args.pair}: system {name!r} has an output file but no human score: left out"
             f"{_twin(data, name, 'human-scored system')}")
    for skipped in data.skipped:
        warn_item(f"{args.pair}: system {skipped.name!r} left out: {skipped}")
    for name in data.unjudged:
        warn(f"{args.pair}: system {name!r} has no segment scores in {segment_scores_path(args.wmt, args.pair)} "
             f"(SYS_ID {data.human[name].sys_id!r}): left out of the segment level")
    if not data.systems:
        raise EmptyScoringError(_nothing_to_correlate(data))
    check_scored(own, data)  # a system a --scores file lacks: before the scorer loads
    if len(data) < MIN_RESAMPLED:  # the references' fault, not an option's (resample_counts: exit 2)
        raise FormatError(f"{counted(len(data), 'segment')}: the bootstrap over segments needs at least "
                          f"{MIN_RESAMPLED}", source=str(reference_files(args.wmt, args.pair)[refs[0]]))
    scorer = None
    if any(n.startswith("paraeval") for n in names):
        from ..metrics.paraeval.scoring import scorer as paraeval_scorer

        options = ({} if args.min_paraphrase_length is None
                   else {"min_paraphrase_length": args.min_paraphrase_length})
        with ExitStack() as stack:  # a table from stdin is read whole as it loads
            sources = paraeval_sources(stack, args.paraeval_config, resources, args.table, table_progress())
        scorer = paraeval_scorer(args.paraeval_config, sources=sources, max_length=args.max_length,
                                 encoder=args.encoder, device=args.device, **options)
    result = meta_evaluate_levels(data, refs,
                                  [*resolve_metrics(names, scorer), *own], level=args.level,
                                  n_resamples=args.resamples, seed=args.seed, progress=progress)
    for reason in result.undefined:
        warn(f"{args.pair}: no system-level correlation (n/a): {reason}")
    for reason in result.segment_undefined:
        warn(f"{args.pair}: no segment-level Pearson or Kendall (n/a): {reason}")
    write_result(args, result.to_dict(), lambda _: render(result))
    if args.report is not None:
        from ..viz.reports import meta_eval_report

        write_report(args.report, meta_eval_report(result))
    return 0


def _twin(data: WMTPair, name: str, what: str) -> str:
    """The hint after the warning of a system left out, `name`, when `what` (the output, the
    human-scored system) of another name differs from it only in case (:meth:`WMTPair.case_twin`)."""
    twin = data.case_twin(name)
    if twin is None:
        return ""
    return (f" (the {what} {twin!r} differs only in case: not matched, as the names of "
            f"{human_scores_name(data.pair)} must be those of the output files; rename one)")


def _nothing_to_correlate(data: WMTPair) -> str:
    """Why no system is left to correlate (`data` has none): each file bad, or no human score's
    name that of an output file."""
    if data.skipped:
        if len(data.skipped) == 1:
            return f"{data.pair}: the one system with human scores could not be read (reported above)"
        return (f"{data.pair}: none of the {counted(len(data.skipped), 'system')} with human scores could be "
                "read (each reported above)")
    return (f"{data.pair}: no system has both an output file and a human score "
            f"({counted(len(data.missing), 'system')} scored {'has' if len(data.missing) == 1 else 'have'} no output, "
            f"{counted(len(data.unscored), 'output')} no score; each reported above): the names of "
            f"{human_scores_name(data.pair)} (its last field) must be those of the output files")


def render(result: MetaEvaluation) -> str:
    """Plain-text tables (system level, segment level or both): one row per metric,
    value [low, high] per correlation, and the DARR pair counts at segment level. The figures are
    the JSON output's (``result.to_dict()``, 4 decimals) shown to 3, as the report shows them:
    rounding the unrounded values instead made text and report differ in the last digit (0.02151:
    0.022 in text, 0.0215 in JSON, 0.021 in the report)."""
    from ..metrics.correlation import CORRELATIONS

    data = result.to_dict()
    # the metric column: as wide as the longest name needs (a --scores name may be long)
    width = max([12, *(len(name) + 2 for name in [*result.metrics, *result.segment])])
    lines = [f"{result.pair} refs {'+'.join(result.refs)}: {counted(len(result.systems), 'system')}, "
             f"{counted(result.n_resamples, 'resample')} (seed {result.seed})"]
    if result.level != "segment":
        lines.append("metric".ljust(width) + "".join(f"{k:<26}" for k in CORRELATIONS))
        for name, metric in result.metrics.items():  # data["metrics"] is each one's to_dict()
            lines.append(name.ljust(width) + _cells(metric.to_dict(), CORRELATIONS))
        for reason in result.undefined:
            lines.append(f"system level n/a: {reason}")
        lines.extend(f"{name}: {reason}" for name, reason in result.without_intervals)
        lines.extend(_render_tests(data, width))
    if result.level != "system":
        lines.extend(_render_segment(data, width))
        lines.extend(f"segment level n/a (pearson, kendall): {reason}" for reason in result.segment_undefined)
        lines.extend(f"segment level, left out: {name} (system scores only)" for name, _ in result.without_intervals)
    for name, sig in result.signatures.items():
        lines.append(f"{name}: {sig}")
    lines.extend(f"{label}: {', '.join(names)}" for label, names in result.left_out)
    lines.append(f"signature: {result.signature}")  # last, as every evaluator's
    return "\n".join(lines)


def _render_tests(data: dict, width: int) -> list[str]:
    """The paired bootstrap tests of the system-level correlations (JSON: each metric's "vs"),
    one row a metric and the baseline it is tested against: the difference of the two
    correlations, its 95% interval and the one-sided p (the share of resamples where the
    metric's correlation is not above the baseline's). None when no baseline was measured."""
    from ..metrics.correlation import CORRELATIONS

    rows = [(name, other, by_kind) for name, metric in data["metrics"].items()
            for other, by_kind in metric.get("vs", {}).items()]
    if not rows:
        return []
    lines = ["paired tests (metric minus baseline: difference [95% interval], p = share of "
             "resamples where the metric is not above)",
             "metric".ljust(width) + "baseline".ljust(width) + "".join(f"{k:<34}" for k in CORRELATIONS)]
    for name, other, by_kind in rows:
        cells = "".join(f"{_signed(t['value'])} [{_num(t['low'])}, {_num(t['high'])}] "
                        f"p {_num(t['p_value'], 2)}".ljust(34)
                        for t in (by_kind[k] for k in CORRELATIONS))
        lines.append(f"{name.ljust(width)}{other.ljust(width)}{cells}".rstrip())
    return lines


def _signed(value: float | None) -> str:
    return "n/a" if value is None else f"{value:+.3f}"


def _cells(correlations: dict, kinds: tuple[str, ...]) -> str:
    """value [low, high] of each of `kinds` in a metric's JSON figures."""
    return "".join(f"{_num(correlations[k]['value'])} [{_num(correlations[k]['low'])}, "
                   f"{_num(correlations[k]['high'])}]".ljust(26) for k in kinds)


def _render_segment(data: dict, width: int) -> list[str]:
    from ..metrics.segment_correlation import SEGMENT_CORRELATIONS, segment_summary

    first = next(iter(data["segment"].values()), None)
    if first is None:
        return []
    lines = [f"segment level: {segment_summary(first['judged'], first['darr_pairs'])}",
             "metric".ljust(width) + "".join(f"{k:<26}" for k in SEGMENT_CORRELATIONS)
             + "conc/disc/ties"]
    for name, metric in data["segment"].items():
        counts = metric["darr_pairs"]
        lines.append(name.ljust(width) + _cells(metric, SEGMENT_CORRELATIONS)
                     + f"{counts['concordant']}/{counts['discordant']}/{counts['ties']}")
    return lines


def _num(value: float | None, digits: int = 3) -> str:
    """A JSON figure shown to `digits` decimals; None (an undefined one: NaN) as n/a."""
    return "n/a" if value is None else f"{value:.{digits}f}"
