"""The aligner registry: alignment functions by name (``sultan`` with a preset, ``contextual``,
``exact``).

:func:`get_aligner` is the one place that turns a name from the command line or a saved report
into an alignment function, and :data:`ALIGNER_NAMES` the one list of those names.

Not for: the aligners themselves (:mod:`paralign.aligners.sultan`, :mod:`paralign.aligners.exact`)
or their options (:mod:`paralign.aligners.sultan`'s presets).
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from ..alignment import AlignFunction, Alignment, TextAlignFunction
from ..errors import ConfigurationError, InputTypeError, shown_value
from ..nlp import TextOrTokens
from ..sentence import Sentence
from .exact import ExactAligner, exact_match_aligner

if TYPE_CHECKING:  # pragma: no cover
    from .contextual import ContextualAligner
    from .sultan import Aligner as SultanAligner


def default_aligner() -> AlignFunction:
    """The Sultan et al. 2014 aligner with default options (`align_sentences`), built once."""
    return _preset_aligner("default").align_sentences


@dataclass(frozen=True, slots=True)
class PresetAligner:
    """The Sultan aligner with a named option preset, built once per process.

    It holds only the preset's name, so process pools pickle it cheaply; each worker builds (and
    loads the word-similarity data for) its own aligner on first use.
    """

    preset: str

    def __post_init__(self) -> None:
        from .sultan.options import preset_options

        preset_options(self.preset)  # an unknown name fails here, not in a worker

    def __call__(self, source: Sentence | TextOrTokens, target: Sentence | TextOrTokens) -> Alignment:
        """Align two annotated Sentences (as the batches pass them) or two texts or token lists,
        annotated first as ``Aligner.align`` does."""
        aligner = _preset_aligner(self.preset)
        if isinstance(source, Sentence) and isinstance(target, Sentence):
            return aligner.align_sentences(source, target)
        return aligner.align(source, target)


@functools.cache
def _preset_aligner(preset: str) -> SultanAligner | ContextualAligner:
    """The aligner of a preset, built once per process (workers inherit or build their own)."""
    return build_preset_aligner(preset)


def build_preset_aligner(preset: str) -> SultanAligner | ContextualAligner:
    """A new aligner of a preset (:func:`get_aligner` shares one per process): the Sultan
    aligner with the preset's options; the ``contextual`` preset is the contextual aligner (the
    `neural` extra) with its defaults. For an owner that changes it, such as a server bounding
    its caches."""
    from .sultan import Aligner, preset_options
    from .sultan.options import NEURAL_PRESETS

    if preset in NEURAL_PRESETS:
        from .contextual import ContextualAligner

        return ContextualAligner()
    return Aligner(**preset_options(preset))


def get_aligner(name: str, preset: str = "default") -> TextAlignFunction:
    """An alignment function by name: ``sultan`` with an option ``preset`` (see
    :data:`paralign.aligners.sultan.PRESETS`), ``contextual`` (the same as ``sultan`` with the
    ``contextual`` preset: needs the `neural` extra; its alignments carry a confidence per link)
    or ``exact`` (which has no presets).

    The function takes two sentences, each an annotated :class:`~paralign.sentence.Sentence`
    (:func:`paralign.annotate`), a text or a token list, and returns their
    :class:`~paralign.alignment.Alignment` (links index the Sentence's, or the annotated text's,
    tokens). It is what ``similarity(aligner=...)`` and the batch functions take; built once,
    it loads its data on first use. An unknown name or preset is a ConfigurationError. A label
    as results and signatures write it (``sultan:paraphrase``, :func:`aligner_label`) is taken
    as its name and preset, so what a result names can be asked for again. A name or preset
    that is not a str is an InputTypeError.

    >>> align = paralign.get_aligner("exact")   # token lists: no spaCy model needed
    >>> align("The cat sat .".split(), "A cat sat down .".split())
    Alignment.from_pharaoh('1-1 2-2 3-4')

    Every name gives an aligner object of its own kind, a frozen value that is called as the
    function: :class:`PresetAligner` (``sultan``, ``contextual``) and :class:`ExactAligner`
    (``exact``; its ``align_many`` and ``annotate`` too, which read tokens alone). Before,
    ``exact`` gave the bare :func:`exact_match_aligner`, which has no ``annotate``: what asks an
    aligner for its own (``viz.notebook.aligned``) parsed each text with the whole spaCy pipeline
    for links between equal words. (``evaluate_aligner`` takes an aligner object with the batch
    methods: ``paralign.Aligner(...)``, ``paralign.aligners.ExactAligner()``.)"""
    for what, value in (("aligner name", name), ("preset", preset)):
        if not isinstance(value, str):
            raise InputTypeError(f"{what} must be a str (get_aligner('sultan', 'paraphrase')), not "
                                 f"{type(value).__name__} {shown_value(value)}")
    if ":" in name and preset == "default":
        name, _, preset = name.partition(":")
    if name == "sultan":
        return PresetAligner(preset)
    if name == "contextual":
        if preset not in ("default", "contextual"):
            raise ConfigurationError(f"the contextual aligner has no preset {preset!r}")
        return PresetAligner("contextual")
    if name == "exact":
        if preset != "default":
            raise ConfigurationError(f"the exact-match aligner has no presets (got {preset!r})")
        return ExactAligner()
    raise ConfigurationError(f"unknown aligner {name!r}: use one of {', '.join(ALIGNER_NAMES)}")


def resolve_aligner(aligner: AlignFunction | str | None) -> AlignFunction | None:
    """An `aligner=` argument as a function: None stays None (the caller's default), a name
    (``"exact"``, or ``"sultan:paraphrase"`` as :func:`aligner_label` writes it) is
    :func:`get_aligner`'s, a function is used as it is; anything else is an InputTypeError."""
    if aligner is None or callable(aligner):
        return aligner
    if isinstance(aligner, str):
        return get_aligner(aligner)
    raise InputTypeError(f"aligner must be an alignment function (get_aligner, an Aligner) or a name, "
                         f"not {type(aligner).__name__}")


def aligner_label(aligner: AlignFunction | None) -> str:
    """How an alignment function is named in results and signatures (``sultan:paraphrase``)."""
    if aligner is None:
        return "sultan:default"
    if isinstance(aligner, PresetAligner):
        return f"sultan:{aligner.preset}"
    if is_exact_aligner(aligner):
        return "exact"
    owner = getattr(aligner, "__self__", aligner)  # an aligner, or its bound method
    if is_contextual_aligner(owner):  # the contextual preset's, on whichever encoder (its signature names it)
        return "sultan:contextual"
    preset = _preset_of(owner)
    if preset is not None:
        return f"sultan:{preset}"
    return getattr(aligner, "__qualname__", type(aligner).__name__)


def is_exact_aligner(value: object) -> bool:
    """The exact-match aligner: its function (the registry's ``exact``), an :class:`ExactAligner`
    (what ``align --aligner exact`` runs) or one of its bound methods."""
    return value is exact_match_aligner or isinstance(getattr(value, "__self__", value), ExactAligner)


def is_contextual_aligner(value: object) -> bool:
    """A ContextualAligner (whose module, and numpy, are not imported just to ask)."""
    module = sys.modules.get("paralign.aligners.contextual.aligner")
    return module is not None and isinstance(value, module.ContextualAligner)


def _preset_of(aligner: object) -> str | None:
    """The preset a Sultan ``Aligner`` is exactly (its options and word similarity those
    ``get_aligner("sultan", preset)`` builds), else None."""
    module = sys.modules.get("paralign.aligners.sultan.aligner")  # no Aligner exists unless loaded
    if module is None or type(aligner) is not module.Aligner:
        return None
    # cast: the class is looked up in sys.modules (not imported here), so mypy cannot narrow by it
    sultan = cast("SultanAligner", aligner)
    if sultan.similarity_spec != "ppdb":
        return None
    from .sultan import AlignerConfig, preset_options
    from .sultan.options import NEURAL_PRESETS, PRESETS

    return next((name for name in PRESETS if name not in NEURAL_PRESETS
                 and sultan.config == AlignerConfig(**preset_options(name))), None)


ALIGNER_NAMES = ("sultan", "contextual", "exact")

#: The presets each aligner but sultan (which takes every one) takes (:func:`preset_clash`):
#: ``default`` with every aligner (its own option set), ``contextual`` with the contextual one.
ALIGNER_PRESETS: dict[str, tuple[str, ...]] = {"exact": ("default",), "contextual": ("default", "contextual")}


def command_option(name: str, value: str | None = None) -> str:
    """How the command line names an option, with its value: ``--preset paraphrase``."""
    return f"--{name}" if value is None else f"--{name} {value}"


def preset_clash(aligner: str, preset: str | None,
                 option: Callable[[str, str | None], str] = command_option) -> str | None:
    """Why a `preset` asked for (None: none asked) cannot go with the aligner named `aligner`, or
    None when it can. One rule: ``default`` goes with every aligner, as ``get_aligner(name)``
    takes it (its `preset` defaults to it) and names that aligner's own option set: the sultan
    aligner's default preset, the exact-match aligner's only one, the contextual aligner's (the
    sultan aligner's ``contextual`` preset); besides it the sultan aligner takes every preset,
    the contextual aligner ``contextual`` and the exact aligner none (:data:`ALIGNER_PRESETS`,
    which the web API's schema states too). Given with either, another
    preset was ignored without a word; this is the one check of every command's ``--aligner``
    and ``--preset`` and of the web API's ``"aligner"`` and ``"preset"`` (`option(name, value)`
    names them, the command line's way by default), so both refuse alike, with one message.

    Why ``default`` with every aligner: the web API's pages send a preset with every aligner,
    ``default`` when none is chosen, and the API took it, while the command line refused a typed
    ``--preset default`` with ``--aligner exact`` and then with ``--aligner contextual``, which
    the API and ``get_aligner("contextual", "default")`` took."""
    if preset is None or aligner not in ALIGNER_PRESETS or preset in ALIGNER_PRESETS[aligner]:
        return None
    if aligner == "exact":
        return (f"{option('aligner', 'exact')} has no preset but default ({option('preset', preset)}): the "
                f"exact-match baseline links identical words only; leave {option('preset', None)} out")
    return (f"{option('aligner', 'contextual')} is {option('preset', 'contextual')} (the contextual aligner), "
            f"not {option('preset', preset)}: give one of them")
