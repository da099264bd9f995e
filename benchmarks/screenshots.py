"""The README's screenshots: the align page of `paralign serve`, a lattice drawing, the ParaEval
page (the default config's matches by tier) and the demo's HTML report, each rendered by a real
Chromium (Debian's `chromium`, driven by playwright).

    PYTHONPATH=src python benchmarks/screenshots.py [--out docs/images]

writes serve-align.png, serve-lattice.png, serve-paraeval.png, serve-batch.png (the batch similarity
page: pasted pairs, one of them bad) and demo-report.png. The helpers (`find_chromium`,
`serving`, `launch`) are also what the browser tests (tests/cli/test_serve.py) use, so the
pictures are taken the way the tests drive the app.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Iterator, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: Where a browser is looked for: $PARALIGN_CHROMIUM, then Debian's and other usual names.
BROWSERS = ("/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome")
ALIGN_EXAMPLE = ("The cat sat quietly on the mat in the morning.", "In the morning a cat was sitting on the mat.")
LATTICE_EXAMPLE = ("the cat sat on the mat", "a cat was sitting on the mat", "the cat sat on the rug",
                   "a small cat sat on the mat")
PARAEVAL_EXAMPLE = ("the bombings sat down quickly on the mat", ["a dog barked", "a bombing was sitting fast on the rug"])
BATCH_EXAMPLE = ("The cat sat on the mat.\tA cat was sitting on the mat.",
                 "He bought a new car yesterday.\tYesterday he purchased a new automobile.",
                 "The meeting was postponed.\tThe weather is lovely today.",
                 "a line without its second sentence",
                 "Prices rose sharply in March.\tIn March, prices went up steeply.")


def find_chromium() -> str | None:
    """The path of a Chromium to drive, or None."""
    for name in (os.environ.get("PARALIGN_CHROMIUM"), *BROWSERS):
        if name and (found := shutil.which(name) or (Path(name).is_file() and name)):
            return str(found)
    return None


def _first_line(stream, timeout: float) -> str | None:
    """The first line of `stream`, or None after `timeout` seconds (read in a thread)."""
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: lines.put(stream.readline()), daemon=True).start()
    try:
        return lines.get(timeout=timeout)
    except queue.Empty:
        return None


@contextlib.contextmanager
def serving(args: Sequence[str] = (), *, timeout: float = 300.0, stop_after: float = 20.0) -> Iterator[str]:
    """Run `paralign serve --port 0 --format json ARGS` in a subprocess on a free loopback port;
    yield its URL once it answers; always stop it (SIGINT, then SIGKILL after `stop_after` s)."""
    import paralign

    env = dict(os.environ)
    src = str(Path(paralign.__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join(p for p in (src, env.get("PYTHONPATH")) if p)
    with tempfile.TemporaryFile("w+") as errors:
        process = subprocess.Popen(
            [sys.executable, "-m", "paralign", "serve", "--host", "127.0.0.1", "--port", "0", "--format", "json",
             *args], stdout=subprocess.PIPE, stderr=errors, text=True, env=env)
        try:
            line = _first_line(process.stdout, timeout)
            if not line:
                errors.seek(0)
                raise RuntimeError(f"paralign serve did not start in {timeout:.0f} s "
                                   f"(exit {process.poll()}): {errors.read()[-2000:]}")
            url = json.loads(line)["url"]
            deadline = time.monotonic() + 30
            while True:  # it listens when it prints; wait until it answers, too
                try:
                    with urllib.request.urlopen(url + "api/info", timeout=5) as answer:
                        if answer.status == 200:
                            break
                except OSError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.2)
            yield url
        finally:
            if process.poll() is None:
                process.send_signal(signal.SIGINT)
                try:
                    process.wait(timeout=stop_after)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait(timeout=stop_after)
            if process.stdout is not None:
                process.stdout.close()


def launch(playwright, executable: str):
    """Headless Chromium at `executable` (no sandbox: CI runs as root)."""
    return playwright.chromium.launch(executable_path=executable, headless=True,
                                      args=["--no-sandbox", "--disable-dev-shm-usage"])


def align(page, url: str, source: str, target: str, preset: str = "default") -> None:
    """Type two sentences into the align page, submit, wait for the answer."""
    page.goto(url + "align")
    page.fill("#source", source)
    page.fill("#target", target)
    page.select_option("#preset", preset)
    page.click("#submit")
    page.wait_for_selector("#answer, #error")


def paraeval(page, url: str, hypothesis: str, references: Sequence[str], config: str = "default") -> None:
    """Type a hypothesis and its references into the ParaEval page, choose the config, submit,
    wait for the answer."""
    page.goto(url + "paraeval")
    page.fill("#hypothesis", hypothesis)
    page.fill("#references", "\n".join(references))
    page.select_option("#config", config)
    page.click("#submit")
    page.wait_for_selector("#answer, #error")


def lattice(page, url: str, sentences: Sequence[str]) -> None:
    """Type sentences into the lattice page, submit, wait for the answer."""
    page.goto(url + "lattice")
    page.fill("#sentences", "\n".join(sentences))
    page.click("#submit")
    page.wait_for_selector("#answer, #error")


def batch(page, url: str, lines: Sequence[str]) -> None:
    """Paste lines of sentence pairs into the batch similarity page, submit, wait for the answer."""
    page.goto(url + "similarity/batch")
    page.fill("#pairs", "\n".join(lines))
    page.click("#submit")
    page.wait_for_selector("#answer, #error")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "images"))
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    executable = find_chromium()
    if executable is None:
        parser.error("no Chromium found: install Debian's chromium or set PARALIGN_CHROMIUM")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    report = Path(tempfile.mkdtemp()) / "demo-report.html"
    subprocess.run([sys.executable, "-m", "paralign", "demo", "--examples", "examples/demo", "--report",
                    str(report)], check=True, stdout=subprocess.DEVNULL, cwd=ROOT)
    with serving() as url, sync_playwright() as playwright:
        browser = launch(playwright, executable)
        page = browser.new_page(viewport={"width": 1100, "height": 900}, device_scale_factor=1)
        align(page, url, *ALIGN_EXAMPLE)
        page.screenshot(path=str(out / "serve-align.png"), full_page=True)
        lattice(page, url, LATTICE_EXAMPLE)
        page.screenshot(path=str(out / "serve-lattice.png"), full_page=True)
        paraeval(page, url, *PARAEVAL_EXAMPLE)
        page.screenshot(path=str(out / "serve-paraeval.png"), full_page=True)
        batch(page, url, BATCH_EXAMPLE)
        page.screenshot(path=str(out / "serve-batch.png"), full_page=True)
        page.set_viewport_size({"width": 1100, "height": 1500})  # the scores and the worst pair's grid
        page.goto(report.as_uri())
        page.screenshot(path=str(out / "demo-report.png"))
        browser.close()
    for name in ("serve-align.png", "serve-lattice.png", "serve-paraeval.png", "serve-batch.png", "demo-report.png"):
        print(out / name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
