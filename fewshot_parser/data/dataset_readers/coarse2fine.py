from typing import Any, Dict, Iterable, List, Optional, Tuple

import numpy
from allennlp.common.checks import ConfigurationError
from allennlp.common.util import END_SYMBOL, START_SYMBOL
from allennlp.data import DatasetReader, Instance, Token, TokenIndexer
from allennlp.data.fields import ArrayField, LabelField, MetadataField, SequenceLabelField, TextField
from allennlp.data.token_indexers import SingleIdTokenIndexer

from fewshot_parser.data.examples import parse_logical_form, read_examples, split_data_spec
from fewshot_parser.data.paths import resolve_data_path
from fewshot_parser.data.signature_check import SignatureCheck
from fewshot_parser.logical_forms.template import DEFAULT_ENTITY_PATTERN, Abstractor, entity_positions, is_slot
from fewshot_parser.logical_forms.tree import CONJUNCTION, NEGATION, Tree, check_formalism, to_string

NO_VARIABLE = "@none@"
SKETCH_NAMESPACE = "sketch_tokens"
VARIABLE_NAMESPACE = "c2f_variables"
PREDICATE_NAMESPACE = "c2f_predicates"
# Stands for an abstracted predicate in a sketch (not a slot in `template.is_slot`'s sense).
PREDICATE_SLOT = "<p>"
# The operators of each formalism: what stays in a sketch whose predicates are abstracted.
OPERATORS = {
    "lambda": frozenset(
        {"lambda", "exists", "and", "or", "not", "argmax", "argmin", "count", "sum", "max", "min", "the", "=", "<", ">"}
    ),
    "prolog": frozenset({CONJUNCTION, NEGATION}),
}


def abstract_predicates(tree: Tree, formalism: str) -> Tuple[Tree, List[str]]:
    """Replaces every predicate (an application that is not an operator) by `<p>`; returns the
    new tree and the predicates in pre-order, the order in which both formalisms print them."""
    predicates: List[str] = []

    def walk(node: Tree) -> Tree:
        label = node.label
        if node.is_call and label not in OPERATORS[formalism]:
            predicates.append(label)
            label = PREDICATE_SLOT
        return Tree(label, tuple(walk(child) for child in node.children), node.is_call)

    return walk(tree), predicates


@DatasetReader.register("fewshot_coarse2fine")
class Coarse2FineReader(DatasetReader):
    """
    Instances for the Coarse2Fine baseline (Dong & Lapata, 2018): the utterance, the *sketch* (the
    LF printed with entities abstracted to typed slots `<e:ci>` and variables to `<v>`) and, for
    every slot of the sketch, what fills it.

    Fields: `source_tokens`; `sketch_tokens` (`TextField`, namespace `sketch_tokens`, with start and
    end symbols); `slot_kind` (`ArrayField`, one entry per sketch token: 0 none, 1 entity, 2 variable, 3 predicate);
    `entity_targets` (`ArrayField`, sketch length x utterance length, every utterance position that
    holds the entity); `variables` (`SequenceLabelField` over the sketch, namespace `c2f_variables`,
    `@none@` where there is no variable); `metadata`.

    Registered as a `DatasetReader` with name "fewshot_coarse2fine".

    # Parameters

    formalism : `str`
        `"lambda"` or `"prolog"`.
    entity_pattern : `str`, optional
        Atoms matching it that occur in the utterance are entities.
    skip_invalid : `bool`, optional (default = `False`)
        Skip (and log) malformed lines instead of raising an error naming file and line.
    token_indexers : `Dict[str, TokenIndexer]`, optional
        Indexers of the utterance (default: single ids in namespace `tokens`).
    abstract_predicates : `bool`, optional (default = `False`)
        Also abstract the predicates (every application but the formalism's operators) to `<p>` in
        the sketch, so that the sketch is the domain-general structure and the fine stage names the
        predicates (`predicates`: `SequenceLabelField`, namespace `c2f_predicates`; slot kind 3).
        The DA baseline uses this.
    domain_labels : `bool`, optional (default = `False`)
        Adds a `domain` label for domain adaptation (the DA baseline): 0 (source) for the examples
        of the first file of a combined data path (`train.txt+support.txt*5`), 1 (target) for the
        files after it. A single file is all source.
    check_signatures : `bool`, optional (default = `True`)
        Check predicate arities against the signatures learned from the training file (the
        `train.txt` beside the first file read; see `fewshot_parser.data.signature_check`).
    overloaded_predicates : `Dict[str, List[int]]`, optional
        Predicates that may take each of the listed arities (default: the benchmark's own).
    """

    def __init__(
        self,
        formalism: str,
        entity_pattern: str = DEFAULT_ENTITY_PATTERN,
        skip_invalid: bool = False,
        token_indexers: Optional[Dict[str, TokenIndexer]] = None,
        abstract_predicates: bool = False,
        domain_labels: bool = False,
        check_signatures: bool = True,
        overloaded_predicates: Optional[Dict[str, List[int]]] = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(manual_distributed_sharding=True, manual_multiprocess_sharding=True, **kwargs)
        self._formalism = check_formalism(formalism)
        self._abstractor = Abstractor(self._formalism, entity_pattern)
        self._skip_invalid = skip_invalid
        self._token_indexers = token_indexers or {"tokens": SingleIdTokenIndexer()}
        self._sketch_indexers: Dict[str, TokenIndexer] = {"tokens": SingleIdTokenIndexer(namespace=SKETCH_NAMESPACE)}
        self._domain_labels = domain_labels
        self._abstract_predicates = abstract_predicates
        self._signatures = SignatureCheck(self._formalism, check_signatures, None, overloaded_predicates)

    def _read(self, file_path: str) -> Iterable[Instance]:
        source_file = resolve_data_path(split_data_spec(file_path)[0][0]) if self._domain_labels else None
        signatures = self._signatures.signatures_for(file_path)
        examples = read_examples(file_path, self._formalism, self._skip_invalid, signatures)
        for example in self.shard_iterable(examples):
            domain = None if source_file is None else int(example.source != source_file)
            try:
                yield self.text_to_instance(" ".join(example.utterance), example.logical_form, domain)
            except ConfigurationError as error:
                raise ConfigurationError(f"{example.source}:{example.line_number}: {error}") from None

    def text_to_instance(  # type: ignore
        self, utterance: str, logical_form: Optional[str] = None, domain: Optional[int] = None
    ) -> Instance:
        tokens = utterance.split() if isinstance(utterance, str) else None
        if not tokens:
            raise ConfigurationError(f"utterance must be a non-empty string, got {utterance!r}")
        fields: Dict[str, Any] = {"source_tokens": TextField([Token(t) for t in tokens])}
        metadata: Dict[str, Any] = {"utterance": tokens, "formalism": self._formalism, "logical_form": None}
        if logical_form is not None:
            logical_form, tree = parse_logical_form(logical_form, self._formalism)
            template, values = self._abstractor.abstract(tree, tokens)
            predicates: List[str] = []
            if self._abstract_predicates:
                template, predicates = abstract_predicates(template, self._formalism)
            sketch = to_string(template, self._formalism).split()
            predicate_positions = [i for i, token in enumerate(sketch) if token == PREDICATE_SLOT]
            if len(predicate_positions) != len(predicates):
                raise ConfigurationError(
                    f"sketch {' '.join(sketch)!r} has {len(predicate_positions)} predicate slots for {predicates}"
                )
            slots = [i for i, token in enumerate(sketch) if is_slot(token)]
            if len(slots) != len(values):  # printing keeps the pre-order of the slot leaves
                raise ConfigurationError(f"sketch {' '.join(sketch)!r} has {len(slots)} slots for {len(values)} values")
            full = [START_SYMBOL] + sketch + [END_SYMBOL]
            kind = numpy.zeros(len(full), dtype=numpy.int64)
            entity_targets = numpy.zeros((len(full), len(tokens)), dtype=numpy.float32)
            variables = [NO_VARIABLE] * len(full)
            for position, value in zip(slots, values):
                if value.kind == "variable":
                    kind[position + 1] = 2
                    variables[position + 1] = value.value
                else:
                    kind[position + 1] = 1
                    entity_targets[position + 1, entity_positions(value.value, tokens)] = 1.0
            predicate_labels = [NO_VARIABLE] * len(full)
            for position, predicate in zip(predicate_positions, predicates):
                kind[position + 1] = 3
                predicate_labels[position + 1] = predicate
            sketch_field = TextField([Token(t) for t in full], self._sketch_indexers)
            fields.update(
                {
                    "sketch_tokens": sketch_field,
                    "slot_kind": ArrayField(kind, padding_value=0, dtype=numpy.dtype(numpy.int64)),
                    "entity_targets": ArrayField(entity_targets, padding_value=0),
                    "variables": SequenceLabelField(variables, sketch_field, label_namespace=VARIABLE_NAMESPACE),
                }
            )
            if self._abstract_predicates:
                fields["predicates"] = SequenceLabelField(
                    predicate_labels, sketch_field, label_namespace=PREDICATE_NAMESPACE
                )
            metadata.update({"logical_form": logical_form, "sketch": sketch})
        if domain is not None:
            fields["domain"] = LabelField(domain, skip_indexing=True)
        fields["metadata"] = MetadataField(metadata)
        return Instance(fields)

    def apply_token_indexers(self, instance: Instance) -> None:
        instance.fields["source_tokens"].token_indexers = self._token_indexers  # type: ignore
