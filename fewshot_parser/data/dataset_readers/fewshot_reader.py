import logging
import os
import tarfile
from typing import Any, Dict, List, Optional, Tuple

import numpy
from allennlp.common.checks import ConfigurationError
from allennlp.data import DatasetReader, Instance, Token, TokenIndexer
from allennlp.data.fields import ArrayField, Field, LabelField, ListField, MetadataField, SequenceLabelField, TextField
from allennlp.data.token_indexers import SingleIdTokenIndexer

from fewshot_parser.data.entity_classes import EntityClasses
from fewshot_parser.data.examples import parse_logical_form, read_examples, read_training_examples
from fewshot_parser.data.signature_check import SignatureCheck, is_data_file
from fewshot_parser.logical_forms.actions import Action
from fewshot_parser.logical_forms.namespaces import (
    ACTION_NAMESPACE,
    ENTITY_TYPE_NAMESPACE,
    NOT_AN_ENTITY,
    VARIABLE_NAMESPACE,
)
from fewshot_parser.logical_forms.normalize import TemplateNormalizer, idioms_from_patterns
from fewshot_parser.logical_forms.template import DEFAULT_ENTITY_PATTERN, Abstractor, entity_positions
from fewshot_parser.logical_forms.transition_system import Step, TransitionSystem, teacher_forcing
from fewshot_parser.logical_forms.tree import Tree, check_formalism

logger = logging.getLogger(__name__)

# Learned normalizers, shared by every reader of a process (pre-training and fine-tuning readers
# built from the same training file learn once).
_NORMALIZER_CACHE: Dict[Tuple, TemplateNormalizer] = {}


def idioms_from_vocabulary(path: str) -> List[Tree]:
    """Reads the idioms saved in the `actions` namespace of a vocabulary directory or model archive."""
    lines: Optional[List[str]] = None
    if os.path.isdir(path):
        for candidate in (
            os.path.join(path, f"{ACTION_NAMESPACE}.txt"),
            os.path.join(path, "vocabulary", f"{ACTION_NAMESPACE}.txt"),
        ):
            if os.path.isfile(candidate):
                with open(candidate, encoding="utf-8") as handle:
                    lines = handle.read().splitlines()
                break
    elif tarfile.is_tarfile(path):
        with tarfile.open(path) as archive:
            member = archive.extractfile(f"vocabulary/{ACTION_NAMESPACE}.txt")
            if member is not None:
                lines = member.read().decode("utf-8").splitlines()
    if lines is None:
        raise ConfigurationError(
            f"{path}: no '{ACTION_NAMESPACE}' vocabulary found (expected a vocabulary directory or model archive)"
        )
    patterns = []
    for line in lines:
        if line.startswith("@@"):
            continue
        action = Action.from_string(line)
        if action.pattern is not None:
            patterns.append(action.pattern)
    return idioms_from_patterns(patterns)


@DatasetReader.register("fewshot_lf")
class FewShotReader(DatasetReader):
    """
    Reads `utterance<TAB>logical form` files (one example per line, tokens separated by spaces) in
    either formalism and produces instances for a transition-based parser.

    Fields of an instance:

    - `source_tokens` (`TextField`): the utterance.
    - `source_entity_types` (`SequenceLabelField`, namespace `entity_types`): the entity type of
      each utterance token (`ci` for `ci0`), `@none@` for other tokens; entity slots copy only
      tokens of their type.
    - with a logical form:
      - `actions` (`ListField[LabelField]`, namespace `actions`): the gold action sequence,
        ending with `STOP`;
      - `previous_state`, `stack_size` (`ArrayField`, one entry per action) and `popped_states`
        (`ArrayField`, actions x max arity, -1 padded): the stack pointers for teacher forcing (see
        `fewshot_parser.logical_forms.transition_system`);
      - `slot_step`, `slot_order`, `slot_is_variable` (`ArrayField`, one entry per slot, -1 padded
        steps) and `entity_targets` (`ArrayField`, slots x utterance length): which action each slot
        belongs to, its position among the action's slots of the same kind, its kind, and for entity
        slots every utterance position holding the value (copy targets);
      - `variable_values` (`ListField[LabelField]`, namespace `variables`): the variable names of the
        variable slots (-1 for entity slots).
    - `metadata`: utterance tokens, gold LF, gold action strings and slot values, source line.

    Registered as a `DatasetReader` with name "fewshot_lf".

    # Parameters

    formalism : `str`
        `"lambda"` (GeoQuery, ATIS) or `"prolog"` (Jobs); fixed by the benchmark readers.
    idiom_source : `str`, optional (default = `None`)
        Where template normalization comes from: a data path (the training file; idioms are learned
        from it), or a vocabulary directory or model archive whose `actions` namespace holds the
        idioms. `None` turns normalization off.
    min_support : `int`, optional (default = `5`)
        Minimum support of an idiom when learning.
    completeness : `float`, optional (default = `1.0`)
        Completeness threshold of an idiom when learning (see `TemplateNormalizer`).
    entity_pattern : `str`, optional
        Regular expression of atoms that are entities when they occur in the utterance.
    typed_entities : `bool`, optional (default = `True`)
        Whether entity slots carry the entity type.
    unify_slots : `bool`, optional (default = `False`)
        Variables and entities share one slot label `<s>`, so one action serves a predicate whatever
        fills its arguments; the model's slot filler then chooses a variable name or a copy.
    entity_classes : `EntityClasses`, optional (default = `None`)
        With typed entities, groups the types into classes, and a slot carries its type's class
        (`fewshot_parser.data.entity_classes`; e.g. `{"type": "shared_arguments"}`).
    skip_invalid : `bool`, optional (default = `False`)
        Skip (and log) malformed lines instead of raising an error naming file and line.
    check_signatures : `bool`, optional (default = `True`)
        Check every logical form read against the predicate signatures (arities) learned from the
        training file (`idiom_source` when it is a data path, else see
        `fewshot_parser.data.signature_check`); a predicate the training file lacks takes the
        signature of its first use. A mismatch is a malformed line.
    overloaded_predicates : `Dict[str, List[int]]`, optional
        Predicates that may take each of the listed arities (default: the benchmark's own,
        `BENCHMARK_OVERLOADS`).
    token_indexers : `Dict[str, TokenIndexer]`, optional
        Indexers of the utterance (default: single ids in namespace `tokens`).
    """

    # Subclasses for a benchmark fix the formalism here.
    default_formalism: Optional[str] = None

    def __init__(
        self,
        formalism: Optional[str] = None,
        idiom_source: Optional[str] = None,
        min_support: int = 5,
        completeness: float = 1.0,
        entity_pattern: str = DEFAULT_ENTITY_PATTERN,
        typed_entities: bool = True,
        unify_slots: bool = False,
        entity_classes: Optional[EntityClasses] = None,
        skip_invalid: bool = False,
        check_signatures: bool = True,
        overloaded_predicates: Optional[Dict[str, List[int]]] = None,
        token_indexers: Optional[Dict[str, TokenIndexer]] = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(manual_distributed_sharding=True, manual_multiprocess_sharding=True, **kwargs)
        if formalism and self.default_formalism and formalism != self.default_formalism:
            raise ConfigurationError(
                f"dataset_reader.formalism: this reader reads {self.default_formalism!r} logical forms, "
                f"not {formalism!r}"
            )
        formalism = formalism or self.default_formalism
        if not formalism:
            raise ConfigurationError('dataset_reader.formalism is required ("lambda" or "prolog")')
        try:
            self._formalism = check_formalism(formalism)
        except ValueError as error:
            raise ConfigurationError(f"dataset_reader.formalism: {error}") from error
        self._idiom_source = idiom_source
        self._min_support = min_support
        self._completeness = completeness
        self._skip_invalid = skip_invalid
        training = idiom_source if is_data_file(idiom_source) else None
        self._signatures = SignatureCheck(self._formalism, check_signatures, training, overloaded_predicates)
        self._token_indexers = token_indexers or {"tokens": SingleIdTokenIndexer()}
        if entity_classes is not None and (not typed_entities or unify_slots):
            raise ConfigurationError("dataset_reader.entity_classes: needs typed_entities: true and unify_slots: false")
        self._typed_abstractor = Abstractor(formalism, entity_pattern, typed_entities, unify_slots)
        self._entity_classes = entity_classes
        self._abstractor: Optional[Abstractor] = None if entity_classes else self._typed_abstractor
        self._system: Optional[TransitionSystem] = None

    @property
    def formalism(self) -> str:
        return self._formalism

    @property
    def idiom_source(self) -> Optional[str]:
        return self._idiom_source

    @property
    def abstractor(self) -> Abstractor:
        """
        How logical forms become templates. With `entity_classes` the classes are found on first use, so
        that a reader built from an archive's config needs the training data only when it reads.
        """
        if self._abstractor is None:
            assert self._entity_classes is not None
            typed = self._typed_abstractor
            classes = self._entity_classes.classes(self._idiom_source or "", typed)
            self._abstractor = Abstractor(typed.formalism, typed.entity_pattern, True, False, classes)
        return self._abstractor

    def use_abstractor(self, abstractor: Abstractor, system: Optional[TransitionSystem] = None) -> None:
        """Reads with `abstractor` from now on, and with `system` as the transition system (by default one
        built on first use from `abstractor`, its idioms learned from templates abstracted that way)."""
        self._abstractor, self._system = abstractor, system

    @property
    def transition_system(self) -> TransitionSystem:
        """The transition system with its normalizer, learned or loaded on first use."""
        if self._system is None:
            self._system = TransitionSystem(self._formalism, self._load_normalizer(), self.abstractor)
        return self._system

    def _load_normalizer(self) -> TemplateNormalizer:
        source = self._idiom_source
        if not source:
            return TemplateNormalizer(idioms=[])
        if os.path.isdir(source) or (os.path.isfile(source) and tarfile.is_tarfile(source)):
            return TemplateNormalizer(idioms=idioms_from_vocabulary(source))
        key = (
            source,
            os.environ.get("FEWSHOT_DATA_DIR"),
            self._formalism,
            self._min_support,
            self._completeness,
            self.abstractor.cache_key(),
        )
        if key not in _NORMALIZER_CACHE:
            examples = read_training_examples(source, self._formalism)
            templates = [self.abstractor.abstract(e.tree, e.utterance)[0] for e in examples]
            normalizer = TemplateNormalizer(self._min_support, self._completeness)
            normalizer.learn(templates)
            logger.info("Learned %d idioms from %d LFs of %s", len(normalizer.idioms), len(templates), source)
            _NORMALIZER_CACHE[key] = normalizer
        return _NORMALIZER_CACHE[key]

    def _read(self, file_path: str):
        signatures = self._signatures.signatures_for(file_path)
        examples = read_examples(file_path, self._formalism, self._skip_invalid, signatures)
        for example in self.shard_iterable(examples):
            yield self._make_instance(
                example.utterance, example.tree, example.logical_form, f"{example.source}:{example.line_number}"
            )

    def text_to_instance(self, utterance: str, logical_form: Optional[str] = None) -> Instance:  # type: ignore
        """Builds an instance from an utterance and, for training or evaluation, its logical form."""
        tokens = utterance.split() if isinstance(utterance, str) else None
        if not tokens:
            raise ConfigurationError(f"utterance must be a non-empty string, got {utterance!r}")
        tree = None
        if logical_form is not None:
            logical_form, tree = parse_logical_form(logical_form, self._formalism)
        return self._make_instance(tokens, tree, logical_form, None)

    def _make_instance(
        self, tokens: List[str], tree: Optional[Tree], logical_form: Optional[str], location: Optional[str]
    ) -> Instance:
        source = TextField([Token(t) for t in tokens])
        fields: Dict[str, Field] = {
            "source_tokens": source,
            "source_entity_types": SequenceLabelField(
                [self.abstractor.token_entity_type(t) or NOT_AN_ENTITY for t in tokens],
                source,
                label_namespace=ENTITY_TYPE_NAMESPACE,
            ),
        }
        metadata: Dict[str, Any] = {"utterance": tokens, "formalism": self._formalism, "location": location}
        if tree is not None:
            steps = self.transition_system.oracle(tree, tokens)
            fields.update(self._action_fields(steps, tokens))
            metadata["logical_form"] = logical_form
            metadata["actions"] = [str(step.action) for step in steps]
            # The normalized template (its action sequence without slot values): episodes group by it.
            metadata["template"] = " ".join(metadata["actions"])
            metadata["slot_values"] = [[value.value for value in step.values] for step in steps]
        fields["metadata"] = MetadataField(metadata)
        return Instance(fields)

    def _action_fields(self, steps: List[Step], tokens: List[str]) -> Dict[str, Field]:
        actions = [step.action for step in steps]
        pointers = teacher_forcing(actions)
        max_arity = max(1, max(action.arity for action in actions))
        popped = numpy.full((len(actions), max_arity), -1, dtype=numpy.dtype(numpy.int64))
        for step, children in enumerate(pointers.popped_states):
            popped[step, : len(children)] = children

        slot_step, slot_order, slot_is_variable, variable_values, targets = [], [], [], [], []
        for step, (_, values) in enumerate(steps):
            seen = {"entity": 0, "variable": 0}
            for position, value in enumerate(values):
                slot_step.append(step)
                # Position among the action's slots of this kind (of any kind with unified slots).
                slot_order.append(position if self.abstractor.unify_slots else seen[value.kind])
                seen[value.kind] += 1
                is_variable = value.kind == "variable"
                slot_is_variable.append(int(is_variable))
                target = numpy.zeros(len(tokens), dtype=numpy.float32)
                if is_variable:
                    variable_values.append(LabelField(value.value, label_namespace=VARIABLE_NAMESPACE))
                else:
                    target[entity_positions(value.value, tokens)] = 1.0
                    variable_values.append(LabelField(-1, skip_indexing=True))
                targets.append(target)
        if not slot_step:  # keep every field present (batches need the same keys); step -1 marks padding
            slot_step, slot_order, slot_is_variable = [-1], [0], [0]
            variable_values = [LabelField(-1, skip_indexing=True)]
            targets = [numpy.zeros(len(tokens), dtype=numpy.float32)]
        return {
            "actions": ListField([LabelField(str(a), label_namespace=ACTION_NAMESPACE) for a in actions]),
            "previous_state": ArrayField(
                numpy.array(pointers.previous_state), padding_value=0, dtype=numpy.dtype(numpy.int64)
            ),
            "stack_size": ArrayField(numpy.array(pointers.stack_size), padding_value=0, dtype=numpy.dtype(numpy.int64)),
            "popped_states": ArrayField(popped, padding_value=-1, dtype=numpy.dtype(numpy.int64)),
            "slot_step": ArrayField(numpy.array(slot_step), padding_value=-1, dtype=numpy.dtype(numpy.int64)),
            "slot_order": ArrayField(numpy.array(slot_order), padding_value=0, dtype=numpy.dtype(numpy.int64)),
            "slot_is_variable": ArrayField(
                numpy.array(slot_is_variable), padding_value=0, dtype=numpy.dtype(numpy.int64)
            ),
            "entity_targets": ArrayField(numpy.stack(targets), padding_value=0.0, dtype=numpy.dtype(numpy.float32)),
            "variable_values": ListField(variable_values),
        }

    def apply_token_indexers(self, instance: Instance) -> None:
        instance.fields["source_tokens"].token_indexers = self._token_indexers  # type: ignore
