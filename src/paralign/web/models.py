"""What the web app's JSON API takes and gives: pydantic models, with the input limits.

Every text a client sends is checked here, before any work: its length (:data:`LIMITS`), that it
has a non-space character, and that it holds only characters XML can carry (no control
characters but tab and line ends, no lone surrogates), since every answer may be drawn as SVG
or HTML. A text is then used without its surrounding spaces, as the command line reads it. A request that breaks a rule gets a 422 naming the field and the rule. The HTML
pages validate their form fields with the same models.

Not for: computing anything (:mod:`.engine`) or the routes (:mod:`.api`, :mod:`.pages`).
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    Strict,
    model_validator,
)
from pydantic.fields import FieldInfo
from pydantic_core import PydanticCustomError

from ..aligners.registry import ALIGNER_PRESETS, preset_clash
from ..metrics.paraeval.configs import Tier
from ..metrics.paraeval.paper_values import SpanTier
from ..similarity.signals import DEFAULT_SIGNAL, SIGNALS

#: The input limits: characters of a sentence (align, similarity, ParaEval), of a lattice
#: sentence and of a phrase; tokens of a sentence to align (align, similarity: checked once
#: tokenised, as 500 characters of punctuation or emoji are 500 tokens, which took the aligner
#: and the signals a minute, while the lock held every other request); how many references and
#: lattice sentences; paraphrases listed; bytes of a request body.
LIMITS = {
    "sentence_chars": 500,
    "sentence_tokens": 200,
    "lattice_sentence_chars": 300,
    "phrase_chars": 200,
    "references": 8,
    "lattice_sentences": 10,
    "paraphrases": 500,
    "body_bytes": 64 * 1024,
}

#: Bytes of the longest query string a page's form sends within :data:`LIMITS` (a ParaEval form:
#: 4,500 characters, each up to 12 bytes percent-encoded, 54 KiB). A longer form is not sent
#: (``static/forms.js`` says why): sent, a pasted megabyte was refused by the HTTP server before
#: the app saw it, and the browser showed its own "HTTP ERROR 400" page.
QUERY_BYTES = 64 * 1024
#: Bytes of a request's head (request line and headers) ``paralign serve`` reads: a query of
#: :data:`QUERY_BYTES` and 64 KiB of headers. uvicorn's HTTP parser (h11) kept 16 KiB of a head
#: not yet whole, so a legal ParaEval form of 20 KiB that came in several TCP segments (over a
#: network, not on loopback) was refused with a bare 400.
REQUEST_HEAD_BYTES = QUERY_BYTES + 64 * 1024

#: The most rows (sentence pairs, and lines that are not one) a batch request may hold by default
#: (``paralign serve --max-pairs``): a batch keeps the engine busy while it runs, a request sent
#: meanwhile being answered between two of its blocks (:data:`.engine.BATCH_BLOCK` rows).
BATCH_PAIRS = 1_000
#: Bytes a batch request's body may take per row allowed, beyond ``body_bytes``: two sentences
#: of ``sentence_chars`` as a form sends them (a character percent-encoded takes up to 12 bytes:
#: 4 UTF-8 bytes, each %XX), so that a batch within the row limit is never refused for its size.
BATCH_ROW_BYTES = 12 * 1024
#: The routes that take a batch (the API's and the batch page's form), whose body limit is
#: :func:`batch_limits`' ``batch_body_bytes``; every other route keeps ``body_bytes``.
BATCH_PATHS = ("/api/similarity/batch", "/similarity/batch")


def batch_limits(max_pairs: int = BATCH_PAIRS) -> dict[str, int]:
    """The limits of a batch on a server taking `max_pairs` rows a request (GET /api/info lists
    them beside :data:`LIMITS`)."""
    return {"batch_pairs": max_pairs, "batch_body_bytes": LIMITS["body_bytes"] + max_pairs * BATCH_ROW_BYTES}


#: The units a size is shown in (:func:`shown_bytes`), largest first: binary, as the limits are
#: counted (64 KiB a body, 12 KiB a batch row).
BYTE_UNITS = (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10))


def shown_bytes(n: int) -> str:
    """A size as a person reads it: ``64 KiB``, ``11.8 MiB`` (one decimal at most), ``512 bytes``.
    The pages and the 413 answers said ``12353536 bytes``, which nobody reads at a glance; the
    batch page's script shows a file's size by the same rule."""
    for unit, size in BYTE_UNITS:
        if n >= size:
            return f"{round(n / size, 1):g} {unit}"
    return f"{n} bytes"


#: Characters XML 1.0 cannot carry (controls but tab, LF, CR; surrogates; U+FFFE, U+FFFF).
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")

# The choices of the registries, written out so that a type checker can read them (a Literal of
# a registry's names is no type to mypy); tests/web/test_models.py checks that each is its
# registry's names, in its order (the schema's enum), so they cannot drift.
#: `aligners.sultan.options.PRESETS`
Preset = Literal["default", "paper", "paraphrase", "contextual"]
#: `aligners.registry.ALIGNER_NAMES`
AlignerName = Literal["sultan", "contextual", "exact"]
#: `metrics.paraeval.configs.CONFIGS`
ParaEvalConfig = Literal["default", "contextual", "paper"]
#: `corpora.sentence_pairs.INPUT_FORMATS` (``paralign similarity --input-format``)
InputFormat = Literal["auto", "tsv", "jsonl", "sts", "msrp"]
# A graded match's tier (`Tier`) and a hypothesis span's (`SpanTier`: a tier, or unmatched) are
# the library's own Literals, which the matchers' values are typed with.


def showable(value: object) -> object:
    """`value` with each character XML cannot carry replaced by U+FFFD (the type kept, so that
    markup stays markup); a value that is not text as it is. A refused text is shown back in its
    form field: a control character it holds must not reach the page as it came."""
    if isinstance(value, str) and _NOT_XML.search(value):
        return type(value)(_NOT_XML.sub("\ufffd", value))
    return value


def check_text(text: str) -> str:
    """`text` unchanged when it has a non-space character and only XML characters; else a
    ValueError saying which rule it breaks."""
    bad = _NOT_XML.search(text)
    if bad:
        raise ValueError(f"contains the character U+{ord(bad.group()):04X} at position {bad.start()}, "
                         "which cannot be shown (control characters and lone surrogates are refused)")
    if not text.strip():
        raise ValueError("must contain a word, not only spaces")
    return text


#: The rule of :func:`check_text` as a JSON-schema pattern, so that clients (and schema fuzzers)
#: know it: XML characters only, at least one of them not a space. The spaces are listed (those
#: of ``str.isspace`` that XML can carry), not ``\s``, whose characters differ between Python and
#: the ECMA-262 regexes of JSON Schema (U+0085 is a space to Python only, U+FEFF to ECMA only).
_XML_CHAR = r"[^\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]"
_SPACES = r"\t\n\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
TEXT_PATTERN = rf"^{_XML_CHAR}*[^{_SPACES}\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]{_XML_CHAR}*$"


def _text(limit: str, description: str) -> FieldInfo:
    """A text field's length limit and description, with :func:`check_text`'s rule as a pattern
    for the schema (the check itself, after it in each text type, gives the clearer message)."""
    return Field(min_length=1, max_length=LIMITS[limit], description=description,
                 json_schema_extra={"pattern": TEXT_PATTERN})


# A text type: its field (:func:`_text`), :func:`check_text`, then the text without its
# surrounding spaces, as the command line strips each sentence it reads (else a leading space
# is a whitespace token and moves every index).
Sentence = Annotated[str, _text("sentence_chars", f"a sentence (at most {LIMITS['sentence_chars']} characters)"),
                     AfterValidator(check_text), AfterValidator(str.strip)]
LatticeSentence = Annotated[str, _text("lattice_sentence_chars",
                                       f"a sentence (at most {LIMITS['lattice_sentence_chars']} characters)"),
                            AfterValidator(check_text), AfterValidator(str.strip)]
Phrase = Annotated[str, _text("phrase_chars", f"a phrase (at most {LIMITS['phrase_chars']} characters)"),
                   AfterValidator(check_text), AfterValidator(str.strip)]


#: A JSON boolean, only (``"yes"``, ``1`` or ``"true"`` would be coerced to true by default).
Flag = Annotated[bool, Strict()]


def _whole_number(value: object) -> object:
    """A JSON number for an integer field: booleans and strings are refused where pydantic would
    coerce them (``true`` -> 1, ``"5"`` -> 5); ``5.0`` stays accepted, as JSON Schema's integer
    takes it."""
    if isinstance(value, (bool, str)):
        raise PydanticCustomError("int_type", "Input should be a valid integer, not a {kind}",
                                  {"kind": "boolean" if isinstance(value, bool) else "string"})
    return value


#: A whole JSON number (see :func:`_whole_number`).
Count = Annotated[int, BeforeValidator(_whole_number)]


class Request(BaseModel):
    """A request body: unknown fields are refused, so a misspelt option is never ignored; a flag
    or a count of the wrong JSON type (``"picture": "yes"``, ``"limit": true``) is refused, not
    coerced."""

    model_config = ConfigDict(extra="forbid")


def body_field(name: str, value: str | None = None) -> str:
    """How an answer names a field of a request body, with its value: ``"preset": "paper"``."""
    return f'"{name}"' if value is None else f'"{name}": "{value}"'


def _presets_of_aligners() -> dict[str, Any]:
    """The JSON schema's rule of :class:`AlignerRequest`: the presets each aligner but sultan takes
    (:data:`~paralign.aligners.registry.ALIGNER_PRESETS`, the rule of ``preset_clash``)."""
    return {"allOf": [{"if": {"properties": {"aligner": {"const": aligner}}, "required": ["aligner"]},
                       "then": {"properties": {"preset": {"enum": list(presets)}}}}
                      for aligner, presets in ALIGNER_PRESETS.items()]}


def aligner_description(commands: str) -> str:
    """The `aligner` field's description: the registry's names, as the `commands` take ``--aligner``."""
    return (f"word aligner, as the --aligner of {commands}: sultan (Sultan et al. 2014, with a preset), "
            "contextual (the sultan aligner's contextual preset) or exact (the exact-match baseline; GET /api/info "
            "lists those this server offers)")


def preset_description(commands: str) -> str:
    """The `preset` field's description: the presets each aligner takes, from the rule the
    requests are checked by (:data:`~paralign.aligners.registry.ALIGNER_PRESETS`), so that it
    cannot drift from it (it said exact and contextual took none, then that any preset was
    refused with exact, while ``default`` goes with both)."""
    takes = "; ".join(f"{aligner} takes {' or '.join(presets)}" for aligner, presets in ALIGNER_PRESETS.items())
    return (f"option set of the aligner, as the --preset of {commands}: sultan takes every preset; {takes} "
            "(default, the field's default, goes with every aligner: its own option set); another is refused, 422 "
            "naming both fields, with the command line's message")


class AlignerRequest(Request):
    """A request naming an aligner and a preset (the `aligner` and `preset` fields of its
    subclasses): ``default`` (the field's default, which the pages' forms send with every
    aligner) goes with every aligner; another preset than ``contextual`` with ``"aligner":
    "contextual"``, or any other with ``"aligner": "exact"``, is refused (422) naming both
    fields, with the message the commands give ``--aligner exact --preset paper``: one rule for
    both (:func:`~paralign.aligners.registry.preset_clash`); the preset was ignored without a
    word. The schema says so (``if``/``then``), for clients and the fuzzing test, which sends
    only what the schema admits as valid."""

    model_config = ConfigDict(json_schema_extra=_presets_of_aligners())

    @model_validator(mode="after")
    def _preset_for_the_aligner(self) -> AlignerRequest:
        clash = preset_clash(getattr(self, "aligner", "sultan"), getattr(self, "preset", None), body_field)
        if clash is not None:
            raise ValueError(clash)
        return self


#: The commands whose --aligner and --preset a pair's request takes as they do.
PAIR_COMMANDS = "`paralign align` and `paralign similarity`"


class PairRequest(AlignerRequest):
    """Two sentences, each of at most ``sentence_tokens`` tokens once tokenised (see /api/info)."""

    source: Sentence
    target: Sentence
    aligner: AlignerName = Field("sultan", description=aligner_description(PAIR_COMMANDS))
    preset: Preset = Field("default", description=preset_description(PAIR_COMMANDS))


class AlignRequest(PairRequest):
    """Two sentences to word-align."""

    picture: Flag = Field(False, description="also return the alignment grid as SVG")


class SimilarityRequest(PairRequest):
    """Two sentences whose similarity every signal scores (from one alignment)."""


class BatchRequest(AlignerRequest):
    """Many sentence pairs at once, as the text of a file ``paralign similarity --pairs`` reads,
    scored by one signal as that command scores them (at most ``batch_pairs`` rows, in a body of
    at most ``batch_body_bytes``: see GET /api/info). The batch takes the engine's lock block
    by block: a request sent while it runs is answered between two blocks. A bad line is reported in its place (its line and
    reason); so is a sentence over ``sentence_chars`` characters, which this server does not
    score (the command line does)."""

    pairs: str = Field(min_length=1, description="the pairs, one a line: TSV `s1 TAB s2`, `id TAB s1 TAB s2` (or an STS, STS Benchmark "
                       "or MSRP file), a CSV or TSV table whose header names sentence1 and sentence2 columns, or JSONL "
                       "lines {\"source\", \"target\"} or {\"sentence1\", \"sentence2\"} with an optional \"id\": as "
                       "`paralign similarity --pairs` reads a file")
    name: str | None = Field(None, max_length=200, description="the name the answer's notes give the input (a "
                             "chosen file's name; null: `pasted`)")
    input_format: InputFormat = Field(
        "auto", description="what pairs holds, whatever its lines look like, as `paralign similarity --input-format` "
        "takes it: auto (told from its lines; where a whole-number first field within 0-5 could be an id or a gold "
        "score, the answer's notes say how it was read), tsv (every line s1 TAB s2 or id TAB s1 TAB s2, the first "
        "of three fields an id), jsonl (every line a JSON record), sts (SemEval STS score TAB s1 TAB s2, or the STS "
        "Benchmark: gold scores dropped) or msrp")
    signal: str = Field(DEFAULT_SIGNAL, description="the similarity signal, as `paralign similarity --signal` takes "
                        "it (GET /api/info lists those this server scores)",
                        json_schema_extra={"enum": list(SIGNALS)})
    aligner: AlignerName = Field("sultan", description=aligner_description("`paralign similarity`"))
    preset: Preset = Field("default", description=preset_description("`paralign similarity`"))


class ParaEvalRequest(Request):
    """A hypothesis and its references (one segment)."""

    hypothesis: Sentence
    references: list[Sentence] = Field(
        min_length=1, max_length=LIMITS["references"],
        description=f"1 to {LIMITS['references']} reference translations")
    config: ParaEvalConfig = Field(
        "default", description="ParaEval configuration, as `paralign paraeval --config` takes it: default "
        "(graded tiers; the command line's default), paper (the 2006 scorer) or contextual (the neural "
        "extra; GET /api/info lists the configs this server offers)")


class LatticeRequest(Request):
    """Equivalent sentences to merge into one word lattice (Pang et al. 2003)."""

    sentences: list[LatticeSentence] = Field(
        min_length=1, max_length=LIMITS["lattice_sentences"],
        description=f"1 to {LIMITS['lattice_sentences']} sentences")
    method: Literal["syntax", "msa"] = Field("syntax", description="syntax-based merging or the MSA baseline")
    picture: Flag = Field(False, description="also return the lattice drawing as SVG")


class ParaphrasesRequest(Request):
    """A phrase to look up in one of the paraphrase sources loaded at start-up."""

    phrase: Phrase
    table: str | None = Field(None, max_length=200, description="a source's name as GET /api/info "
                              "lists them, never a path (default: the first table given with "
                              "--table, else the first source loaded: ppdb unless --resources says otherwise)")
    limit: Count = Field(50, ge=1, le=LIMITS["paraphrases"], description="the most paraphrases listed, best first "
                         "(as `paralign paraphrases --top-k N` keeps them; the page's field and address name it limit too)")


# -- answers ---------------------------------------------------------------------------------------
class Link(BaseModel):
    """A link between a source word and a target word."""

    i: int = Field(description="the source word's place in source_tokens, from 0 (Pharaoh's i)")
    j: int = Field(description="the target word's place in target_tokens, from 0 (Pharaoh's j)")
    kind: Literal["sure", "possible"] = Field(description="sure (Pharaoh i-j), or possible only (i?j)")
    source: str = Field(description="the source word, source_tokens[i]")
    target: str = Field(description="the target word, target_tokens[j]")
    confidence: float | None = Field(None, description="the aligner's confidence in the link (null: the "
                                     "aligner gives none, as the sultan aligner)")


#: The description of an answer's `aligner`: named as results and signatures name it
#: (:func:`~paralign.aligners.registry.aligner_label`); it said ``aligner:preset``, which the
#: exact aligner (``exact``) and the contextual one (``sultan:contextual``) are not.
ALIGNER_LABEL = ("{what}, as results and signatures name it: sultan:PRESET (sultan:default...), sultan:contextual "
                 "for the contextual aligner (the sultan aligner's contextual preset), exact for the exact aligner")


class AlignResponse(BaseModel):
    source_tokens: list[str] = Field(description="the source sentence as tokenised for aligning")
    target_tokens: list[str] = Field(description="the target sentence as tokenised for aligning")
    links: list[Link] = Field(description="every link, sorted by i then j")
    pharaoh: str = Field(description="the links as `paralign align` writes them (i-j sure, i?j possible; "
                         "empty: none)")
    aligner: str = Field(description=ALIGNER_LABEL.format(what="the aligner that aligned"))
    signature: str = Field(description="every setting that changes the links, sacrebleu-style "
                           "(aligner:...|sim:...|spacy:...|version:...)")
    svg: str | None = Field(None, description="the alignment grid as SVG, when the request asked for "
                            "a picture (else null)")


class SimilarityResponse(BaseModel):
    source_tokens: list[str] = Field(description="the source sentence as tokenised for aligning")
    target_tokens: list[str] = Field(description="the target sentence as tokenised for aligning")
    links: int = Field(description="how many links the one alignment every signal reads has")
    aligner: str = Field(description=ALIGNER_LABEL.format(what="the aligner of that alignment"))
    scores: dict[str, float | None] = Field(description="signal -> score, in [0, 1] except a hybrid blend's "
                                            "(null: undefined)")
    signature: str = Field(description="every setting that changes a score, sacrebleu-style "
                           "(signal:...|aligner:...|spacy:...|version:...)")
    notes: list[str] = Field(default_factory=list, description="what to know about these scores: a hybrid "
                             "blend used with another aligner than the one it was fitted on")


class BatchRow(BaseModel):
    """One row of a batch: its line, id, sentences and score, or why it has none."""

    line: int = Field(description="its line in the input, from 1 (a table's record: the line it starts on)")
    id: str | None = Field(description="its JSONL \"id\" (null: none)")
    source: str | list[str] | None = Field(description="its first sentence (null: the line is bad)")
    target: str | list[str] | None = Field(description="its second sentence (null: the line is bad)")
    score: float | None = Field(description="its score (null: the line is bad, or the pair could not be scored)")
    error: str | None = Field(description="why it has no score, as `paralign similarity` reports it (null: scored)")


class BatchResponse(BaseModel):
    rows: list[BatchRow] = Field(description="every row, in input order, bad ones in their place")
    pairs: int = Field(description="how many rows were read")
    skipped: int = Field(description="how many of them have no score (each one's error says why)")
    signature: str = Field(description="every setting that changes a score, sacrebleu-style, as `paralign "
                           "similarity` writes it")
    notes: list[str] = Field(default_factory=list, description="what to know about these scores, as the command "
                             "warns of it (the report's notes): how an input whose first fields could be ids or gold "
                             "scores was read, and the input_format that reads it the other way; a repeated id; a "
                             "hybrid blend used with another aligner than the one it was fitted on")
    report: dict[str, Any] = Field(description="exactly what `paralign similarity --signal S --aligner A --preset "
                                   "P --format json` writes for this input (its scores, failures, skipped_rows, notes, "
                                   "ids)")
    text: str = Field(description="exactly what `paralign similarity --format text` writes for this input: a TSV "
                      "of one score a line, NA for a row without one")


class Span(BaseModel):
    """Hypothesis tokens start:end, how they matched, and the reference words they matched."""

    start: int = Field(description="its first token's place in tokens, from 0")
    end: int = Field(description="the place after its last token (tokens[start:end])")
    text: str = Field(description="its tokens, joined by spaces")
    tier: SpanTier = Field(description="how it matched (unmatched: not at all)")
    matched: list[str] = Field(description="the reference words it matched")


class WordMatch(BaseModel):
    """One match of a graded config: hypothesis tokens hyp_start:hyp_end and reference tokens
    ref_start:ref_end (of the reference scored against), their tier, grade (a scored table
    pair's probability, a contextual match's cosine, else 1) and the config's tier weight."""

    tier: Tier = Field(description="the tier that matched")
    hyp_start: int = Field(description="the first hypothesis token's place in tokens, from 0")
    hyp_end: int = Field(description="the place after the last one (tokens[hyp_start:hyp_end])")
    ref_start: int = Field(description="the first reference token's place in reference_tokens, from 0")
    ref_end: int = Field(description="the place after the last one")
    hypothesis: str = Field(description="the hypothesis tokens, joined by spaces")
    reference: str = Field(description="the reference tokens, joined by spaces")
    grade: float = Field(description="a scored table pair's probability, a contextual match's cosine, else 1")
    weight: float = Field(description="the config's weight of the tier")


class Chunk(BaseModel):
    """A run of matched hypothesis tokens start:end that is also a run in the reference."""

    start: int = Field(description="its first token's place in tokens, from 0")
    end: int = Field(description="the place after its last token")
    text: str = Field(description="its tokens, joined by spaces")


class GradedView(BaseModel):
    """What a graded config matched: the reference scored against (its number from 0, the best
    of several) and its tokens, the score against each reference, the matches by tier and the
    chunks the fragmentation penalty counts (penalty = gamma (chunks / matched words) ** beta,
    0 when one chunk holds every word of both sides; score = fmean (1 - penalty))."""

    reference: int = Field(description="the reference scored against (the best), its place in references, from 0")
    reference_tokens: list[str] = Field(description="that reference as tokenised for scoring")
    reference_scores: list[float] = Field(description="the score against each reference, in their order")
    matches: list[WordMatch] = Field(description="the matches against that reference")
    chunks: list[Chunk] = Field(description="the chunks the fragmentation penalty counts")
    fmean: float = Field(description="the Fmean of precision and recall, with the config's alpha")
    penalty: float = Field(description="the fragmentation penalty")


class ParaEvalResponse(BaseModel):
    config: str = Field(description="the configuration that scored")
    tokens: list[str] = Field(description="the hypothesis as tokenised for scoring")
    spans: list[Span] = Field(description="the hypothesis tokens in runs, each with how it matched")
    score: float | None = Field(description="the headline score of a graded config (null for paper, "
                                "whose headline is f)")
    precision: float | None = Field(description="the segment's precision, as `paralign paraeval` computes it "
                                    "(null: undefined)")
    recall: float | None = Field(description="the segment's recall, as `paralign paraeval` computes it "
                                 "(null: undefined)")
    f: float | None = Field(description="the segment's F, as `paralign paraeval` computes it (null: undefined)")
    counts: dict[str, int | float] = Field(description="the statistics behind the scores, as "
                                           "`paralign paraeval --sentence-level --format json` gives them")
    signature: str = Field(description="every setting that changes the score, sacrebleu-style, as "
                           "`paralign paraeval` writes it")
    graded: GradedView | None = Field(None, description="a graded config's matches by tier (null for paper)")


class Edge(BaseModel):
    """A lattice edge: from state, word (null: an empty edge), to state."""

    start: int = Field(description="the state it leaves")
    word: str | None = Field(description="its word (null: an empty edge)")
    end: int = Field(description="the state it enters")


class LatticeResponse(BaseModel):
    states: int = Field(description="how many states it has: 0 is the start state, states - 1 the end state")
    edges: list[Edge] = Field(description="every edge")
    paths: str = Field(description="the number of paths (a decimal string: it can be huge)")
    log10_paths: float = Field(description="the base-10 logarithm of the number of paths")
    some_paths: list[str] = Field(description="up to 10 of its paths, each a sentence it spells")
    svg: str | None = Field(None, description="the lattice drawing as SVG, when the request asked for a "
                            "picture (else null)")


class Paraphrase(BaseModel):
    paraphrase: str = Field(description="a paraphrase of the phrase")
    score: float | None = Field(description="its score in the source, named score_column: a table's third column "
                                "(p(e2|e1) in a pivot table, the number of groups giving the pair in a lattice table; "
                                "null: a row without one, or a source without scores: PPDB's pairs, WordNet)")
    columns: dict[str, int | float | str | None] = Field(
        default_factory=dict, description="the row's other columns in the table, by the names of the response's "
        "columns (pivots and support in a pivot table, count and phrase_count in a monolingual one), as `paralign "
        "paraphrases --format json` keys them; empty for a source without them")


class ParaphrasesResponse(BaseModel):
    phrase: str = Field(description="the phrase as the request gave it")
    looked_up_as: str | None = Field(
        None, description="the phrase as the source was asked for it, when that is not the phrase as typed "
        "(a table is asked for it as it holds its phrases: Man's is man 's in a table that pivot built); "
        "the key of `paralign paraphrases --format json`")
    table: str = Field(description="the source that was asked")
    score_column: str = Field("score", description="what the source names the score: probability (p(e2|e1)) in "
                              "a table pivot or paraphrase-table built, a table header's name, else score; the key "
                              "of the score in `paralign paraphrases --format json`")
    columns: list[str] = Field(default_factory=list, description="the names of the table's other columns, each "
                               "paraphrase's columns (none for PPDB, WordNet or a table of three columns)")
    total: int = Field(description="how many paraphrases the source has for it (paraphrases lists at most limit)")
    paraphrases: list[Paraphrase] = Field(description="the paraphrases, best first, at most limit of them")


class Info(BaseModel):
    aligners: list[str] = Field(description="the aligners this server offers")
    presets: list[str] = Field(description="the presets this server offers (the sultan aligner's option sets; "
                               "the aligners that take each: a request's preset field)")
    signals: list[str] = Field(description="the similarity signals /api/similarity scores (and /api/similarity/batch "
                               "takes)")
    tables: list[str] = Field(description="the paraphrase sources loaded at start-up, by the names a request gives")
    limits: dict[str, int] = Field(description="the input limits: name -> number (characters, tokens, items, "
                                   "bytes, as the name says); batch_pairs: the most rows a batch may hold "
                                   "(`paralign serve --max-pairs`), batch_body_bytes: the most bytes its body may take")
    paraeval_configs: list[str] = Field(description="the ParaEval configs this server offers")
    encoder: str | None = Field(
        None, description="the neural encoder every neural part of this server runs (the contextual aligner and "
        "preset, the neural signals, the contextual ParaEval config; `paralign serve --encoder`), named as "
        "signatures name it; null when it runs none (the neural extra is not installed)")
    unavailable: dict[str, dict[str, str]] = Field(
        description="what this server does not offer, by the list above it is left out of (aligners, presets, "
        "signals, paraeval_configs): name -> why (an optional extra that is not installed, with its pip install "
        "command; a signal that needs fitting on training sentences)")
