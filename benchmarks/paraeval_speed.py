"""ParaEval speed beside sacrebleu BLEU: every WMT21 de-en system against references A and B.

Both metrics score the same 19 systems x 1,000 segments x 2 references in the same process.
BLEU is timed the way people call it (`BLEU().corpus_score(hyps, refs)` per system). ParaEval
is timed cold (references indexed, paraphrase lookups cached on first use) and, separately, the
one-off loading of PPDB and WordNet, which a long-running process pays once.

`--cli` (issue 21's acceptance): one `paralign paraeval -r REF_A -i SYS1 ... -i SYS19` call
(a subprocess: start-up, loading PPDB and WordNet, indexing the reference once, scoring every
system) against sacrebleu's BLEU over the same 19 files, timed twice in the same run: one
`sacrebleu REF_A -i SYS1 ... SYS19 -m bleu` call (a subprocess too) and in-process
`BLEU().corpus_score` per system. Each is run `--repeat` times, alternating; the median counts.
Wall time is the measure; the CPU time (user + system) of each subprocess is reported beside it,
since on a shared machine the wall time also counts waiting for a core. paraeval is timed twice
in each round: with its disk cache (``paralign.disk_cache``: PPDB's table read back, as every
call after a machine's first one does; a fresh PARALIGN_CACHE_DIR filled by one untimed call
first, whose time is reported as ``first_call_s``) and without (PARALIGN_CACHE_DIR empty: PPDB
parsed from its file). Every call loads WordNet and indexes the reference from the files.

Usage: .venv/bin/python benchmarks/paraeval_speed.py [--pair de-en] [--resources ppdb,wordnet]
       [--table TABLE ...] [--repeat 1]
       .venv/bin/python benchmarks/paraeval_speed.py --cli [--config default] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sacrebleu.metrics import BLEU

from paralign.corpora.wmt import load_wmt, reference_files, system_files
from paralign.metrics.paraeval import ParaEval, build_sources, fast_wordnet_synonyms


def _timed(argv: list[str], cache: str | None = None) -> tuple[float, str, float]:
    """Wall time, stdout and the CPU time (user + system) of one subprocess (`cache`: its
    PARALIGN_CACHE_DIR, "" for none; None: the environment's)."""
    env = None if cache is None else {**os.environ, "PARALIGN_CACHE_DIR": cache}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, check=True, env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, done.stdout, cpu


def cli(pair: str, config: str, repeat: int) -> dict:
    """One paralign paraeval call over every system against reference A, beside sacrebleu's."""
    ref = str(reference_files(None, pair)["A"])
    data = load_wmt(None, pair)  # the human-scored systems, as meta-eval scores them
    files = system_files(None, pair)
    hyps = [str(files[name]) for name in data.systems]
    python = sys.executable
    paraeval = [python, "-m", "paralign", "paraeval", "-r", ref, "--config", config,
                "--format", "json"] + [a for h in hyps for a in ("-i", h)]
    sacrebleu = [str(Path(python).parent / "sacrebleu"), ref, "-m", "bleu", "-i", *hyps]
    refs = [list(data.references["A"])]
    runs = []
    cache = tempfile.mkdtemp(prefix="paraeval-speed-cache-")
    first_call, _, _ = _timed(paraeval, cache)  # fills the disk cache, as a machine's first call does
    for _ in range(repeat):
        t_pe, out, cpu_pe = _timed(paraeval, cache)
        t_off, _, cpu_off = _timed(paraeval, "")
        t_sb, _, cpu_sb = _timed(sacrebleu)
        start = time.perf_counter()
        for name in data.systems:
            BLEU().corpus_score(list(data.systems[name]), refs)
        t_lib = time.perf_counter() - start
        runs.append({"paraeval_cli_s": round(t_pe, 2), "paraeval_cli_no_cache_s": round(t_off, 2),
                     "paraeval_cli_no_cache_cpu_s": round(cpu_off, 2), "sacrebleu_cli_s": round(t_sb, 2),
                     "bleu_in_process_s": round(t_lib, 2), "paraeval_cli_cpu_s": round(cpu_pe, 2),
                     "sacrebleu_cli_cpu_s": round(cpu_sb, 2)})
    shutil.rmtree(cache, ignore_errors=True)
    med = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
    result = json.loads(out)
    return {"pair": pair, "systems": len(hyps), "config": config, "runs": runs, "median": med,
            "first_call_s": round(first_call, 2),
            "ratio_vs_sacrebleu_cli": round(med["paraeval_cli_s"] / med["sacrebleu_cli_s"], 2),
            "ratio_no_cache_vs_sacrebleu_cli": round(med["paraeval_cli_no_cache_s"] / med["sacrebleu_cli_s"], 2),
            "ratio_vs_bleu_in_process": round(med["paraeval_cli_s"] / med["bleu_in_process_s"], 2),
            "cpu_ratio_vs_sacrebleu_cli": round(med["paraeval_cli_cpu_s"] / med["sacrebleu_cli_cpu_s"], 2),
            "load_average": [round(x, 2) for x in os.getloadavg()],
            "signature": result["systems"][0]["signature"],
            "command": " ".join(paraeval[1:6]) + " --config " + config + " --format json -i ... (x19)"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pair", default="de-en")
    parser.add_argument("--resources", default="ppdb,wordnet")
    parser.add_argument("--table", action="append", default=[])
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--cli", action="store_true",
                        help="time one paralign paraeval call against sacrebleu (reference A)")
    parser.add_argument("--config", default="default")
    args = parser.parse_args()
    if args.cli:
        print(json.dumps(cli(args.pair, args.config, args.repeat), indent=1))
        return 0
    data = load_wmt(None, args.pair)
    refs = [list(r) for r in data.reference_streams(["A", "B"])]
    systems = {name: list(h) for name, h in data.systems.items()}

    t0 = time.perf_counter()
    sources = build_sources(args.resources.split(","), args.table)
    if "wordnet" in args.resources:
        fast_wordnet_synonyms("warm")  # WordNet reader + offset index
    load = time.perf_counter() - t0

    runs = []
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        bleu = {n: BLEU().corpus_score(h, refs).score for n, h in systems.items()}
        t_bleu = time.perf_counter() - t0
        scorer = ParaEval(sources)  # fresh: no cached lookups or references
        t0 = time.perf_counter()
        prepared = scorer.prepare(refs)
        pe = {n: scorer.corpus_score(h, prepared).f for n, h in systems.items()}
        t_pe = time.perf_counter() - t0
        runs.append({"bleu_s": round(t_bleu, 2), "paraeval_s": round(t_pe, 2),
                     "ratio": round(t_pe / t_bleu, 2)})
    first_f = next(iter(pe.values()))  # None only for a corpus whose references have no words
    result = {"pair": args.pair, "systems": len(systems), "segments": len(data),
              "references": 2, "resource_load_s": round(load, 2), "runs": runs,
              "signature": scorer.signature(2),
              "example": {"system": next(iter(systems)), "bleu": round(next(iter(bleu.values())), 2),
                          "paraeval_f": None if first_f is None else round(first_f, 4)}}
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
