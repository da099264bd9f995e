"""Dependency-type equivalences (the paper's Table 1), re-expressed in spaCy's ClearNLP labels.

Sultan et al. used collapsed Stanford dependencies (prep_in, conj_and, rcmod, nn, ...). spaCy's
English models emit ClearNLP labels with prepositions and conjunctions as tokens, so
:func:`collapsed_edges` first collapses ``prep``+``pobj`` into ``prep_<word>``, ``agent``+``pobj``
into ``agent`` and ``cc``+``conj`` into ``conj_<word>``, and adds the copular subject edge that
Stanford puts on a predicate adjective or noun (``nsubj(big, Bill)`` for "Bill is big").

Mapping used below (Stanford -> ClearNLP): nn -> compound, rcmod -> relcl, infmod/partmod -> acl,
tmod -> npadvmod, iobj -> dative, purpcl -> advcl, poss -> poss, agent -> agent (collapsed),
xsubj and rel have no ClearNLP counterpart and are dropped.

Equal labels always count as equivalent. Each row is a group: any two labels of one group are
equivalent. "parent" rows compare the labels of the two words' own attachments to their
parents, "child" rows the labels of children; "cross" rows pair a parent-side label group with a
child-side label group (one sentence says it with s as the child, the other with t as the parent).
"""

from __future__ import annotations

from collections.abc import Sequence

# Category of the pair being aligned: v(erb), n(oun), j (adjective), r (adverb), by Penn tag.
Group = frozenset[str]


def _g(*labels: str) -> Group:
    return frozenset(labels)


_LOCATIVE = ("npadvmod", "prep_in", "prep_at", "prep_on")  # Stanford {tmod, prep_in, prep_at, prep_on}
_NOUN_MOD = ("poss", "compound", "prep_of", "prep_in", "prep_at", "prep_for")  # {pos, nn, prep_of, ...}
_SUBJECT = ("agent", "nsubj")  # Stanford {agent, nsubj, xsubj}
_OBJECT = ("ccomp", "dobj", "nsubjpass")  # Stanford {ccomp, dobj, nsubjpass, rel, partmod}
_RECIPIENT = ("dative", "prep_to")  # Stanford {iobj, prep_to}
_PURPOSE = ("advcl", "xcomp")  # Stanford {purpcl, xcomp}
_NOUN_CLAUSE = ("acl", "relcl")  # Stanford {infmod, partmod, rcmod}
_ADJ_MOD = ("amod", "relcl")  # Stanford {amod, rcmod}

#: Same-direction groups compared on the two words' children (labels of the child edges).
CHILD_GROUPS: dict[str, tuple[Group, ...]] = {
    # verbs: subjects (active agent = passive by-phrase), objects, time/place, recipients, purpose
    "v": (_g(*_SUBJECT), _g(*_OBJECT), _g(*_LOCATIVE), _g(*_RECIPIENT), _g(*_PURPOSE)),
    # nouns: noun modifiers ("Italy's paper" ~ "paper of Italy"), clauses and adjectival modifiers
    "n": (_g(*_NOUN_MOD), _g(*_NOUN_CLAUSE), _g(*_ADJ_MOD)),
    # adjectives and adverbs: identical labels only
    "j": (),
    "r": (),
}

#: Same-direction groups compared on the labels of the two words' own attachments to parents.
PARENT_GROUPS: dict[str, tuple[Group, ...]] = {
    # verbs as clausal modifiers of nouns, or as purpose/controlled clauses of verbs
    "v": (_g(*_NOUN_CLAUSE), _g(*_PURPOSE)),
    # nouns under a noun (modifier roles) or a verb (argument roles)
    "n": (_g(*_NOUN_MOD), _g(*_SUBJECT), _g(*_OBJECT), _g(*_LOCATIVE), _g(*_RECIPIENT)),
    # adjectives modifying nouns, attributively or as a relative clause
    "j": (_g(*_ADJ_MOD),),
    "r": (),
}

#: Cross-direction rows: (labels where the word is the CHILD of the context word,
#: labels where the word is the PARENT of the context word).
CROSS_GROUPS: dict[str, tuple[tuple[Group, Group], ...]] = {
    # verbs: "he wrote the book" (book = dobj child) ~ "the book he wrote" (wrote = relcl of book)
    "v": ((_g(*_NOUN_CLAUSE), _g(*_OBJECT)),),
    # nouns: "the book he wrote" (book parent via relcl) ~ "wrote the book" (book = dobj);
    # "the car is red" (car = nsubj of red, copular edge) ~ "the red car" (red = amod child)
    "n": ((_g(*_OBJECT), _g(*_NOUN_CLAUSE)), (_g("nsubj"), _g(*_ADJ_MOD))),
    # adjectives: "the red car" (red = amod of car) ~ "the car is red" (car = nsubj of red)
    "j": ((_g(*_ADJ_MOD), _g("nsubj")),),
    "r": (),
}

#: Labels of prepositions whose object is collapsed into the head edge.
_PREP_LABELS = frozenset({"prep", "agent"})
_PREP_OBJECTS = frozenset({"pobj", "pcomp"})
#: Copular verbs whose predicate (acomp/attr) gets Stanford's nsubj edge to the subject.
_COPULAS = frozenset({"be", "become", "seem", "remain", "appear", "look", "sound", "feel", "stay"})

Edge = tuple[int, str]  # (other token index, label); index -1 = the ROOT pseudo-node


def collapsed_edges(
    tokens: Sequence[str], lemmas: Sequence[str], heads: Sequence[int], deps: Sequence[str]
) -> tuple[list[list[Edge]], list[list[Edge]]]:
    """Per-token parent and child edges with collapsed labels (Stanford-collapsed style).

    ``parents[i]`` lists (head, label of i's attachment); ``children[i]`` lists (child, label).
    The root gets a parent edge (-1, "root"). Preposition/agent tokens keep no edge to their
    head once their object is collapsed, and ``cc`` tokens are folded into ``conj_<cc>``.
    """
    n = len(tokens)
    parents: list[list[Edge]] = [[] for _ in range(n)]
    children: list[list[Edge]] = [[] for _ in range(n)]
    raw_children: list[list[int]] = [[] for _ in range(n)]
    for i, h in enumerate(heads):
        if 0 <= h < n and h != i:
            raw_children[h].append(i)

    def add(h: int, c: int, label: str) -> None:
        if h == c:
            return
        if h < 0:
            parents[c].append((-1, label))
            return
        parents[c].append((h, label))
        children[h].append((c, label))

    for i in range(n):
        h, dep = heads[i], deps[i].lower()
        if h < 0 or h == i or h >= n:
            add(-1, i, "root")
            continue
        if dep in _PREP_OBJECTS and deps[h].lower() in _PREP_LABELS and 0 <= heads[h] < n:
            grand = heads[h]
            label = "agent" if deps[h].lower() == "agent" else "prep_" + tokens[h].lower()
            add(grand, i, label)
            continue
        if dep in _PREP_LABELS and any(deps[c].lower() in _PREP_OBJECTS for c in raw_children[i]):
            continue  # collapsed into its object's edge
        if dep == "conj":
            ccs = [tokens[c].lower() for c in raw_children[h] if deps[c].lower() == "cc"]
            ccs += [tokens[c].lower() for c in raw_children[i] if deps[c].lower() == "cc"]
            add(h, i, "conj_" + ccs[0] if ccs else "conj")
            continue
        if dep == "cc":
            continue
        add(h, i, dep)
    # Stanford's copular analysis: "X is Y" also gives nsubj(Y, X) for a predicate adjective/noun.
    for i in range(n):
        if lemmas[i].lower() not in _COPULAS:
            continue
        preds = [c for c in raw_children[i] if deps[c].lower() in ("acomp", "attr")]
        subjects = [c for c in raw_children[i] if deps[c].lower() in ("nsubj", "csubj")]
        for p in preds:
            for s in subjects:
                add(p, s, deps[s].lower())
    return parents, children


def equivalent(category: str, label_s: str, label_t: str, groups: dict[str, tuple[Group, ...]]) -> bool:
    """True when two same-direction labels are identical or share a group for the category."""
    if label_s == label_t:
        return True
    return any(label_s in g and label_t in g for g in groups.get(category, ()))


def cross_equivalent(category: str, child_label: str, parent_label: str) -> bool:
    """True when a child-side label (word is the child) matches a parent-side label."""
    return any(
        child_label in a and parent_label in b for a, b in CROSS_GROUPS.get(category, ())
    )
