"""The user documentation stays true where a program can tell: the README, docs/*.md and the
examples' READMEs against the command line, the source tree and the import contracts.

- every command (and lattice/parametric action) of ``paralign --help`` has a place in the
  README's table of commands;
- an option written after a command (`paralign pivot --workers 2`, `word-align --tokenizer
  regex`) is one of that command's options (so is one written after commands joined by a slash,
  `pivot`/`paraphrase-table --min-count`, or before a bracketed list of them, `--idf-from`
  (`similarity`, `evaluate-sts`)), and an option written anywhere is some command's;
  choices written `--option a|b|c` are that option's, a default written beside an option
  (`--chunk-size N` pairs, default 64) is its parser's or its --help's, and a --help that writes
  its default out ("(default 5000)") says the parser's, and every option with a choice of values
  names its default in its --help;
- every relative link and picture resolves, and docs/images/align-grid.svg is what the
  README's command draws;
- docs/ARCHITECTURE.md ("the map: keep it true") names every module of src/paralign (a
  package's modules in its package's row) and states the layers of the ``layers`` contract in
  pyproject.toml, and every command module is in the ``cli-commands`` contract as it says;
- the repository paths the pages name exist;
- the README names every benchmark script that writes a file; docs/CLI.md's `parametric table`
  signature and examples/alignment/README.md's figures are what the commands print;
- every dotted name a page writes (`textout.AtomicTextWriter`, `Lattice.check_list_size`) that
  starts with a paralign module or public name is there.

The README's library examples run as doctests in tests/test_readme.py; its ```python block (the
picture against gold) runs here.
"""

from __future__ import annotations

import argparse
import re
import tomllib
from pathlib import Path

import pytest

from paralign.cli import build_parser, main

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "paralign"
README = ROOT / "README.md"
ARCHITECTURE = ROOT / "docs" / "ARCHITECTURE.md"
CLI_MD = ROOT / "docs" / "CLI.md"
#: What a user reads: the README, the pages of docs/ (not RESULTS.md, which
#: benchmarks/collect_results.py joins from docs/results/), the examples' READMEs.
USER_DOCS = [README, *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "examples").glob("*/README.md"))]
USER_DOCS = [page for page in USER_DOCS if page.name != "RESULTS.md"]
#: Options the docs name that belong to another program, with whose.
OTHER_PROGRAMS_OPTIONS = {
    "--nthreads": "dask worker's (README: starting a cluster)",
    "--out": "the benchmarks' scripts' (README: where results pages come from)",
    "--index-url": "pip's (README: Install, torch's CPU build)",
}
OPTION = re.compile(r"(?<![\w-])--[a-z][\w-]*")


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _options(parser: argparse.ArgumentParser) -> set[str]:
    return {option for action in parser._actions for option in action.option_strings}


def command_options() -> dict[str, tuple[set[str], dict[str, set[str]]]]:
    """Command -> (its options, {action: the action's options}) as the parser has them."""
    return {
        name: (_options(sub), {action: _options(p) for action, p in _subcommands(sub).items()})
        for name, sub in _subcommands(build_parser()).items()
    }


def code_lines(text: str) -> list[str]:
    """Each line of the page's code: fenced blocks (a line continued with a backslash joined to
    the next) and inline `spans`."""
    blocks = re.findall(r"```[\w-]*\n(.*?)```", text, re.S)
    prose = re.sub(r"```[\w-]*\n.*?```", "", text, flags=re.S)
    spans = re.findall(r"`([^`]+)`", prose)
    return [line for chunk in blocks + spans for line in chunk.replace("\\\n", " ").splitlines()]


def options_after_commands(text: str, commands: dict[str, tuple[set[str], dict[str, set[str]]]]) -> list[str]:
    """`command --option` written in the page's code where the command has no such option, as
    'command --option (in: line)'. The options counted are those after the command's name, up to
    the next `paralign` or `|` (a pipe); for lattice and parametric, the named action's."""
    names = "|".join(sorted(map(re.escape, commands), key=len, reverse=True))
    command = re.compile(rf"(?:(?<=\s)|(?<=^)|(?<=[(\[]))(?:paralign\s+)?({names})(?![\w-])(.*)")
    wrong = []
    for line in code_lines(text):
        match = command.search(line)
        if match is None or re.match(r"\s*[-\w.]*/", match[2]):  # a path such as pivot/x.md
            continue
        name, rest = match[1], re.split(r"paralign\s|\s\|\s", match[2])[0]
        own, actions = commands[name]
        words = rest.split()
        known = own | (actions[words[0]] if words and words[0] in actions else set().union(*actions.values()))
        wrong += [f"{name} {option} (in: {line.strip()})" for option in OPTION.findall(rest) if option not in known]
    return wrong


def test_every_command_is_in_the_readme_table() -> None:
    """`paralign --help`'s commands, and the actions of lattice and parametric, each have a row
    (or a place in one) in the README's table of commands."""
    table = README.read_text(encoding="utf-8").split("| command | what it does |")[1].split("\n\n")[0]
    first_column = " ".join(row.split("|")[1] if "\\|" not in row else row.split(" | ")[0]
                            for row in table.splitlines()[2:])
    missing = [name for name in command_options() if not re.search(rf"`(paralign )?{name}[ `]", first_column)]
    for name, (_, actions) in command_options().items():
        missing += [f"{name} {a}" for a in actions if not re.search(rf"{name} [\w|\\]*\b{a}\b", first_column)]
    assert not missing, f"commands without a row in the README's table: {missing}"


def test_options_written_after_a_command_are_that_commands() -> None:
    commands = command_options()
    wrong = [f"{page.relative_to(ROOT)}: {w}" for page in USER_DOCS
             for w in options_after_commands(page.read_text(encoding="utf-8"), commands)]
    assert not wrong, "options the command does not have:\n" + "\n".join(wrong)


def test_the_option_check_finds_a_wrong_option() -> None:
    commands = command_options()
    assert options_after_commands("run `paralign pivot --workers 2 --no-such`", commands) == [
        "pivot --no-such (in: paralign pivot --workers 2 --no-such)"]
    assert options_after_commands("`lattice draw --sample 3`", commands)  # paths' option, not draw's
    assert not options_after_commands("`lattice paths --sample 3` and `word-align --tokenizer regex`", commands)


#: `pivot`/`paraphrase-table --min-count`: an option written after several commands joined by '/'.
SLASHED = re.compile(r"((?:`[a-z][\w -]*`/)+)`([a-z][\w -]*?) (--[a-z][\w-]*)")
#: `--idf-from` (`similarity`, `evaluate-sts`): an option and, in brackets, the commands that take it.
LISTED = re.compile(r"`(--[a-z][\w-]*)[^`]*`[^`(.;]{0,30}\(((?:`[a-z][\w -]*`(?:, and |, | and | or )?)+)\)")


def options_of_named_commands(text: str) -> list[str]:
    """Commands a page names as taking an option, by a slash (`a`/`b --opt`) or a list in brackets
    after the option (`--opt` (`a`, `b`)), that do not take it, as 'command --option'."""
    leaves = {name: _options(parser) for name, parser in leaf_parsers().items()}
    commands = {name: own.union(*actions.values()) for name, (own, actions) in command_options().items()}
    named = [(name, m[3]) for m in SLASHED.finditer(text) for name in [*re.findall(r"`([^`]+)`", m[1]), m[2]]]
    named += [(name, m[1]) for m in LISTED.finditer(" ".join(text.split())) for name in re.findall(r"`([^`]+)`", m[2])]
    return [f"{name} {option}" for name, option in named
            if option not in leaves.get(name, commands.get(name, {option}))]


def test_commands_named_as_taking_an_option_take_it() -> None:
    """docs/CLI.md: "`pivot`/`paraphrase-table`/`word-align --max-tokens`", "in every command with
    `--confidence` (`paraeval`, `evaluate-sts`, `score-alignments`, `evaluate-aligner`)": each
    command named takes the option (the check above sees only the command right before it)."""
    wrong = [f"{page.relative_to(ROOT)}: {w}" for page in USER_DOCS
             for w in options_of_named_commands(page.read_text(encoding="utf-8"))]
    assert not wrong, "commands the docs name with an option they do not take:\n" + "\n".join(wrong)
    assert options_of_named_commands("`pivot`/`align --min-count`") == ["align --min-count"]
    assert options_of_named_commands("with `--confidence` (`paraeval`, `similarity`)") == ["similarity --confidence"]
    assert not options_of_named_commands("`--seed` without `--sample` (`lattice paths`, `lattice paraphrases`)")


def leaf_parsers() -> dict[str, argparse.ArgumentParser]:
    """Each command as typed, with its parser: `align`, `lattice draw`, `parametric table` ..."""
    leaves = {}
    for name, parser in _subcommands(build_parser()).items():
        actions = _subcommands(parser)
        leaves.update({f"{name} {a}": p for a, p in actions.items()} if actions else {name: parser})
    return leaves


def test_the_readme_says_which_commands_write_no_file() -> None:
    """README, Commands: "Every command takes `--format text|json` and writes stdout unless given
    `-o FILE` (...; `serve` and `download` write no file ...)": the commands without -o are
    those it names, and every command has --format text and json."""
    text = " ".join(README.read_text(encoding="utf-8").split("## Commands")[1].split("| command |")[0].split())
    named = re.search(r"((?:`[\w -]+`(?:, | and ))*`[\w -]+`) write no file", text)
    without_o = {name for name, p in leaf_parsers().items() if "-o" not in _options(p)}
    assert named is not None and set(re.findall(r"`([\w -]+)`", named[1])) == without_o
    no_format = [name for name, p in leaf_parsers().items()
                 if not any("--format" in a.option_strings and {"text", "json"} <= set(a.choices or ())
                            for a in p._actions)]
    assert not no_format, f"commands without --format text|json: {no_format}"


def test_cli_md_names_the_commands_with_each_decoding_mode() -> None:
    """docs/CLI.md, "Decoding is per line": the commands that take --encoding-errors skip are named
    in its "Holds for" sentence, and every command with --encoding-errors in the paragraph."""
    text = " ".join(CLI_MD.read_text(encoding="utf-8").split("**Decoding is per line:**")[1].split("##")[0].split())
    holds_for = text.split("Holds for")[1].split(". ")[0]
    modes = {name: set(a.choices) for name, p in leaf_parsers().items()
             for a in p._actions if "--encoding-errors" in a.option_strings}
    assert modes
    unnamed = [name for name, choices in modes.items()
               if f"`{name}" not in (holds_for if "skip" in choices else text)]
    assert not unnamed, f"commands with --encoding-errors that docs/CLI.md does not name there: {unnamed}"


def test_every_option_named_in_the_docs_exists() -> None:
    """An option named alone (`--preset` picks ...) is some command's, or paralign's own
    (--version), or another program's listed in OTHER_PROGRAMS_OPTIONS."""
    known = _options(build_parser()) | set(OTHER_PROGRAMS_OPTIONS)
    for own, actions in command_options().values():
        known |= own.union(*actions.values())
    unknown = {f"{page.relative_to(ROOT)}: {option}" for page in USER_DOCS
               for option in OPTION.findall(page.read_text(encoding="utf-8")) if option not in known}
    assert not unknown, f"options no command has: {sorted(unknown)}"


def option_actions() -> dict[str, list[argparse.Action]]:
    """Each option string -> its action in every command (and lattice/parametric/cache action)."""
    found: dict[str, list[argparse.Action]] = {}
    for parser in leaf_parsers().values():
        for action in parser._actions:
            for option in action.option_strings:
                found.setdefault(option, []).append(action)
    return found


#: `--option a|b|c` written in a page (in code or not; a table cell escapes the bar as `\|`).
WRITTEN_CHOICES = re.compile(r"(?<![\w-])(--[a-z][\w-]*)[ =]([a-z0-9+_.-]+(?:\\?\|[a-z0-9+_.-]+)+)(?![\w|])")


def unknown_choices(text: str, actions: dict[str, list[argparse.Action]]) -> list[str]:
    """`--option a|b|c` written where no command's --option offers every one of a, b and c."""
    wrong = []
    for option, written in WRITTEN_CHOICES.findall(text):
        values = set(written.replace("\\|", "|").split("|"))
        if option in actions and not any(a.choices and values <= set(a.choices) for a in actions[option]):
            wrong.append(f"{option} {written}")
    return wrong


def test_choices_written_in_the_docs_are_the_options() -> None:
    """README: `--format text|json`, `--device auto|cpu|cuda`, `--level system\\|segment\\|both`;
    CLI.md: `--encoding-errors skip|replace|strict`: each value is one the option offers, so a
    choice renamed or dropped takes its docs along."""
    actions = option_actions()
    wrong = [f"{page.relative_to(ROOT)}: {w}" for page in USER_DOCS
             for w in unknown_choices(page.read_text(encoding="utf-8"), actions)]
    assert not wrong, "choices no command's option offers:\n" + "\n".join(wrong)
    assert unknown_choices("`--device auto|cpu|tpu`", actions) == ["--device auto|cpu|tpu"]
    assert not unknown_choices("`--level system\\|segment`", actions)


#: "`--option X` (default V" or "`--option X` things, default V" written in a page.
WRITTEN_DEFAULT = re.compile(r"`(--[a-z][\w-]*)(?: [^`]*)?`(?: \w+)?,? \(?default:? ([\w.]+(?:,\d{3})*)(?=[\s;),])")


def stated_defaults(action: argparse.Action) -> set[str]:
    """What an option's default is, as its parser holds it and as its help says it."""
    said = {str(action.default)} if action.default is not None else set()
    said |= set(re.findall(r"default:? ([\w.]+)", " ".join((action.help or "").split())))
    return {value.replace(",", "") for value in said}


def test_defaults_written_in_the_docs_are_the_parsers() -> None:
    """README: `--workers N` processes (default 1; ...); CLI.md: `--chunk-size N` pairs, default 64,
    `--resamples N` (default 1,000) and `--seed S` (default 12345): some command's option has that
    default, in its parser or in the --help it resolves it by."""
    actions = option_actions()
    checked, wrong = 0, []
    for page in USER_DOCS:
        text = " ".join(page.read_text(encoding="utf-8").split())
        for option, value in WRITTEN_DEFAULT.findall(text):
            checked += 1
            if option in actions and not any(value.replace(",", "") in stated_defaults(a) for a in actions[option]):
                wrong.append(f"{page.relative_to(ROOT)}: {option} default {value}")
    assert checked >= 3 and not wrong, "defaults no command's option has:\n" + "\n".join(wrong)


def test_defaults_the_help_writes_out_are_the_parsers() -> None:
    """An option whose help writes its default out ("lines per map chunk (default 5000)") instead
    of taking argparse's %(default)s says what its parser holds, where the parser holds one."""
    wrong = []
    for name, parser in leaf_parsers().items():
        for action in parser._actions:
            said = re.findall(r"\(default:? ([\d.,]+)[;),]", " ".join((action.help or "").split()))
            if said and action.default is not None and not isinstance(action.default, bool) \
                    and said[0].replace(",", "") != str(action.default):
                wrong.append(f"{name} {action.option_strings[-1]}: help says {said[0]}, parser {action.default!r}")
    assert not wrong, "\n".join(wrong)


def test_an_option_with_choices_names_its_default_in_its_help() -> None:
    """`--tokenizer {regex,whitespace,moses}`, `--method {syntax,msa}`: the --help says which
    choice a command takes when the option is not given (docs/CLI.md says "pivot's default is
    regex"; the help said nothing of it)."""
    silent = [f"{name} {action.option_strings[-1]}" for name, parser in leaf_parsers().items()
              for action in parser._actions
              if action.choices and action.default is not None and not isinstance(action, argparse._SubParsersAction)
              and action.help != argparse.SUPPRESS  # hidden (sacrebleu's -tok): no help to say it in
              and "default" not in (action.help or "")]
    assert not silent, f"options whose --help does not say their default: {silent}"


@pytest.mark.parametrize("page", [*USER_DOCS, ROOT / "docs" / "RESULTS.md", *sorted((ROOT / "docs" / "results").glob("*.md"))],
                         ids=lambda page: str(page.relative_to(ROOT)))
def test_relative_links_resolve(page: Path) -> None:
    """Every [text](target) and ![picture](target) that is not a URL points at a file."""
    targets = re.findall(r"\]\(([^)\s]+)\)", page.read_text(encoding="utf-8"))
    broken = [t for t in targets if not re.match(r"[a-z]+:", t) and t.split("#")[0]
              and not (page.parent / t.split("#")[0]).exists()]
    assert not broken, f"{page.relative_to(ROOT)} links to what is not there: {broken}"


def test_the_readme_picture_is_what_its_command_draws(data, tmp_path) -> None:
    """docs/images/align-grid.svg is what the README's `sed -n Np FILE | paralign align --format svg
    -o docs/images/align-grid.svg` writes today (its signature carries paralign's version, so a
    release or a change to the drawing asks for it to be drawn again). `data`: PPDB."""
    command = re.search(r"sed -n (\d+)p (\S+) \| paralign align (.*?) -o (\S+)", README.read_text(encoding="utf-8"))
    assert command is not None, "the README no longer shows how align-grid.svg is made"
    line = (ROOT / command[2]).read_text(encoding="utf-8").splitlines()[int(command[1]) - 1]
    (tmp_path / "pair.tsv").write_text(line + "\n", encoding="utf-8")
    drawn = tmp_path / "grid.svg"
    assert main(["align", str(tmp_path / "pair.tsv"), *command[3].split(), "-o", str(drawn)]) == 0
    assert drawn.read_text(encoding="utf-8") == (ROOT / command[4]).read_text(encoding="utf-8"), \
        f"{command[4]} is stale: run the README's command ({command[0]})"


@pytest.mark.parametrize("page", USER_DOCS, ids=lambda page: str(page.relative_to(ROOT)))
def test_paths_written_in_the_docs_exist(page: Path) -> None:
    """A repository path the page names (`tests/cli/test_serve.py`, `benchmarks/screenshots.py`,
    `src/paralign/data/demo/`) or a package path (`paralign/stemming.py`) is there."""
    text = page.read_text(encoding="utf-8")
    written = set(re.findall(r"(?<![\w/.])(?:tests|benchmarks|scripts|src|docs|examples)/[\w./+-]*\w/?", text))
    missing = [p for p in written if not (ROOT / p).exists()]
    missing += [p for p in set(re.findall(r"(?<![\w/.])paralign/[\w/]+\.py", text))
                if not (PACKAGE.parent / p).exists()]
    assert not missing, f"{page.relative_to(ROOT)} names paths that are not there: {sorted(missing)}"


def test_sections_of_cli_md_named_elsewhere_exist() -> None:
    """"docs/CLI.md, Signatures" (README, code and tests) and "(see The matrix test)" (CLI.md)
    name a heading of docs/CLI.md: the words named begin one."""
    headings = re.findall(r"^#+ (.*)$", CLI_MD.read_text(encoding="utf-8"), re.M)
    sources = [*USER_DOCS, *PACKAGE.rglob("*.py"), *(ROOT / "tests").rglob("*.py")]
    named = {(path.name, m) for path in sources if path != Path(__file__)
             for m in re.findall(r"CLI\.md, ([A-Z][\w ]*\w)", path.read_text(encoding="utf-8"))}
    named |= {("CLI.md", m) for m in re.findall(r"\(see ([A-Z][\w ]*\w)\)", CLI_MD.read_text(encoding="utf-8"))}
    assert named
    missing = sorted(f"{where}: {name}" for where, name in named if not any(h.startswith(name) for h in headings))
    assert not missing, f"sections of docs/CLI.md that are not there: {missing}"


# -- docs/ARCHITECTURE.md against the tree and pyproject.toml ----------------------------------


def architecture_rows() -> dict[str, str]:
    """The parts table: `part` -> the row's text."""
    rows = re.findall(r"^\| `([^`]+)` \| (.*) \|$", ARCHITECTURE.read_text(encoding="utf-8"), re.M)
    return dict(rows)


def unnamed_modules() -> list[str]:
    """Modules of src/paralign that ARCHITECTURE.md does not name: a top-level module or package
    by a row or in its text (`config.py`, `__main__.py`), any other module (`fsa.py`) or
    package (`reports/`) in the row of the nearest package above it that has one, or by its
    path anywhere (`aligners/wordsim.py`, an old-path file). The command
    modules of cli/ are its row's "one module per command"."""
    rows, text = architecture_rows(), ARCHITECTURE.read_text(encoding="utf-8")
    missing = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE).parts
        if parts == ("__init__.py",) or (parts[0] == "cli" and len(parts) == 2 and not parts[1].startswith("_")):
            continue
        is_face = parts[-1] == "__init__.py"
        folders = parts[:-2] if is_face else parts[:-1]
        name = parts[-2] + "/" if is_face else parts[-1]
        if "/".join(folders + (name,)) in rows:
            continue
        if not folders:
            named = f"`{name}`" in text
        else:
            owner = next(n for n in range(len(folders), -1, -1) if n == 0 or "/".join(folders[:n]) + "/" in rows)
            row = rows.get("/".join(folders[:owner]) + "/", text)
            named = f"`{name}`" in row or f"`{'/'.join(folders[owner:] + (name,))}`" in row \
                or f"`{'/'.join(parts)}`" in text  # an old-path file, by its path
        if not named:
            missing.append("/".join(parts))
    return missing


def test_architecture_names_every_module() -> None:
    missing = unnamed_modules()
    assert not missing, f"modules docs/ARCHITECTURE.md does not name (in their package's row): {missing}"


def _contracts() -> dict[str, dict]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return {c["id"]: c for c in config["tool"]["importlinter"]["contracts"]}


def architecture_layers() -> list[set[str]]:
    """The layers of ARCHITECTURE.md's block, top first: each numbered line's parts (`a | b/`,
    before the description), with the parts of an unnumbered line that continues them."""
    block = ARCHITECTURE.read_text(encoding="utf-8").split("Layers, top to bottom.")[1].split("```")[1]
    layers: list[set[str]] = []
    for line in block.strip("\n").splitlines():
        numbered = re.match(r"\s*\d+\S*\s+(.*)", line)
        if not numbered and (line[:20].strip() == "" or not layers):
            continue  # a description's second line
        parts = re.split(r"\s{2,}", (numbered[1] if numbered else line).strip())[0]
        names = {n.strip().rstrip("/") for n in parts.split("|") if n.strip()}
        if numbered:
            layers.append(names)
        else:
            layers[-1] |= names
    return layers


def test_architecture_states_the_layers_of_the_contract() -> None:
    contract = [{part.strip() for part in layer.split("|")} for layer in _contracts()["layers"]["layers"]]
    assert architecture_layers() == contract


def test_the_library_not_cli_contract_covers_every_part_but_the_cli() -> None:
    """The contract "the library never imports the command line" listed its modules by hand and
    left out ten (tokenizers, stemming, tok13a, shown_text, ... and the shims config and
    paraphrase_model, which nothing imports): `from .cli import main` in any of them passed."""
    import pkgutil

    parts = {f"paralign.{m.name}" for m in pkgutil.iter_modules([str(PACKAGE)]) if m.name != "__main__"}
    assert sorted(parts - set(_contracts()["library-not-cli"]["source_modules"]) - {"paralign.cli"}) == []


def test_every_command_module_is_in_the_cli_commands_contract() -> None:
    """ARCHITECTURE.md, a new CLI command: "add the module to the `cli-commands` contract in
    pyproject.toml" (the contract checks only the modules it lists)."""
    commands = {f"paralign.cli.{p.stem}" for p in (PACKAGE / "cli").glob("*.py") if not p.name.startswith("_")}
    assert set(_contracts()["cli-commands"]["modules"]) == commands


# -- what the pages show a command print --------------------------------------------------------


def test_the_readme_names_every_benchmark_that_writes_a_file() -> None:
    """README, "Benchmarks live in `benchmarks/`": the scripts it names are those with an `--out`
    or `--output` option (a results page, a JSON record or pictures written), and the five it
    says write their page by default write one under docs/results/ unless told otherwise."""
    paragraph = README.read_text(encoding="utf-8").split("Benchmarks live in")[1].split("\n\n")[0]
    named = set(re.findall(r"`(\w+\.py)`", paragraph)) - {"collect_results.py"}
    option = re.compile(r"add_argument\(\s*\"--out(?:put)?\"(.*)")
    writers = {p.name: option.search(p.read_text(encoding="utf-8")) for p in (ROOT / "benchmarks").glob("*.py")}
    writers = {name: match[1] for name, match in writers.items() if match}
    assert named == set(writers), f"README names {sorted(named - set(writers))} and not {sorted(set(writers) - named)}"
    by_default = re.findall(r"`(\w+\.py)`", paragraph.split("by default (")[1].split(")")[0])
    assert len(by_default) == 5 and all('default="docs/results/' in writers[name] for name in by_default)


def test_cli_md_parametric_signature_example_is_what_the_command_prints(tmp_path, monkeypatch, capsys) -> None:
    """docs/CLI.md, Signatures: `paralign parametric table --gold examples/alignment/gold.json
    --table t.tsv:0.3` (t.tsv one row) ends with the signature the page shows, byte for byte
    (paralign's version included: a release updates the example)."""
    text = " ".join(CLI_MD.read_text(encoding="utf-8").split())
    example = re.search(r"`paralign parametric table (--gold (\S+) --table (t\.tsv)(\S*))` \(`t\.tsv`: the one line "
                        r"`([^`]*)`\) with `(signature: [^`]*)`", text)
    assert example is not None, "docs/CLI.md no longer shows the parametric table signature example"
    monkeypatch.chdir(tmp_path)
    (tmp_path / example[3]).write_text(example[5].replace("<TAB>", "\t") + "\n", encoding="utf-8")
    assert main(["parametric", "table", "--gold", str(ROOT / example[2]), "--table", example[3] + example[4]]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == example[6]


def run_example_command(folder: str, pattern: str, capsys) -> tuple[re.Match[str], str, list[str]]:
    """examples/FOLDER/README.md's command and what it says the command gives: the `pattern`
    match on the page's text (group 1 the command after `paralign`, its `examples/` paths run
    from the repository), the page's text and the command's stdout lines (exit status 0)."""
    page = ROOT / "examples" / folder / "README.md"
    text = " ".join(page.read_text(encoding="utf-8").split())
    command = re.search(pattern, text)
    assert command is not None, f"{page.relative_to(ROOT)} no longer shows what its command gives"
    argv = [str(ROOT / a) if a.startswith("examples/") else a for a in command[1].split()]
    assert main(argv) == 0
    return command, text, capsys.readouterr().out.splitlines()


def test_the_alignment_examples_figures_are_what_score_alignments_prints(capsys) -> None:
    """examples/alignment/README.md: its `paralign score-alignments` command "gives macro P = R =
    F1 = 88.6, micro 87.5, exact 1 of 3, AER 6.2", and its signature names the file its possible
    links came from, as the page says."""
    command, text, out = run_example_command(
        "alignment", r"paralign (score-alignments --gold \S+ --system \S+) gives macro P = R = F1 = ([\d.]+), "
        r"micro ([\d.]+), exact (\d+ of \d+), AER ([\d.]+)", capsys)
    rows = {line.split()[0]: line.split()[1:] for line in out if line.strip()}
    assert rows["macro"] == [command[2]] * 3 and rows["micro"] == [command[3]] * 3
    assert f"({command[4]})" in " ".join(rows["exact"]) and rows["AER"] == [command[5]]
    said = re.search(r"Its signature says `([^`]+)`", text)
    assert said is not None and rows["signature:"][0].split("|")[-2] == said[1]


def test_the_lattice_examples_figures_are_what_lattice_paths_prints(data, capsys) -> None:
    """examples/lattice/README.md: its `paralign lattice paths` command "gives 13 paths, 9 of
    them new", the new path it quotes among them; and the README's `lattice draw` reads the
    same shipped group."""
    command, _, out = run_example_command(
        "lattice", r"paralign (lattice paths \S+ --all \d+ --no-inputs) The second gives (\d+) paths, "
        r"(\d+) of them new \(\"([^\"]+)\" among them\)", capsys)
    assert out[0].startswith(f"paths: {command[2]} ") and out[1].endswith(f": {command[3]}")
    assert command[4] in out
    assert "paralign lattice draw examples/lattice/group.txt" in README.read_text(encoding="utf-8")


# -- names the pages give ----------------------------------------------------------------------

#: Dotted names in the docs whose first part is spelled like a paralign module but that are not
#: paralign's attributes, with what they are.
NOT_PARALIGN_NAMES = {
    "nlp.max_length": "spaCy's (docs/CLI.md: its error E088)",
    "cross_encoder.sha256": "a key of a saved model report (docs/CLI.md, Saved cross-encoders)",
}


def package_modules() -> set[str]:
    """Every module of src/paralign by its dotted name (not __main__, which runs the CLI)."""
    names = set()
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        names.add(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names - {"paralign.__main__"}


def unresolved_name(written: str, modules: set[str]) -> str | None:
    """Why a dotted name written in the docs (`textout.AtomicTextWriter`,
    `paralign.metrics.significance.MIN_CORRELATED`, `ParaphraseTable.folded`) names nothing
    paralign has, or None. Its head is a module (in full, or its last parts: `_common`,
    `cli._stderr`) or a name of `paralign` (`Lattice`); a name whose head is neither (`sys.maxsize`,
    `nltk.download`, a file name) is not paralign's and passes."""
    import importlib
    import warnings

    import paralign

    if any(m == written or m.endswith("." + written) for m in modules):
        return None  # a module (`metrics.alignment_scores`)
    parts = written.split(".")
    for k in range(len(parts) - 1, 0, -1):
        head = ".".join(parts[:k])
        owners = [m for m in sorted(modules) if m == head or m.endswith("." + head)]
        if not owners and k == 1 and head in paralign.__all__:
            owners = ["paralign"]
            parts = ["", *parts]  # the name's head is an attribute of paralign: parts[1:]
        if not owners:
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # an old path the docs name as old
            for owner in owners:
                value = importlib.import_module(owner)
                for attribute in parts[k:]:
                    value = getattr(value, attribute, None)
                if value is not None:
                    return None
        return f"{written}: not in {', '.join(owners)}"
    return None


@pytest.mark.parametrize("page", USER_DOCS, ids=lambda page: str(page.relative_to(ROOT)))
def test_dotted_names_in_the_docs_exist(page: Path) -> None:
    """Every `module.name` a page writes in code (`textout.AtomicTextWriter`,
    `metrics.paraeval.signature.length_used`, `Lattice.check_list_size`) is there: a name that
    moves (0.2.8 split textio, paraphrases and paraeval/paper.py) takes its docs along."""
    modules = package_modules()
    written = set(re.findall(r"`((?:[A-Za-z_]\w*\.)+[A-Za-z_]\w*)(?:\(\))?`", page.read_text(encoding="utf-8")))
    missing = [why for name in sorted(written - set(NOT_PARALIGN_NAMES))
               if not re.search(r"\.(py|md|json|toml|txt|tsv|parquet|html|svg|png)$", name)
               and (why := unresolved_name(name, modules))]
    assert not missing, f"{page.relative_to(ROOT)} names what paralign does not have: {missing}"


def test_the_name_check_finds_a_moved_name() -> None:
    modules = package_modules()
    assert unresolved_name("textio.AtomicTextWriter", modules)  # it moved to textout in 0.2.8
    assert unresolved_name("Lattice.no_such_method", modules)
    assert not unresolved_name("textout.AtomicTextWriter", modules)
    assert not unresolved_name("paralign.paraphrases.ParaphraseTable", modules)  # re-exported
    assert not unresolved_name("sys.maxsize", modules)


def test_the_readmes_python_snippets_run(data, tmp_path, monkeypatch) -> None:
    """The README's ```python blocks (not doctests: the picture against gold) run as written,
    copied into a fresh interpreter (every name they use defined in them: a reader pastes them),
    and write the picture they say."""
    import xml.etree.ElementTree as ET

    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert blocks, "the README has no ```python block left: drop this test"
    monkeypatch.chdir(tmp_path)
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})  # noqa: S102 - the README's own code
    written = sorted(tmp_path.glob("*.svg"))
    assert [p.name for p in written] == ["pair.svg"]
    assert ET.parse(written[0]).getroot().tag.endswith("svg")


def test_the_first_commands_run_as_written(data, tmp_path) -> None:
    """The README's first commands on your own sentences (Install, the ```sh block after
    `paralign demo`) run in a shell as written, `paralign` being this tree's, and print what the
    paragraph under them says: the unaligned words, the 0.666667 of the senator pair, a ParaEval
    score."""
    import os
    import subprocess
    import sys

    text = README.read_text(encoding="utf-8")
    block = re.search(r"Then on your own sentences[^\n]*\n\n```sh\n(.*?)```\n\n(.*?)\n\n", text, re.S)
    assert block is not None, "the README no longer shows first commands after Install"
    shim = tmp_path / "bin" / "paralign"
    shim.parent.mkdir()
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m paralign "$@"\n', encoding="utf-8")
    shim.chmod(0o755)
    env = dict(os.environ, PATH=f"{shim.parent}{os.pathsep}{os.environ['PATH']}", PYTHONPATH=str(PACKAGE.parent),
               NO_COLOR="1")
    done = subprocess.run(["sh", "-e", "-c", block[1]], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    said = " ".join(block[2].split())
    assert "unaligned source: 0 The" in done.stdout and "unaligned" in said
    score = re.search(r"\(here (\d\.\d+):", said)
    assert score is not None and f"\n{score[1]}\n" in done.stdout
    assert re.search(r"^ParaEval \d\.\d+ P = ", done.stdout, re.M)


def test_results_md_is_what_collect_results_makes_of_the_pages() -> None:
    """docs/RESULTS.md joins docs/results/*.md; a page edited without re-running
    benchmarks/collect_results.py left RESULTS.md saying the old thing (found: the aligner page's
    hyphen and invisible-character notes, the paraeval page's example that --config paper now
    needs). Re-run `python benchmarks/collect_results.py` after editing a page."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("collect_results", ROOT / "benchmarks" / "collect_results.py")
    assert spec is not None and spec.loader is not None
    collect_results = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(collect_results)
    made = collect_results.collect(ROOT / "docs" / "results")
    assert (ROOT / "docs" / "RESULTS.md").read_text(encoding="utf-8") == made


def test_architecture_names_every_old_import_path(old_import_paths) -> None:
    """ARCHITECTURE.md, "Old import paths ... work until 0.3": it names every module that serves
    an old path (a module moved whole, or one that names have left) by its dotted name, and no
    other (it left out `metrics.alignment_scores` and the commands `align`, `pivot` and
    `similarity`, whose helpers moved to cli/_aligner_options.py, _similarity_options.py, _pipelines.py
    and _render.py)."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    bullet = text.split("\n- Old import paths")[1].split("\n- ")[0]
    named = set(re.findall(r"`(paralign\.[\w.]+)`", bullet)) - {"paralign._moved"}
    served = {old for old, _, _ in old_import_paths}
    assert named == served, f"not named: {sorted(served - named)}; named, serving nothing: {sorted(named - served)}"


#: A number as the pages quote figures: a decimal (`176.5`, `.7901`) or a count with thousands
#: separators (`1,000,000`); small whole numbers are left out (they count things, not results).
QUOTED_NUMBER = re.compile(r"(?<![\w.])(\d*\.\d+|\d{1,3}(?:,\d{3})+)(?![\w])")


def numbers_not_on_cited_pages(text: str) -> list[str]:
    """Numbers a sentence quotes that none of the docs/results pages it cites holds, each as
    'number (cites page, ...)'. A correlation written `.8773` may be the page's `87.73`."""
    results = ROOT / "docs" / "results"
    wrong = []
    for sentence in re.split(r"(?<=[.;])\s+(?=[A-Z(`])", " ".join(text.split())):
        pages = sorted(set(re.findall(r"docs/results/([\w-]+\.md)", sentence)))
        if not pages:
            continue
        cited = " ".join(" ".join((results / page).read_text(encoding="utf-8").split()) for page in pages)
        for number in QUOTED_NUMBER.findall(sentence):
            said = {number, number.replace(",", "")} | ({f"{float(number) * 100:.2f}"} if number[0] == "." else set())
            if not any(form in cited for form in said):
                wrong.append(f"{number} (cites {', '.join(pages)})")
    return wrong


def test_figures_quoted_beside_a_results_page_are_on_it() -> None:
    """"numbers in docs come from runs, with the command beside them": a figure quoted in a
    sentence that cites docs/results/X.md is on X.md (README quoted PPDB's 0.3-0.7 s to parse
    beside table-load.md, which measures no PPDB; they are paraeval-acceptance.md's)."""
    wrong = [f"{page.relative_to(ROOT)}: {w}" for page in USER_DOCS
             for w in numbers_not_on_cited_pages(page.read_text(encoding="utf-8"))]
    assert not wrong, "figures not on the results page cited beside them:\n" + "\n".join(wrong)
    assert numbers_not_on_cited_pages("It takes 176.5 s (`docs/results/pivot-dask.md`).") == []
    assert numbers_not_on_cited_pages("It takes 176.4 s (`docs/results/pivot-dask.md`).") == [
        "176.4 (cites pivot-dask.md)"]
    assert numbers_not_on_cited_pages("STS dev .8773 (`docs/results/neural-similarity.md`).") == []


def gone_from_the_map() -> list[str]:
    """What ARCHITECTURE.md's parts table names that is not in the tree: a row's part
    (`errors.py`, `aligners/`), or a module or folder a row names (`registry.py`, `reports/`,
    `aligners/wordsim.py`) found neither in the row's package (at any depth: `sts.py` of
    `viz/`'s `reports/`), nor in src/paralign, nor in the repository (`scripts/...`)."""
    gone = []
    for part, row in architecture_rows().items():
        if not (PACKAGE / part).exists():
            gone.append(part)
            continue
        folder = PACKAGE / part if part.endswith("/") else PACKAGE
        for name in re.findall(r"`([\w/]+(?:\.py|/))`", row):
            places = [folder / name, PACKAGE / name, ROOT / name]
            if not any(place.exists() for place in places) and not any(folder.rglob(name.rstrip("/"))):
                gone.append(f"{name} (in the row of {part})")
    return gone


def test_nothing_on_the_map_is_gone() -> None:
    """The other way round from test_architecture_names_every_module: a module removed or
    renamed takes its name off the map."""
    assert architecture_rows(), "ARCHITECTURE.md has no parts table"
    assert not gone_from_the_map(), f"docs/ARCHITECTURE.md names what is not there: {gone_from_the_map()}"


def test_the_commands_a_new_aligner_reaches_are_those_of_the_registry() -> None:
    """ARCHITECTURE.md, "a new aligner": one line in the registry and the commands it names know
    it. Those are the commands whose option offers the registry's names (`ALIGNER_NAMES`). It
    said "every command that takes `--aligner`/`--system`", but `parametric align --system`
    takes `sultan` only (its own batch aligner) and `paraphrase-table --aligner` eflomal or sultan."""
    from paralign.aligners.registry import ALIGNER_NAMES

    row = next(text for change, text in re.findall(r"^\| ([^|]+) \| (.*) \|$", ARCHITECTURE.read_text(encoding="utf-8"), re.M)
               if change == "a new aligner")
    leaves = leaf_parsers()
    named = {name for name in re.findall(r"`([a-z][\w -]*?)(?: --[\w-]+)?`", row.split("then know it")[0]) if name in leaves}
    offering = {name for name, parser in leaves.items()
                if any(action.choices and set(action.choices) == set(ALIGNER_NAMES) for action in parser._actions)}
    if "ALIGNER_NAMES" in (PACKAGE / "web" / "engine.py").read_text(encoding="utf-8"):
        offering.add("serve")  # no --aligner: its pages and API offer the registry's names
    assert offering, "no command offers the registry's aligners"
    assert named == offering, f"the row names {sorted(named)}; the commands that offer them are {sorted(offering)}"


def test_the_map_names_every_module_that_registers_a_signal() -> None:
    """ARCHITECTURE.md, "a new similarity signal": the modules that call `register_signal` are
    those the row names, and the package face imports each (it named contextual.py only; the
    `hybrid` signal registers in hybrid.py)."""
    row = next(text for change, text in re.findall(r"^\| ([^|]+) \| (.*) \|$", ARCHITECTURE.read_text(encoding="utf-8"), re.M)
               if change == "a new similarity signal")
    folder = PACKAGE / "similarity"
    registering = {f"similarity/{p.name}" for p in folder.glob("*.py")
                   if re.search(r"^register_signal\(", p.read_text(encoding="utf-8"), re.M)}
    assert "similarity/signals.py" in registering
    named = set(re.findall(r"`(similarity/\w+\.py)`", row)) - {"similarity/__init__.py"}
    assert named == registering, f"the row names {sorted(named)}; these register signals: {sorted(registering)}"
    face = (folder / "__init__.py").read_text(encoding="utf-8")
    unimported = [m for m in registering if not re.search(rf"^from \. import .*\b{Path(m).stem}\b|^from \.{Path(m).stem} import",
                                                          face, re.M)]
    assert not unimported, f"similarity/__init__.py does not import {unimported}: their signals would not be registered"


def test_every_command_is_in_the_api_pages_library_table() -> None:
    """docs/api.md's "The library and the command line" names the library behind every command
    (and every action of lattice and parametric): a command is a thin wrapper over library
    functions, and a user moving from the shell to Python looks there first. word-align,
    parametric, serve, cache and four lattice actions had no row."""
    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    table = text.split("| command | library |")[1].split("\n\n")[0]
    first_column = " ".join(row.split(" | ")[0] for row in table.splitlines()[2:])
    missing = [name for name in command_options() if not re.search(rf"`(paralign )?{name}[ `]", first_column)]
    for name, (_, actions) in command_options().items():
        missing += [f"{name} {a}" for a in actions if not re.search(rf"`(paralign )?{name} {a}`", first_column)]
    assert not missing, f"commands without a row in docs/api.md's library table: {missing}"
