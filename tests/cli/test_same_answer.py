"""The same input and settings give the same bytes however a command is run (docs/CLI.md, Same
input, same answer): another hash seed (set iteration order), locale, time zone, working folder,
moment of writing (a gzip header's time), or the input on stdin or gzip instead of a plain file.

The commands whose outputs people diff most run in this process, and in a new one (this file run
as a script: spaCy and PPDB load once there) that differs from it in all of those at once: a
process keeps its hash seed, so this needs a process. The stdin and gzip variants run here.
`--workers 2` against one process is checked beside each batch command (`test_align.py`,
`test_paraeval.py`, `test_similarity.py`), where a Dask cluster is started anyway.
"""

from __future__ import annotations

import base64
import contextlib
import gzip
import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import paralign
from paralign.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

REF = ("the bombing happened in the city centre on monday .\n"
       "the cat sat on the small mat .\n"
       "he left the meeting early because he was tired .\n"
       "prices rose sharply after the announcement .\n")
HYPS = {
    "hyp1.txt": ("an explosion took place downtown on monday .\n"
                 "a little cat was sitting on the mat .\n"
                 "he departed from the meeting early as he was exhausted .\n"
                 "prices went up quickly after the statement .\n"),
    "hyp2.txt": ("the blast happened in the centre of the city monday .\n"
                 "the cat sat on a mat .\n"
                 "he went away early from the meeting because he was tired .\n"
                 "after the announcement , prices rose a lot .\n"),
}
TABLE = ("bombing\texplosion\t0.6\nbombing\tblast\t0.3\ncity centre\tdowntown\t0.5\n"
         "small\tlittle\t0.7\nleft\tdeparted\t0.4\nleft\twent away\t0.3\ntired\texhausted\t0.8\n"
         "rose sharply\twent up quickly\t0.2\nannouncement\tstatement\t0.5\nhappened\ttook place\t0.4\n")
GROUPS = ("The cat sat on the mat.\tA cat was sitting on the mat.\tThe cat was sitting on the rug.\n"
          "He left early.\tHe departed early.\tHe went away early.\tHe left early in the day.\n")
STS = ("4.6\tThe cat sat on the mat.\tA cat was sitting on the mat.\n"
       "1.2\tPrices rose after the announcement.\tThe cat slept all day.\n"
       "3.8\tHe left the meeting early.\tHe departed from the meeting early.\n"
       "2.4\tA man is playing a guitar.\tA man is playing a flute.\n"
       "0.4\tThe bombing happened on Monday.\tShe bought a new car.\n")

#: name -> argv, run from a folder holding the inputs (relative names, so outputs that name an
#: input are comparable between folders). `{out}`: a file the command writes.
COMMANDS: dict[str, list[str]] = {
    "align json": ["align", "--tokenized", "--format", "json", "pairs.tsv"],
    "align text, -o X.gz": ["align", "--tokenized", "pairs.tsv", "-o", "{out}.txt.gz"],  # Pharaoh: text
    "similarity": ["similarity", "--pairs", "pairs.tsv", "--format", "json"],
    "similarity idf": ["similarity", "--pairs", "pairs.tsv", "--signal", "idf", "--idf-from", "sts.tsv",
                       "--format", "json"],
    "score-alignments": ["score-alignments", "--gold", "gold.json", "--system", "system.pharaoh",
                         "--per-pair", "--confidence"],
    "evaluate-sts": ["evaluate-sts", "--data", "sts.tsv", "--confidence", "--format", "json"],
    "paraeval": ["paraeval", "-r", "ref.txt", "-i", "hyp1.txt", "-i", "hyp2.txt", "--table", "t.tsv",
                 "--paired-bs", "--format", "json"],
    "paraeval paper": ["paraeval", "--config", "paper", "-r", "ref.txt", "-i", "hyp1.txt", "--table", "t.tsv",
                       "--sentence-level", "--format", "json"],
    "parametric table": ["parametric", "table", "--gold", "gold.json", "--table", "t.tsv", "--format", "json"],
    "paraphrases": ["paraphrases", "--table", "t.tsv", "--phrases", "phrases.txt", "--format", "json"],
    "lattice paraphrases": ["lattice", "paraphrases", "--groups", "groups.tsv"],
    "lattice stats": ["lattice", "stats", "--groups", "groups.tsv", "--format", "json"],
}


def write_inputs(folder: Path) -> Path:
    """The inputs of every command in `folder` (made); returns it."""
    folder.mkdir(parents=True)
    shutil.copy(EXAMPLES / "demo" / "pairs.tsv", folder / "pairs.tsv")
    for name in ("gold.json", "gold.sure+poss.json", "system.pharaoh"):
        shutil.copy(EXAMPLES / "alignment" / name, folder / name)
    texts = {"ref.txt": REF, **HYPS, "t.tsv": TABLE, "groups.tsv": GROUPS, "sts.tsv": STS,
             "phrases.txt": "bombing\nleft\nsmall\nnot in the table\ncity centre\n"}
    for name, text in texts.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def run_commands(commands: dict[str, list[str]]) -> dict[str, list]:
    """Each command through `main` in this process, in the current folder: {name: [status,
    stdout, the file written (`{out}`) as base64 or None]}."""
    results = {}
    for name, argv in commands.items():
        written = next((a.replace("{out}", "out") for a in argv if "{out}" in a), None)
        buffer = io.StringIO()
        with contextlib.redirect_stdout(buffer):
            status = main([a.replace("{out}", "out") for a in argv])
        data = Path(written).read_bytes() if written and Path(written).exists() else None
        results[name] = [status, buffer.getvalue(), data and base64.b64encode(data).decode()]
    return results


def run_elsewhere(folder: Path, env: dict[str, str]) -> dict[str, list]:
    """:func:`run_commands` of COMMANDS in a new process (this file run as a script) in `folder`,
    with `env` added to this process's environment."""
    src = str(Path(paralign.__file__).parents[1])
    full = {**os.environ, **env, "PYTHONPATH": os.pathsep.join(filter(None, (src, os.environ.get("PYTHONPATH"))))}
    done = subprocess.run([sys.executable, __file__], cwd=folder, env=full, capture_output=True, text=True,
                          check=False, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.splitlines()[-1])


@pytest.fixture(scope="module")
def first_run(tmp_path_factory) -> dict[str, list]:
    """The commands' outputs in this process, from a folder of its own."""
    folder = write_inputs(tmp_path_factory.mktemp("same-answer") / "a")
    here = os.getcwd()
    os.chdir(folder)
    try:
        return run_commands(COMMANDS)
    finally:
        os.chdir(here)


def test_every_command_succeeds_and_says_something(first_run) -> None:
    """What the comparisons below compare: each command ran, and wrote its answer."""
    for name, (status, out, written) in first_run.items():
        assert status == 0, name
        assert out.strip() or written, name


def test_another_process_hash_seed_locale_time_zone_folder_and_moment_give_the_same_bytes(first_run, tmp_path) -> None:
    """A set of strings iterated into an output, a locale-dependent sort or number, the time
    or a path in an output would each make one of these differ (a gzip output had the time it
    was written in its header; `lattice paraphrases` rows once came in a set's order)."""
    folder = write_inputs(tmp_path / "elsewhere" / "b")
    seed = "2" if os.environ.get("PYTHONHASHSEED") == "1" else "1"  # not this process's
    second = run_elsewhere(folder, {"PYTHONHASHSEED": seed, "LC_ALL": "C", "TZ": "Pacific/Kiritimati"})
    assert second.keys() == first_run.keys()
    for name in first_run:
        assert second[name] == first_run[name], name


def run_here(capsys, argv: list[str]) -> str:
    assert main(argv) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("name, given", [("align json", "pairs.tsv"), ("score-alignments", "system.pharaoh"),
                                         ("paraeval paper", "ref.txt"), ("lattice stats", "groups.tsv")])
def test_stdin_and_gzip_give_the_answer_of_the_plain_file(first_run, tmp_path, monkeypatch, capsys,
                                                          name: str, given: str) -> None:
    """The same bytes from stdin, or gzip-compressed (as a file and on stdin), give the plain
    file's output; where a result names its input, stdin is named `<stdin>`."""
    folder = write_inputs(tmp_path / "in")
    monkeypatch.chdir(folder)
    argv = COMMANDS[name]
    data = (folder / given).read_bytes()
    expected = first_run[name][1]
    (folder / "packed.gz").write_bytes(gzip.compress(data))
    assert run_here(capsys, [("packed.gz" if a == given else a) for a in argv]) == expected.replace(given, "packed.gz")
    for fed in (data, gzip.compress(data)):
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(fed), encoding="utf-8"))
        assert run_here(capsys, [("-" if a == given else a) for a in argv]) == expected.replace(given, "<stdin>")


def test_the_gzip_output_holds_the_text_output(first_run) -> None:
    """The -o X.gz that is compared above holds what the command prints (so the check compares
    an answer, not an empty file)."""
    status, _, written = first_run["align text, -o X.gz"]
    text = gzip.decompress(base64.b64decode(written)).decode("utf-8")
    assert status == 0 and len(text.splitlines()) == len((EXAMPLES / "demo" / "pairs.tsv").read_text().splitlines())


if __name__ == "__main__":  # run_elsewhere's process
    print(json.dumps(run_commands(COMMANDS)))
