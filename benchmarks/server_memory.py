"""The memory of a long-running `paralign serve` under a stream of WMT21 requests.

Starts ``python -m paralign serve --port 0 --format json`` (one server per source tree given
with ``--src NAME=PATH``, PYTHONPATH=PATH, one after the other, so the trees are compared in one
run on the same requests; ``--cache-size NAME=N`` adds ``--cache-size N`` to that server's
command, for a tree that has the option), then sends `--requests` ParaEval requests (``POST /api/paraeval``,
`--config`, default ``default``): request k scores segment k of a WMT21 system (the systems
taken in turn) against reference A, so the vocabulary keeps growing as a real stream's does;
``--pair`` names the language pairs (default de-en; ``cs-en,de-en,ru-en``: their segments one
pair after the other, a stream whose words run out later).
Every `--every` ParaEval requests it also sends one ``/api/align`` and one ``/api/similarity``
request on the same pair. The server's resident set size (psutil; the server process and its
children) is read after start-up and after every 100 ParaEval requests.

Not for: speed (the times printed are the whole stream's, a rough guide) or scores (the tests
and ``paralign paraeval`` check those).

Usage: python benchmarks/server_memory.py --src main=/path/to/main/src --src change=src
       [--src small=src --cache-size small=1000] [--requests 1000] [--every 10] [--pair de-en] [--config default] [--out FILE.md]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
import psutil

from paralign.corpora.wmt import reference_files, system_files
from paralign.web.models import LIMITS

#: RSS is read after this many ParaEval requests.
STEP = 100


def segments(pair: str) -> tuple[list[str], list[list[str]]]:
    """Reference A's segments and each system's, of a WMT21 pair (PARALIGN_DATA)."""
    def lines(path: Path) -> list[str]:
        return path.read_text(encoding="utf-8").splitlines()

    ref = lines(reference_files(None, pair)["A"])
    systems = [lines(path) for _, path in sorted(system_files(None, pair).items())]
    return ref, [hyp for hyp in systems if len(hyp) == len(ref)]


def stream(pairs: list[str], count: int) -> list[tuple[str, str]]:
    """`count` (hypothesis, reference) pairs: request k takes segment k (counted over the pairs'
    segments one pair after the other, then again) of system k (in turn) of its pair, leaving
    out the pairs the server refuses (a text over its length limit or without a word)."""
    loaded = [segments(pair) for pair in pairs]
    total = sum(len(ref) for ref, _ in loaded)
    out: list[tuple[str, str]] = []
    k = 0
    while len(out) < count:
        g = k % total
        for ref, systems in loaded:
            if g < len(ref):
                item = (systems[k % len(systems)][g], ref[g])
                if all(text.strip() and len(text) <= LIMITS["sentence_chars"] for text in item):
                    out.append(item)
                break
            g -= len(ref)
        k += 1
    return out


def start_server(src: str, options: list[str]) -> tuple[subprocess.Popen, str]:
    """`paralign serve` on a free loopback port with PYTHONPATH=src, and its URL once it listens."""
    env = dict(os.environ, PYTHONPATH=str(Path(src).resolve()))
    proc = subprocess.Popen([sys.executable, "-m", "paralign", "serve", "--port", "0", "--format", "json", *options],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if not line:
        proc.wait()
        raise SystemExit(f"paralign serve (PYTHONPATH={src}) exited with {proc.returncode}")
    return proc, json.loads(line)["url"].rstrip("/")


def rss_mb(proc: subprocess.Popen) -> float:
    """Resident set size of the server and its children, MB."""
    main = psutil.Process(proc.pid)
    return sum(p.memory_info().rss for p in [main, *main.children(recursive=True)]) / 2**20


def run(src: str, options: list[str], items: list[tuple[str, str]], every: int, config: str) -> dict:
    """One server's RSS after start-up and every STEP ParaEval requests, and the stream's time."""
    requests = len(items)
    proc, url = start_server(src, options)
    try:
        with httpx.Client(base_url=url, timeout=600) as client:
            client.get("/api/info").raise_for_status()
            samples = [(0, rss_mb(proc))]
            start = time.perf_counter()
            for k, (hyp, ref) in enumerate(items):
                answer = client.post("/api/paraeval", json={"hypothesis": hyp, "references": [ref],
                                                            "config": config})
                answer.raise_for_status()
                if every and k % every == 0:
                    pair_body = {"source": hyp, "target": ref}
                    client.post("/api/align", json=pair_body).raise_for_status()
                    client.post("/api/similarity", json=pair_body).raise_for_status()
                if (k + 1) % STEP == 0 or k + 1 == requests:
                    samples.append((k + 1, rss_mb(proc)))
                    print(f"  {src}: {k + 1} requests, {samples[-1][1]:.0f} MB", file=sys.stderr, flush=True)
            seconds = time.perf_counter() - start
    finally:
        proc.terminate()
        proc.wait(timeout=60)
    return {"samples": samples, "seconds": seconds}


def render(results: dict[str, dict], args: argparse.Namespace, command: str) -> str:
    """The side-by-side table (MB) and the growth from start-up to the last request."""
    names = list(results)
    counts = [n for n, _ in results[names[0]]["samples"]]
    lines = [f"Command: `{command}`", "",
             f"WMT21 {args.pair}, config {args.config}, {args.requests} ParaEval requests "
             f"(+ one align and one similarity request every {args.every}); RSS in MB.", "",
             "| requests | " + " | ".join(names) + " |", "|---:|" + "---:|" * len(names)]
    for i, n in enumerate(counts):
        lines.append(f"| {n} | " + " | ".join(f"{results[m]['samples'][i][1]:.0f}" for m in names) + " |")
    lines.append("| growth after start-up | " + " | ".join(
        f"{results[m]['samples'][-1][1] - results[m]['samples'][0][1]:+.0f}" for m in names) + " |")
    lines.append("| growth over the last half | " + " | ".join(
        f"{results[m]['samples'][-1][1] - results[m]['samples'][len(counts) // 2][1]:+.0f}"
        for m in names) + " |")
    lines.append("| stream time (s) | " + " | ".join(f"{results[m]['seconds']:.0f}" for m in names) + " |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--src", action="append", required=True, metavar="NAME=PATH",
                        help="a source tree's src folder to serve from (repeat to compare)")
    parser.add_argument("--cache-size", action="append", default=[], metavar="NAME=N",
                        help="pass --cache-size N to the server of tree NAME")
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--every", type=int, default=10, help="an align and a similarity request every N")
    parser.add_argument("--pair", default="de-en", help="WMT21 pair(s), comma-separated")
    parser.add_argument("--config", default="default")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    trees = dict(spec.split("=", 1) for spec in args.src)
    sizes = dict(spec.split("=", 1) for spec in args.cache_size)
    items = stream(args.pair.split(","), args.requests)
    results = {name: run(path, ["--cache-size", sizes[name]] if name in sizes else [], items, args.every,
                         args.config) for name, path in trees.items()}
    command = "python benchmarks/server_memory.py " + " ".join(sys.argv[1:])
    text = render(results, args, command)
    print(text)
    if args.out:
        args.out.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
